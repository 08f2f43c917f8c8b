// Package lenstest runs rules on test inputs and checks their findings
// against expectations written in the inputs, in the style of
// golang.org/x/tools/go/analysis/analysistest: a line that must produce a
// finding carries `want "regexp"` (in a comment of the file's language); a
// line without one must produce none. Every line of a test input counts as
// changed unless the caller says otherwise.
package lenstest

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// NewFile returns an untracked review file of the given content: every line
// is changed.
func NewFile(path string, content []byte) *review.File { return review.UntrackedFile(path, content) }

// Input reads the test input at file (relative to the test's package) and
// returns it as [NewFile] named path.
func Input(t testing.TB, file, path string) *review.File {
	t.Helper()
	content, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return NewFile(path, content)
}

// Check runs rule on f at depth (zero means standard) and returns its
// findings. It fails the test if the rule panics.
func Check(t testing.TB, rule *lens.Rule, f *review.File, depth review.Depth, cfg *review.Config) []*review.Finding {
	t.Helper()
	return CheckSet(t, rule, &review.ChangeSet{Root: t.TempDir(), Files: []*review.File{f}}, depth, cfg)
}

// CheckSet runs rule on every file of cs at depth (zero means standard),
// with cs.Root as the work tree the rule may read, and returns its
// findings. It fails the test if the rule panics.
func CheckSet(t testing.TB, rule *lens.Rule, cs *review.ChangeSet, depth review.Depth, cfg *review.Config) []*review.Finding {
	t.Helper()
	cs.Sort()
	got, err := lens.New(rule.Perspective, rule).Check(context.Background(), cs, nil, review.CheckOptions{Depth: depth, Config: cfg})
	if err != nil {
		t.Fatalf("%s: %v", rule.ID, err)
	}
	return got
}

var wantRE = regexp.MustCompile(`want "((?:[^"\\]|\\.)*)"`)

// Run checks rule against every file under dir (recursively): each line
// with `want "re"` annotations must yield findings whose titles or messages
// match, and no other line may yield a finding. An input named "x.go.in" is
// reviewed as "x.go": the suffix keeps deliberately malformed inputs away
// from the repository's own formatters and linters.
func Run(t *testing.T, rule *lens.Rule, dir string) { RunConfig(t, rule, dir, nil) }

// RunConfig is [Run] under the configuration cfg.
func RunConfig(t *testing.T, rule *lens.Rule, dir string, cfg *review.Config) {
	t.Helper()
	RunFiles(t, rule, dir, func(f *review.File) { Expect(t, rule, f, Check(t, rule, f, 0, cfg)) })
}

// RunRules runs [Run] for each file rule of rules on its test inputs,
// testdata/<name> where the rule's ID is <perspective>/<name>, in a subtest
// named by the ID. Whole-change rules and rules of depth comprehensive
// (which read the module on disk) are left to their own tests. cfgs, when
// given, holds the configuration of the rules that read one, by rule id.
func RunRules(t *testing.T, rules []*lens.Rule, cfgs ...map[string]*review.Config) {
	t.Helper()
	for _, r := range rules {
		if r.Run == nil || r.Depth > review.DepthStandard {
			continue
		}
		var cfg *review.Config
		for _, c := range cfgs {
			cfg = cmp.Or(c[r.ID], cfg)
		}
		t.Run(r.ID, func(t *testing.T) {
			_, name, _ := strings.Cut(r.ID, "/")
			RunConfig(t, r, filepath.Join("testdata", name), cfg)
		})
	}
}

// InputName returns the review path of a test input: its path without an
// ".in" suffix.
func InputName(rel string) string { return strings.TrimSuffix(filepath.ToSlash(rel), ".in") }

// RunFiles calls fn on a subtest for each test input under dir.
func RunFiles(t *testing.T, rule *lens.Rule, dir string, fn func(f *review.File)) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			fn(NewFile(InputName(rel), content))
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no test inputs in %s", dir)
	}
}

