// Package accessibility holds the rules of the accessibility perspective
// for markup (HTML, JSX/TSX, Vue, Svelte): perceivable, operable,
// understandable, robust and cognitive concerns, each citing the WCAG
// success criterion it traces to (hve-spec §6.3).
package accessibility

import (
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// Categories of the accessibility perspective (hve-spec §6.3).
const (
	CatPerceivable    = "Perceivable"
	CatOperable       = "Operable"
	CatUnderstandable = "Understandable"
	CatRobust         = "Robust"
	CatCognitive      = "Cognitive"
)

// Rules returns the rules of the accessibility perspective.
func Rules() []*lens.Rule {
	rules := []*lens.Rule{}
	rules = append(rules, goRules()...)
	rules = append(rules, scriptRules()...)
	rules = append(rules, markupRules()...)
	return rules
}

// init makes every accessibility rule skip UI tests and stories
// ([lens.UIFixture]), and says so in its doc: their markup is a fixture
// (a form without a label in a *.test.tsx tests the form, not a page),
// never shown to a user.
func init() {
	for _, r := range Rules() {
		r.Doc += " Not reported in UI tests and stories (*.test.*, *.spec.*, __tests__/, test/, tests/, e2e/, " +
			"cypress/, playwright/, __mocks__/, *.stories.*, .storybook/): their markup is a fixture."
		run := r.Run
		r.Run = func(p *lens.Pass) {
			if !lens.UIFixture(p.File.Path) {
				run(p)
			}
		}
	}
}

// Lens returns the accessibility lens.
func Lens() review.Lens { return lens.New(review.Accessibility, Rules()...) }
