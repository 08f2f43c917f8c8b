package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review/llm"
)

const sha40 = "0123456789012345678901234567890123456789"

func TestReadBugfixes(t *testing.T) {
	list := filepath.Join(t.TempDir(), "b.tsv")
	data := "# header\nowner/repo\t" + sha40 + "\tany\ta/b.py\t7\treturn x\tthe note\n"
	if err := os.WriteFile(list, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := readDefects(list)
	if err != nil || len(ds) != 1 {
		t.Fatalf("readDefects = %v, %v", ds, err)
	}
	d := ds[0]
	for _, f := range []finding{
		{Rule: "security/model", Severity: "Low", File: "a/b.py", Lines: "8"},
		{Rule: "functional/ignored-error", Severity: "High", File: "a/b.py", Lines: "2-6"},
	} {
		if !d.catches(f) {
			t.Errorf("an any defect at a/b.py:7 does not catch %+v", f)
		}
	}
	for _, f := range []finding{
		{Rule: "functional/model", Severity: "High", File: "a/b.py", Lines: "9"},
		{Rule: "functional/model", Severity: "High", File: "a/c.py", Lines: "7"},
	} {
		if d.catches(f) {
			t.Errorf("an any defect at a/b.py:7 catches %+v", f)
		}
	}
}

func TestScore(t *testing.T) {
	goBug := defect{Repo: "o/go", SHA: "aaaaaaaaaa" + sha40[10:], Path: "x.go", Line: 10, Text: "return nil"}
	pyBug := defect{Repo: "o/py", SHA: "bbbbbbbbbb" + sha40[10:], Path: "y.py", Line: 5}
	pyMiss := defect{Repo: "o/py", SHA: "cccccccccc" + sha40[10:], Path: "z.py", Line: 3, Text: "yield line"}
	outs := []outcome{
		{d: goBug, res: reviewOutput{Findings: []finding{
			{Rule: "functional/ignored-error", Severity: "Medium", File: "x.go", Lines: "11", Title: "dropped"},
			{Rule: "standards/long-function", Severity: "Low", File: "x.go", Lines: "40", Title: "long"},
		}}},
		{d: pyBug, res: reviewOutput{
			Findings: []finding{{Rule: "functional/model", Severity: "High", File: "y.py", Lines: "4-5", Title: "wrong"}},
			Ledger: &ledger{Model: "m", Counts: llm.Counts{Candidates: 3, Confirmed: 1, Refuted: map[llm.Reason]int{"unchanged-line": 2}},
				Usage: llm.Usage{PromptTokens: 1000, CompletionTokens: 200}, ElapsedMS: 1500},
		}},
		{d: pyMiss, res: reviewOutput{
			Findings: []finding{{Rule: "readiness/model", Severity: "Low", File: "z.py", Lines: "9", Title: "todo"}},
			Ledger: &ledger{Model: "m", Counts: llm.Counts{Candidates: 1, Confirmed: 1, Relocated: 1, Unverified: map[llm.Reason]int{"timeout": 1}},
				Usage: llm.Usage{PromptTokens: 30}, ElapsedMS: 600},
		}},
	}
	s := score(outs)
	if s.all != (tally{cases: 3, caught: 2, rule: 2, model: 2}) {
		t.Errorf("all = %+v", s.all)
	}
	if got := *s.byProject["o/py"]; got != (tally{cases: 2, caught: 1, rule: 0, model: 2}) {
		t.Errorf("o/py = %+v", got)
	}
	if !slices.Equal(s.languages, []string{"Go", "Python"}) || *s.byLang["Go"] != (tally{cases: 1, caught: 1, rule: 2}) {
		t.Errorf("languages = %v, Go = %+v", s.languages, s.byLang["Go"])
	}
	if len(s.noise) != 2 || !strings.Contains(s.noise[0], "x.go:40 Low standards/long-function") || !strings.Contains(s.noise[1], "z.py:9 Low readiness/model") {
		t.Errorf("noise = %q", s.noise)
	}
	if len(s.caught) != 2 || !strings.Contains(s.caught[0], "aaaaaaaaaa x.go:10 by x.go:11 Medium functional/ignored-error: dropped") ||
		!strings.Contains(s.caught[1], "bbbbbbbbbb y.py:5 by y.py:4-5 High functional/model: wrong") {
		t.Errorf("caught = %q", s.caught)
	}
	if len(s.misses) != 1 || !strings.Contains(s.misses[0], "cccccccccc z.py:3 `yield line`; in the file: readiness/model:9") {
		t.Errorf("misses = %q", s.misses)
	}
	want := "model review (m): 4 candidates, 2 confirmed (1 relocated), 2 refuted (unchanged-line 2); 1 request unverified (timeout 1); 2.1 s, 1230 tokens (2 reviews)"
	if got := s.ledger.String(); got != want {
		t.Errorf("ledger = %q, want %q", got, want)
	}
	var out strings.Builder
	s.print(&out)
	for _, line := range []string{
		"3 bug fixes from 2 projects: 2 caught (**67%**)",
		"| o/py | 2 | 1 | 50% | 0 | 2 |",
		"| Go | 1 | 1 | 100% | 2 | 0 |",
		"| **all** | 3 | 2 | 67% | 2 | 2 |",
		"findings on the reversed fixes: 2 rule, 2 model; 2 caught nothing",
		want,
	} {
		if !strings.Contains(out.String(), line+"\n") {
			t.Errorf("the report lacks %q:\n%s", line, out.String())
		}
	}
}

func TestLedgerSumNone(t *testing.T) {
	var s ledgerSum
	s.add(nil)
	if got := s.String(); got != "" {
		t.Errorf("a run without ledgers says %q", got)
	}
}

func TestReviewArgs(t *testing.T) {
	for _, tt := range []struct {
		extra     []string
		artifacts bool
	}{
		{nil, false},
		{[]string{"--no-model"}, false},
		{[]string{"--depth", "basic"}, false},
		{[]string{"--model", "qwen"}, true},
		{[]string{"-model-endpoint=http://127.0.0.1:11434/v1"}, true},
		{[]string{"--model-transcript", "/tmp/t", "--model-replay"}, true},
	} {
		args := reviewArgs(tt.extra)
		if got := !slices.Contains(args, "--no-artifacts"); got != tt.artifacts {
			t.Errorf("reviewArgs(%q) = %q: writes the artifact folder %v, want %v", tt.extra, args, got, tt.artifacts)
		}
		if !slices.Equal(args[len(args)-len(tt.extra):], tt.extra) {
			t.Errorf("reviewArgs(%q) = %q: the flags are not passed last", tt.extra, args)
		}
	}
}

func TestAbsTranscript(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel := filepath.Join(wd, "tr")
	for _, tt := range []struct{ in, want []string }{
		{[]string{"--model-transcript", "tr", "--model-replay"}, []string{"--model-transcript", rel, "--model-replay"}},
		{[]string{"-model-transcript=tr"}, []string{"-model-transcript=" + rel}},
		{[]string{"--model-transcript", "/abs/tr"}, []string{"--model-transcript", "/abs/tr"}},
		{[]string{"--model", "tr"}, []string{"--model", "tr"}},
		{[]string{"--model-transcript"}, []string{"--model-transcript"}},
	} {
		if got := absTranscript(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("absTranscript(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := reviewArgs([]string{"--model-transcript", "tr"}); got[len(got)-1] != rel {
		t.Errorf("reviewArgs passes the transcript folder relative: %q", got)
	}
}

// fakeReviewls writes a reviewls stand-in that prints one finding and,
// when it is not told --no-artifacts, writes the ledger where the real
// one's artifact folder is.
func fakeReviewls(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "reviewls")
	script := `#!/bin/sh
case " $* " in *" --no-artifacts "*) ;; *)
	mkdir -p .copilot-tracking/reviews/code-reviews/replay
	printf '%s' '{"schema_version":"1","ledger":{"counts":{"candidates":2,"confirmed":1,"relocated":0,"refuted":{"duplicate":1},"unverified":{}}}}' > .copilot-tracking/reviews/code-reviews/replay/model-review.json
esac
printf '%s' '{"findings":[{"rule_id":"functional/model","severity":"High","file":"a.go","lines":"3"}]}'
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestReviewReadsLedger(t *testing.T) {
	bin := fakeReviewls(t)
	dir := t.TempDir()
	res, _, err := review(bin, dir, nil)
	if err != nil || len(res.Findings) != 1 || res.Ledger != nil {
		t.Fatalf("review without the model = %+v, %v; want one finding and no ledger", res, err)
	}
	res, _, err = review(bin, dir, []string{"--model", "m", "--model-endpoint", "http://127.0.0.1:1/v1"})
	if err != nil || res.Ledger == nil {
		t.Fatalf("review with the model = %+v, %v; want its ledger", res, err)
	}
	if c := res.Ledger.Counts; c.Candidates != 2 || c.Confirmed != 1 || c.Refuted["duplicate"] != 1 {
		t.Errorf("ledger = %+v", c)
	}
}

func TestReadLedgerMalformed(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, ".copilot-tracking", "reviews", "code-reviews", "replay")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "model-review.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readLedger(dir); err == nil || !strings.Contains(err.Error(), "decode") {
		t.Errorf("readLedger of a malformed file = %v, want a decode error", err)
	}
}

// gitRun runs git in dir and returns its trimmed output.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com",
		"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com", "GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestApplyReversed(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package a\n\nfunc f() error { return nil }\n")
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "first")
	write("package a\n\nfunc f() error { return err }\n")
	gitRun(t, dir, "commit", "-q", "-am", "Fix the dropped error")
	fix := gitRun(t, dir, "rev-parse", "HEAD")

	if err := applyReversed(dir, fix); err != nil {
		t.Fatal(err)
	}
	head := gitRun(t, dir, "rev-parse", "HEAD")
	if msg := gitRun(t, dir, "log", "-1", "--format=%B"); msg != "replay" {
		t.Errorf("HEAD's message is %q: the review could read the fix's", msg)
	}
	if gitRun(t, dir, "rev-parse", "HEAD^{tree}") != gitRun(t, dir, "rev-parse", fix+"^{tree}") ||
		gitRun(t, dir, "rev-parse", "HEAD^") != gitRun(t, dir, "rev-parse", fix+"^") {
		t.Error("HEAD is not the fix's tree on the fix's parent")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.go")); !strings.Contains(string(got), "return nil") {
		t.Errorf("the work tree is not the parent's: %q", got)
	}
	if diff := gitRun(t, dir, "diff", "HEAD"); !strings.Contains(diff, "-func f() error { return err }") {
		t.Errorf("the change is not the reversed fix:\n%s", diff)
	}
	if err := applyReversed(dir, fix); err != nil {
		t.Fatal(err)
	}
	if again := gitRun(t, dir, "rev-parse", "HEAD"); again != head {
		t.Errorf("a second replay made HEAD %s, the first %s: requests naming it would differ", again, head)
	}
}
