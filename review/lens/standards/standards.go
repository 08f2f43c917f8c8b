// Package standards holds the rules of the standards perspective:
// repository conventions, naming, structure, documentation and
// maintainability, each traceable to a named standard (hve-spec §6.2).
package standards

import (
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// Rules returns the rules of the standards perspective.
func Rules() []*lens.Rule {
	rules := []*lens.Rule{IgnoreWithoutReason}
	rules = append(rules, goRules()...)
	rules = append(rules, scriptRules()...)
	rules = append(rules, markupRules()...)
	return rules
}

// Lens returns the standards lens.
func Lens() review.Lens { return lens.New(review.Standards, Rules()...) }
