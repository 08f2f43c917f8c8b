package process

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

func changeSet(files ...*review.File) *review.ChangeSet {
	cs := &review.ChangeSet{Files: files}
	cs.Sort()
	return cs
}

func file(path, content string, changed ...int) *review.File {
	f := &review.File{Path: path, Status: review.StatusModified, Language: review.DetectLanguage(path, []byte(content)), Content: []byte(content), Lines: map[int]review.LineState{}}
	for _, n := range changed {
		f.Lines[n] = review.LineUnstaged
	}
	return f
}

func finding(rule, path string, line int, sev review.Severity) *review.Finding {
	p, _, _ := strings.Cut(rule, "/")
	return &review.Finding{RuleID: rule, Perspective: review.Perspective(p), Title: "t " + rule, Message: "m", Severity: sev, Span: review.Span{Path: path, StartLine: line, EndLine: line}}
}

func ids(fs []*review.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.RuleID+"@"+f.Span.Path+":"+f.Span.Lines())
	}
	return out
}

func assertSame(t *testing.T, want []string, got []*review.Finding) {
	t.Helper()
	if diff := cmp.Diff(want, ids(got)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
}

func TestFromDiff(t *testing.T) {
	cs := changeSet(
		file("a.go", "l1\nl2\nl3\n", 2),
		&review.File{Path: "b.lock", Status: review.StatusModified, Skip: "lock file"},
		&review.File{Path: "gone.go", Status: review.StatusDeleted},
	)
	long := finding("security/x", "a.go", 1, review.SeverityHigh)
	long.Span.EndLine = 3
	bad := finding("security/x", "a.go", 2, 0)
	in := []*review.Finding{
		finding("security/x", "a.go", 2, review.SeverityHigh), // changed line
		long, // span contains a changed line
		finding("security/x", "a.go", 1, review.SeverityHigh),   // unchanged line
		finding("security/x", "a.go", 9, review.SeverityHigh),   // past the end
		finding("security/x", "c.go", 1, review.SeverityHigh),   // not in the diff
		finding("security/x", "b.lock", 1, review.SeverityHigh), // skipped
		finding("security/x", "gone.go", 1, review.SeverityHigh),
		bad,
	}
	p := &FromDiff{ChangeSet: cs}
	got, err := p.Process(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertSame(t, []string{"security/x@a.go:2", "security/x@a.go:1-3"}, got)
	var reasons []string
	for _, r := range p.Rejected {
		reasons = append(reasons, r.Reason)
	}
	want := []string{
		"line 1 of a.go is not a changed line",
		"line 9 is past the end of a.go (3 lines)",
		"c.go is not part of the diff",
		"b.lock is not reviewed (lock file)",
		"gone.go has no reviewed content (deleted)",
		"malformed finding: invalid severity 0",
	}
	if diff := cmp.Diff(want, reasons); diff != "" {
		t.Errorf("rejection reasons (-want +got):\n%s", diff)
	}
}

func TestSuppress(t *testing.T) {
	src := strings.Join([]string{
		`x := 1 // reviewls:ignore functional/a false positive: guarded above`, // 1 trailing, with reason
		`// reviewls:ignore functional/a checked by the caller`,                // 2 comment line above 3
		`y := 2`,                                 // 3
		`z := 3 // reviewls:ignore functional/a`, // 4 no reason: does not suppress
		`// reviewls:ignore functional/* generated fixture data`, // 5 wildcard
		`w := 4`, // 6
		`v := call("reviewls:ignore functional/a x")`, // 7 inside code: next line is not covered
		`u := 5`, // 8
		`/* reviewls:ignore functional/a kept for the ABI */ t := 6`, // 9 block comment
	}, "\n") + "\n"
	cs := changeSet(file("a.go", src, 1, 3, 4, 6, 8, 9))
	in := []*review.Finding{
		finding("functional/a", "a.go", 1, review.SeverityLow),
		finding("functional/a", "a.go", 3, review.SeverityLow),
		finding("functional/b", "a.go", 3, review.SeverityLow), // other rule: kept
		finding("functional/a", "a.go", 4, review.SeverityLow),
		finding("functional/b", "a.go", 6, review.SeverityLow),
		finding("functional/a", "a.go", 8, review.SeverityLow),
		finding("functional/a", "a.go", 9, review.SeverityLow),
	}
	p := &Suppress{ChangeSet: cs}
	got, err := p.Process(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertSame(t, []string{"functional/b@a.go:3", "functional/a@a.go:4", "functional/a@a.go:8"}, got)
	var by []string
	for _, s := range p.Suppressed {
		by = append(by, s.By+" "+s.Reason)
	}
	want := []string{
		"inline at a.go:1 false positive: guarded above",
		"inline at a.go:2 checked by the caller",
		"inline at a.go:5 generated fixture data",
		"inline at a.go:9 kept for the ABI",
	}
	if diff := cmp.Diff(want, by); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
}

func TestDirectivesHTML(t *testing.T) {
	f := file("a.html", `<img src="x"> <!-- reviewls:ignore accessibility/img-alt decorative spacer image -->`+"\n", 1)
	got := Directives(f)
	want := []Directive{{Line: 1, Rule: "accessibility/img-alt", Reason: "decorative spacer image"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Directives (-want +got):\n%s", diff)
	}
}

func TestDedupeKeepsMostSevere(t *testing.T) {
	got, _ := (&Dedupe{}).Process(context.Background(), []*review.Finding{
		finding("security/x", "a.go", 2, review.SeverityLow),
		finding("security/x", "a.go", 2, review.SeverityHigh),
		finding("security/x", "a.go", 3, review.SeverityLow),
		finding("functional/y", "a.go", 2, review.SeverityLow),
	})
	assertSame(t, []string{"security/x@a.go:2", "security/x@a.go:3", "functional/y@a.go:2"}, got)
	if got[0].Severity != review.SeverityHigh {
		t.Errorf("kept severity %v, want High", got[0].Severity)
	}
}

func TestSortAndNumber(t *testing.T) {
	in := []*review.Finding{
		finding("readiness/t", "b.go", 1, review.SeverityLow),
		finding("security/s", "b.go", 5, review.SeverityHigh),
		finding("functional/f", "c.go", 1, review.SeverityHigh),
		finding("security/s", "a.go", 9, review.SeverityHigh),
		finding("functional/m", "a.go", 1, review.SeverityCritical),
	}
	orig := in[1]
	cs := changeSet(file("a.go", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", 1, 9), file("b.go", "1\n2\n3\n4\n5\n", 1, 5), file("c.go", "1\n", 1))
	got, err := Default(cs, nil, nil).Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertSame(t, []string{"functional/m@a.go:1", "functional/f@c.go:1", "security/s@a.go:9", "security/s@b.go:5", "readiness/t@b.go:1"}, got)
	for i, f := range got {
		if f.Number != i+1 {
			t.Errorf("finding %d numbered %d", i+1, f.Number)
		}
	}
	if got[0].Title != "[Functional] t functional/m" {
		t.Errorf("title = %q, want the perspective tag", got[0].Title)
	}
	if orig.Title != "t security/s" {
		t.Errorf("tagging changed the lens finding's title to %q", orig.Title)
	}
	c := Count(got)
	if c != (review.Counts{Critical: 1, High: 3, Low: 1}) {
		t.Errorf("Count = %+v", c)
	}
	if v := review.VerdictFor(c); v != review.VerdictRequestChanges {
		t.Errorf("verdict = %s", v)
	}
}

func TestVerdict(t *testing.T) {
	for _, tt := range []struct {
		c    review.Counts
		want review.Verdict
	}{
		{review.Counts{}, review.VerdictApprove},
		{review.Counts{Low: 2}, review.VerdictApproveWithComments},
		{review.Counts{Medium: 1}, review.VerdictApproveWithComments},
		{review.Counts{High: 1, Low: 1}, review.VerdictRequestChanges},
		{review.Counts{Critical: 1}, review.VerdictRequestChanges},
	} {
		if got := review.VerdictFor(tt.c); got != tt.want {
			t.Errorf("VerdictFor(%+v) = %s, want %s", tt.c, got, tt.want)
		}
	}
}
