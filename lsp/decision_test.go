package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/reviewls/reviewls/lsp"
	"github.com/reviewls/reviewls/lsp/lsptest"
)

// decisionOf is the decision of a reviewls/didReview notification.
type decisionOf struct {
	Decision *struct {
		Recommendation, Words, Readiness string
		Confidence                       float64
		Gaps                             []struct{ ID, Text, Closure string }
	}
}

// TestDidReviewDecision checks that reviewls/didReview carries the
// decision in words, with the gaps and their closures, so the editors show
// it instead of the raw verdict; and that the server never runs the
// project gates, even those of a trusted repository: the decision keeps
// the gap, and the gate's marker never appears.
func TestDidReviewDecision(t *testing.T) {
	dir := repo(t, map[string]string{"store/store.go": "package store\n", ".reviewls.yaml": "gates: [touch gate-ran]\n"})
	env := lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: trusting(t, dir)}})
	env.WriteFile("store/store.go", "package store\n\n// Save saves.\nfunc Save() error {\n\tpanic(\"not implemented\")\n}\n")
	env.Await(lsptest.DiagnosticsAt("store/store.go", 0, lsptest.WithCode("readiness/stub")))
	var got decisionOf
	env.Await(func(s *lsptest.State) (bool, string) {
		for _, raw := range s.Reviews {
			var d decisionOf
			if json.Unmarshal(raw, &d) == nil && d.Decision != nil && d.Decision.Recommendation == "insufficient-but-promising" {
				got = d
				return true, ""
			}
		}
		return false, fmt.Sprintf("a reviewls/didReview deciding insufficient-but-promising (got %d)", len(s.Reviews))
	})
	d := got.Decision
	if d.Words != "Insufficient, but promising" || d.Readiness != "incomplete" || d.Confidence <= 0 || d.Confidence >= 1 {
		t.Errorf("decision %+v, want it in words, incomplete, a confidence in (0, 1)", d)
	}
	gateGap := false
	for _, g := range d.Gaps {
		gateGap = gateGap || g.ID == "gates-not-run" && g.Closure == "reviewls review --gates"
	}
	if !gateGap {
		t.Errorf("gaps %+v, want gates-not-run closed by reviewls review --gates", d.Gaps)
	}
	env.Shutdown()
	if _, err := os.Stat(filepath.Join(dir, "gate-ran")); err == nil {
		t.Error("the language server ran a project gate")
	}
}
