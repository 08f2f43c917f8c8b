// Package functional holds the rules of the functional perspective: logic,
// edge cases, error handling, concurrency and contract correctness
// (hve-spec §6.1). Functional findings are behavioural defects, never style.
package functional

import (
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// Categories of the functional perspective (hve-spec §6.1).
const (
	CatLogic       = "Logic"
	CatEdgeCases   = "Edge Cases"
	CatErrors      = "Error Handling"
	CatConcurrency = "Concurrency"
	CatContract    = "Contract"
)

// Rules returns the rules of the functional perspective.
func Rules() []*lens.Rule {
	rules := []*lens.Rule{MergeConflictMarker}
	rules = append(rules, goRules()...)
	rules = append(rules, scriptRules()...)
	rules = append(rules, markupRules()...)
	return rules
}

// Lens returns the functional lens.
func Lens() review.Lens { return lens.New(review.Functional, Rules()...) }
