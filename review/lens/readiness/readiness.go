// Package readiness holds the rules of the readiness perspective: the change
// as a deliverable — scope hygiene, validation evidence, follow-ups,
// documentation (hve-spec §6.5).
package readiness

import (
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// Categories of the readiness perspective (hve-spec §6.5).
const (
	CatScope         = "Scope Hygiene"
	CatValidation    = "Validation Evidence"
	CatFollowUp      = "Follow-up"
	CatDocumentation = "Documentation"
	CatMergeability  = "Mergeability"
)

// Rules returns the rules of the readiness perspective.
func Rules() []*lens.Rule {
	rules := []*lens.Rule{TodoAdded, Stub, Policy}
	rules = append(rules, goRules()...)
	rules = append(rules, scriptRules()...)
	rules = append(rules, markupRules()...)
	return rules
}

// Lens returns the readiness lens.
func Lens() review.Lens { return lens.New(review.Readiness, Rules()...) }
