package accessibility

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// AriaHiddenFocusable finds focusable content hidden from assistive
// technology.
var AriaHiddenFocusable = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/aria-hidden-focusable",
		Perspective: review.Accessibility,
		Category:    CatRobust,
		Severity:    review.SeverityHigh,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "aria-hidden on focusable content",
		Doc: "aria-hidden=\"true\" on an element that keyboard users can focus (a link with href, a button, an " +
			"enabled form field, tabindex >= 0, contenteditable), or on a container holding one, fails WCAG 2.2 " +
			"SC 4.1.2 Name, Role, Value: Tab still lands on it, but screen readers treat it as absent, so blind " +
			"users hit a silent or unexplained focus stop. The fix removes aria-hidden from a focusable element, " +
			"which keeps the control usable by everyone; if it is a decorative duplicate, add tabindex=\"-1\" " +
			"instead. For a container the rule suggests inert or tabindex=\"-1\" on the controls and offers no " +
			"fix. Elements that are disabled, have tabindex=\"-1\", a computed tabindex or spread props, inert " +
			"containers and components are not reported.",
		Bad:     `<a href="/cart" aria-hidden="true">Cart</a>`,
		Good:    `<a href="/cart">Cart</a>`,
		Fixable: true,
	},
	Run: runAriaHiddenFocusable,
}

func runAriaHiddenFocusable(p *lens.Pass) {
	m := syntax.MarkupFile(p.File)
	for i := range m.Tags {
		t := &m.Tags[i]
		if !ariaHidden(t) || t.Has("inert") {
			continue
		}
		a := t.Attr("aria-hidden")
		if focusable(t) {
			if !t.Changed(p.File) {
				continue
			}
			reportTag(p, t, lens.Report{
				Title: fmt.Sprintf("aria-hidden on focusable %s", tagLabel(t)),
				Message: fmt.Sprintf("%s is focusable but aria-hidden=\"true\". %s: keyboard users can Tab to it, "+
					"but screen readers treat it as absent, so blind users land on a silent, unexplained focus stop.",
					tagLabel(t), sc("4.1.2", "Name, Role, Value", "A")),
				Suggested: `Remove aria-hidden; if the element is a decorative duplicate, keep aria-hidden and add tabindex="-1" instead.`,
				Fix:       &review.Fix{Title: "Remove " + a.Name, Edits: []review.TextEdit{removeAttr(p, m, a)}},
			})
			continue
		}
		for j := i + 1; j <= t.Last; j++ {
			c := &m.Tags[j]
			if !focusable(c) {
				continue
			}
			// Anchor to the container, or to the control when only the
			// control was added inside an existing hidden container.
			anchor := t
			if !t.Changed(p.File) {
				if !c.Changed(p.File) {
					break
				}
				anchor = c
			}
			reportTag(p, anchor, lens.Report{
				Title: fmt.Sprintf("aria-hidden %s contains focusable %s", tagLabel(t), tagLabel(c)),
				Message: fmt.Sprintf("%s (line %d) is aria-hidden=\"true\" but contains a focusable %s (line %d). %s: "+
					"keyboard users can Tab into the hidden content, but screen readers treat it as absent, so blind "+
					"users land on a silent, unexplained focus stop.", tagLabel(t), t.Line, tagLabel(c), c.Line,
					sc("4.1.2", "Name, Role, Value", "A")),
				Suggested: `Make the hidden content inert (the inert attribute), or give its controls tabindex="-1"; if it is not decorative, remove aria-hidden.`,
			})
			break
		}
	}
}