// Expect compares findings with the `want` annotations of f.
func Expect(t *testing.T, rule *lens.Rule, f *review.File, findings []*review.Finding) {
	t.Helper()
	want := map[int][]*regexp.Regexp{}
	for i, line := range lens.Lines(f) {
		for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
			re, err := regexp.Compile(strings.ReplaceAll(m[1], `\"`, `"`))
			if err != nil {
				t.Fatalf("%s:%d: bad want pattern: %v", f.Path, i+1, err)
			}
			want[i+1] = append(want[i+1], re)
		}
	}
	got := map[int][]*review.Finding{}
	for _, fd := range findings {
		if fd.RuleID != rule.ID {
			t.Errorf("%s:%d: finding of rule %s, want %s", f.Path, fd.Span.StartLine, fd.RuleID, rule.ID)
		}
		got[fd.Span.StartLine] = append(got[fd.Span.StartLine], fd)
		checkText(t, f.Path, fd)
	}
	lines := map[int]bool{}
	for n := range want {
		lines[n] = true
	}
	for n := range got {
		lines[n] = true
	}
	var order []int
	for n := range lines {
		order = append(order, n)
	}
	sort.Ints(order)
	for _, n := range order {
		w, g := want[n], got[n]
		if len(w) != len(g) {
			var msgs []string
			for _, fd := range g {
				msgs = append(msgs, fd.Title+": "+fd.Message)
			}
			t.Errorf("%s:%d: got %d findings, want %d %v\n\tgot: %q", f.Path, n, len(g), len(w), w, msgs)
			continue
		}
		for i, re := range w {
			if text := g[i].Title + "\n" + g[i].Message; !re.MatchString(text) {
				t.Errorf("%s:%d: finding %q does not match %q", f.Path, n, text, re)
			}
		}
	}
}

// checkText holds a finding to the message format every rule shares: a
// title that reads alone as the finding's headline (editors show it as the
// diagnostic), no longer than [review.HeadlineMax] once marked, and a
// rationale that says more than the title.
func checkText(t *testing.T, path string, fd *review.Finding) {
	t.Helper()
	at := fmt.Sprintf("%s:%d: %s", path, fd.Span.StartLine, fd.RuleID)
	switch title := fd.Title; {
	case strings.TrimSpace(title) == "":
		t.Errorf("%s: empty title", at)
	case strings.ContainsAny(title, "\n\r"):
		t.Errorf("%s: title %q spans lines", at, title)
	case strings.HasSuffix(title, "."):
		t.Errorf("%s: title %q ends in a full stop: it is a headline, the rationale goes in the message", at, title)
	case utf8.RuneCountInString(fd.Headline()) > review.HeadlineMax || strings.HasSuffix(strings.TrimSuffix(fd.Headline(), " [critical]"), "…"):
		t.Errorf("%s: title %q is longer than a headline (%d characters with its mark)", at, title, review.HeadlineMax)
	}
	if msg := strings.TrimSpace(fd.Message); msg == "" || msg == strings.TrimSpace(fd.Title) {
		t.Errorf("%s: message %q adds nothing to the title", at, fd.Message)
	}
}

// Modified returns a modified review file whose base version is old: one
// hunk spans the file, with the lines of a longest common subsequence of
// old and new as context and the others removed or added, so only the
// added lines are changed and [lens.OldContent] gives old back.
func Modified(path, old, new string) *review.File {
	f := &review.File{Path: path, Status: review.StatusModified, Language: review.DetectLanguage(path, []byte(new)),
		Content: []byte(new), Lines: map[int]review.LineState{}}
	a, b := lens.SplitLines([]byte(old)), lens.SplitLines([]byte(new))
	lcs := LCS(a, b)
	h := review.Hunk{OldStart: 1, OldLines: len(a), NewStart: 1, NewLines: len(b)}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			h.Lines = append(h.Lines, " "+a[i])
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			h.Lines = append(h.Lines, "+"+b[j])
			f.Lines[j+1] = review.LineUnstaged
			j++
		default:
			h.Lines = append(h.Lines, "-"+a[i])
			i++
		}
	}
	f.Hunks = []review.Hunk{h}
	return f
}

// LCS returns the table of longest common subsequences of a and b:
// lcs[i][j] is the length of one of a[i:] and b[j:].
func LCS(a, b []string) [][]int {
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	return lcs
}

// Notes runs a whole-change rule over cs at depth standard and returns
// its notes. It fails the test if the rule panics.
func Notes(t testing.TB, rule *lens.Rule, cs *review.ChangeSet) []review.Note {
	t.Helper()
	l := lens.New(rule.Perspective, rule).(review.NoteLens)
	got, err := l.Notes(context.Background(), cs, review.CheckOptions{Depth: review.DepthStandard})
	if err != nil {
		t.Fatalf("%s: %v", rule.ID, err)
	}
	return got
}
