package security

import (
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestActionsScriptInjectionChange checks that only the expressions the
// change adds are reported, at High for outsiders' text and Medium for a
// reusable workflow's inputs.
func TestActionsScriptInjectionChange(t *testing.T) {
	old := "on: [issues, workflow_call]\njobs:\n  a:\n    steps:\n      - run: echo ${{ github.event.issue.body }}\n"
	new := old + "      - run: |\n          echo ${{ github.event.issue.title }}\n          ./deploy ${{ inputs.env }}\n"
	f := lenstest.Modified(".github/workflows/a.yml", old, new)
	got := lenstest.Check(t, ActionsScriptInjection, f, 0, nil)
	if len(got) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(got), got)
	}
	if s := got[0].Span; s.StartLine != 7 || got[0].Severity != review.SeverityHigh {
		t.Errorf("first: line %d %s, want line 7 High", s.StartLine, got[0].Severity)
	}
	if s := got[1].Span; s.StartLine != 8 || got[1].Severity != review.SeverityMedium {
		t.Errorf("second: line %d %s, want line 8 Medium", s.StartLine, got[1].Severity)
	}
}
