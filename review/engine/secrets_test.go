package engine

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// Secrets planted where no rule looks: removed and context lines, the
// branch name, a file name and a commit subject.
const (
	removedSecret = "ghp_WLm52mva5fiI6bGfKFI6mAezmOWfSLjl8MU9"
	contextSecret = "xoxb-867539163168-585242400242-hMjaddCnYysNa9ZwsjEJri9f"
	branchSecret  = "ghp_cdrJRM2jVrVKch3Tz85pkNGcVx2RHLKXSf3w"
	subjectSecret = "ASIAKPDHIEYGSNO2FRNZ"
	nameSecret    = "AIzaMiCrnm_6h_gdVF6DV-Fekg00ikyexkidT88"
)

// TestRedactorKnowsQuotedSecrets checks that the run's redactor knows the
// secrets of everything the outputs quote besides added lines — without
// its detector, so the values must have been found by the run — and that
// they are notes, not findings, of the review.
func TestRedactorKnowsQuotedSecrets(t *testing.T) {
	dir := repo(t, map[string]string{
		"a.go": "package a\n\nconst old = \"" + removedSecret + "\"\n\nconst slack = \"" + contextSecret + "\"\n\nfunc f() int { return 1 }\n",
	})
	reviewtest.Git(t, dir, "checkout", "-q", "-b", "feature/"+branchSecret)
	write(t, dir, "a.go", []byte("package a\n\nconst slack = \""+contextSecret+"\"\n\nfunc f() int { return 2 }\n"))
	write(t, dir, "keys/"+nameSecret+".txt", []byte("see the vault\n"))

	check := func(res *review.Result, want ...string) {
		t.Helper()
		known := res.Redactor.WithDetector(nil)
		for _, s := range want {
			if known.String("x "+s+" y") == "x "+s+" y" {
				t.Errorf("%s: the redactor does not know %s…", res.ChangeSet.Target.Kind, s[:8])
			}
		}
		for _, f := range res.Findings {
			if f.RuleID == "security/hardcoded-secret" || f.RuleID == "security/generic-secret" {
				t.Errorf("finding %s at %s:%d: removed and context secrets are not findings of the change", f.RuleID, f.Span.Path, f.Span.StartLine)
			}
		}
		actions := strings.Join(res.Actions, "\n")
		if !strings.Contains(actions, "Rotate the credential "+review.Redact(removedSecret)+" that the change removes from a.go (line 3 of the base version)") {
			t.Errorf("no rotation note for the removed secret in the actions:\n%s", actions)
		}
		var obs []string
		for _, o := range res.OutOfScope {
			obs = append(obs, o.File+": "+o.Observation)
		}
		if got := strings.Join(obs, "\n"); !strings.Contains(got, "a.go: Unchanged line 3 holds a hardcoded credential ("+review.Redact(contextSecret)+")") {
			t.Errorf("no observation for the context secret:\n%s", got)
		}
		for _, s := range want {
			if strings.Contains(actions, s) || strings.Contains(strings.Join(obs, "\n"), s) {
				t.Errorf("a note carries %s… raw", s[:8])
			}
		}
	}
	check(run(t, dir, review.Request{}), removedSecret, contextSecret, branchSecret, nameSecret)

	reviewtest.Git(t, dir, "add", "-A")
	reviewtest.Git(t, dir, "commit", "-q", "-m", "rotate "+subjectSecret)
	check(run(t, dir, review.Request{Base: "main"}), removedSecret, contextSecret, branchSecret, nameSecret, subjectSecret)
}

// TestDropQuotingFixes checks that a fix whose edit would send a secret to
// the editor is dropped, and that other fixes stay.
func TestDropQuotingFixes(t *testing.T) {
	edit := func(text string) *review.Fix {
		return &review.Fix{Title: "fix", Edits: []review.TextEdit{{NewText: text}}}
	}
	quoting := &review.Finding{Fix: edit("key := \"" + subjectSecret + "\"\n")}
	clean := &review.Finding{Fix: edit("key := os.Getenv(\"KEY\")\n")}
	fs := []*review.Finding{quoting, clean, {}}
	dropQuotingFixes(fs, review.NewRedactor([]string{subjectSecret}))
	if fs[0].Fix != nil {
		t.Error("the fix quoting a secret was kept")
	}
	if quoting.Fix == nil {
		t.Error("the shared finding was changed instead of copied")
	}
	if fs[1] != clean || clean.Fix == nil {
		t.Error("the clean fix was dropped")
	}
}
