package readiness

import (
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestRules runs every file rule of the perspective on its test inputs,
// testdata/<rule name>, checking their want annotations; the policy rule
// runs under the policy of policyConfig.
func TestRules(t *testing.T) {
	lenstest.RunRules(t, Rules(), map[string]*review.Config{review.PolicyRule: policyConfig})
}

var policyConfig = &review.Config{Policy: review.Policy{
	Paths:        []string{"legacy/**"},
	Imports:      []string{"github.com/pkg/errors", "pickle", "lodash", "left-pad"},
	Dependencies: []string{"github.com/pkg/errors", "left-pad", "pyyaml"},
}}

// TestPolicyNone checks that the policy rule finds nothing without a
// policy: a review never rejects from anything but a written one.
func TestPolicyNone(t *testing.T) {
	lenstest.RunFiles(t, Policy, "testdata/policy", func(f *review.File) {
		if got := lenstest.Check(t, Policy, f, 0, nil); len(got) > 0 {
			t.Errorf("%s: %d findings without a policy, want none", f.Path, len(got))
		}
		if got := lenstest.Check(t, Policy, f, 0, &review.Config{}); len(got) > 0 {
			t.Errorf("%s: %d findings with an empty policy, want none", f.Path, len(got))
		}
	})
}
