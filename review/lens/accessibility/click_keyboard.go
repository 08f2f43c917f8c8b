package accessibility

import (
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// ClickWithoutKeyboard finds click handlers on elements that keyboard
// users cannot reach or operate.
var ClickWithoutKeyboard = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/click-without-keyboard",
		Perspective: review.Accessibility,
		Category:    CatOperable,
		Severity:    review.SeverityHigh,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "Click handler without keyboard access",
		Doc: "A click handler (onClick, @click, on:click, (click)) on a non-interactive element such as <div>, " +
			"<span>, <li>, <img> or an <a> without href, which lacks an interactive role, a keyboard handler " +
			"(onKeyDown, @keydown, on:keydown) or a tabindex, fails WCAG 2.2 SC 2.1.1 Keyboard: keyboard and " +
			"switch users cannot reach or activate it, and screen readers do not announce it as a control. Use a " +
			"<button> (or <a href> for navigation), or add role, tabindex=\"0\" and Enter/Space handling. Not " +
			"reported: elements that contain a native control (event delegation), hidden, aria-hidden or " +
			"role=\"presentation\"/\"none\" elements, option-like roles whose container manages focus, elements " +
			"with spread props, and components, whose rendering is unknown.",
		Bad:  `<div className="card" onClick={open}>Open report</div>`,
		Good: `<button type="button" className="card" onClick={open}>Open report</button>`,
	},
	Run: runClickWithoutKeyboard,
}

// interactiveElements are natively focusable or operable elements, and
// containers whose click handlers serve event delegation.
var interactiveElements = map[string]bool{
	"button": true, "input": true, "select": true, "textarea": true, "option": true, "optgroup": true,
	"summary": true, "details": true, "label": true, "iframe": true, "embed": true, "object": true,
	"audio": true, "video": true, "html": true, "body": true, "form": true, "fieldset": true, "dialog": true,
}

// widgetRoles are the interactive ARIA roles that make an element a control.
var widgetRoles = map[string]bool{
	"button": true, "link": true, "checkbox": true, "radio": true, "switch": true, "tab": true,
	"slider": true, "spinbutton": true, "textbox": true, "combobox": true, "searchbox": true,
	"scrollbar": true, "menuitem": true, "menuitemcheckbox": true, "menuitemradio": true,
	"option": true, "treeitem": true, "gridcell": true, "row": true,
}

// managedRoles are item roles whose container usually owns focus and keys
// (aria-activedescendant, roving tabindex).
var managedRoles = map[string]bool{
	"option": true, "treeitem": true, "gridcell": true, "row": true,
	"menuitem": true, "menuitemcheckbox": true, "menuitemradio": true,
}

func runClickWithoutKeyboard(p *lens.Pass) {
	m := syntax.MarkupFile(p.File)
	for i := range m.Tags {
		t := &m.Tags[i]
		if t.Element == "" || interactiveElements[t.Element] || !t.Has("onclick") {
			continue
		}
		if (t.Element == "a" || t.Element == "area") && hasHref(t) {
			continue
		}
		r, known := role(t)
		if !known || r == "presentation" || r == "none" || managedRoles[r] || t.Spread || hidden(t) {
			continue
		}
		hasRole := widgetRoles[r]
		hasKeys := t.Has("onkeydown") || t.Has("onkeyup") || t.Has("onkeypress")
		n, present, knownIdx := tabIndex(t)
		reachable := present && (!knownIdx || n >= 0) || t.Has("contenteditable")
		if hasRole && hasKeys && reachable || containsControl(m, i) || !t.Changed(p.File) {
			continue
		}
		syn := spellingOf(p.File.Language)
		var missing []string
		if !reachable {
			missing = append(missing, "it is not focusable (no "+syn.tabindex0+")")
		}
		if !hasKeys {
			missing = append(missing, "it has no keyboard handler ("+syn.keydown+")")
		}
		if !hasRole {
			missing = append(missing, "it has no interactive role, so screen readers do not announce it as a control")
		}
		what := tagLabel(t)
		if t.Element == "a" {
			what = "<a> without href"
		}
		reportTag(p, t, lens.Report{
			Title: fmt.Sprintf("Click handler on %s is not keyboard accessible", what),
			Message: fmt.Sprintf("%s reacts to mouse clicks only: %s. %s: keyboard and switch users cannot reach "+
				"or activate it.", what, strings.Join(missing, "; "), sc("2.1.1", "Keyboard", "A")),
			Suggested: fmt.Sprintf(`Use a <button type="button"> (or <a href> for navigation); otherwise add role="button", %s and a %s handler for Enter and Space.`,
				syn.tabindex0, syn.keydown),
		})
	}
}

// containsControl reports a native control (or a control-like component)
// inside element i: its click handler then delegates, and keyboard users
// have the control.
func containsControl(m *syntax.Markup, i int) bool {
	for j := i + 1; j <= m.Tags[i].Last; j++ {
		c := &m.Tags[j]
		switch c.Element {
		case "button", "input", "select", "textarea", "summary":
			return true
		case "a":
			if c.Has("href") {
				return true
			}
		case "":
			for _, w := range []string{"Button", "Link", "Input", "Checkbox", "Switch", "Select", "Toggle", "Radio", "Menu", "Tab", "Field"} {
				if strings.Contains(c.Name, w) {
					return true
				}
			}
		}
		if c.Has("tabindex") || c.Has("role") {
			return true
		}
	}
	return false
}
