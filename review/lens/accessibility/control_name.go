package accessibility

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// ControlName finds buttons and links without an accessible name.
var ControlName = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/control-name",
		Perspective: review.Accessibility,
		Category:    CatRobust,
		Severity:    review.SeverityHigh,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "Control without an accessible name",
		Doc: "A <button>, an <a href> or an element with role=\"button\", \"link\", \"menuitem\" or \"tab\" whose " +
			"only content is an icon (an <svg>, an icon font <i>, an <Icon/> component, an image with empty alt) and " +
			"that has no aria-label, aria-labelledby or title has no accessible name, failing WCAG 2.2 SC 4.1.2 Name, " +
			"Role, Value (and SC 2.4.4 Link Purpose for links): screen readers announce only \"button\" or \"link\", " +
			"and voice-control users cannot name it to press it. Give it an aria-label that says what it does, or " +
			"visually hidden text, and mark the icon aria-hidden=\"true\". Text content, an expression or slot that " +
			"may render text, a component that is not recognisably an icon, and spread props all count as a possible " +
			"name, so the rule stays silent when it cannot know; text inside aria-hidden content does not count. A " +
			"control whose only content is an image without an alt attribute is left to accessibility/img-alt, " +
			"which reports that image as High.",
		Bad:  `<button onClick={remove}><TrashIcon /></button>`,
		Good: `<button onClick={remove} aria-label="Delete draft"><TrashIcon aria-hidden="true" /></button>`,
	},
	Run: runControlName,
}

func runControlName(p *lens.Pass) {
	m := syntax.MarkupFile(p.File)
	for i := range m.Tags {
		t := &m.Tags[i]
		if t.Element == "" {
			continue
		}
		kind := ""
		switch r, _ := role(t); {
		case r == "button" || r == "menuitem" || r == "tab":
			kind = "button"
		case r == "link":
			kind = "link"
		case r != "":
			continue
		case t.Element == "button":
			kind = "button"
		case t.Element == "a" && hasHref(t):
			kind = "link"
		default:
			continue
		}
		if t.Spread || hidden(t) || labelled(t) || contentNamed(m, i) || !t.Changed(p.File) {
			continue
		}
		if imgWithoutAlt(m, i) >= 0 {
			continue // accessibility/img-alt reports the image, the control's only name
		}
		msg := fmt.Sprintf("%s has no accessible name: no text content, aria-label, aria-labelledby or title. %s: "+
			"screen readers announce only \"button\", so blind users cannot tell what it does, and voice-control "+
			"users cannot say its name to press it.", tagLabel(t), sc("4.1.2", "Name, Role, Value", "A"))
		if kind == "link" {
			msg = fmt.Sprintf("%s has no accessible name: no text content, aria-label, aria-labelledby or title. %s and %s: "+
				"screen readers announce only \"link\" (or read out the URL), so blind users cannot tell where it "+
				"leads, and voice-control users cannot say its name to follow it.", tagLabel(t),
				sc("2.4.4", "Link Purpose (In Context)", "A"), sc("4.1.2", "Name, Role, Value", "A"))
		}
		reportTag(p, t, lens.Report{
			Title:     fmt.Sprintf("%s without an accessible name", tagLabel(t)),
			Message:   msg,
			Suggested: `Add aria-label="…" saying what the ` + kind + ` does (or visually hidden text inside it), and mark the icon aria-hidden="true".`,
		})
	}
}
