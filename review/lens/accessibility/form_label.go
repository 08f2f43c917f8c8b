package accessibility

import (
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// FormLabel finds form fields without a programmatic label.
var FormLabel = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/form-label",
		Perspective: review.Accessibility,
		Category:    CatPerceivable,
		Severity:    review.SeverityHigh,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "Form field without a label",
		Doc: "An <input> (other than hidden, submit, button, reset and image), <select> or <textarea> with no " +
			"aria-label, aria-labelledby or title, not wrapped in a <label>, and whose id no <label for> (htmlFor) in " +
			"the same file names, fails WCAG 2.2 SC 1.3.1 Info and Relationships, SC 3.3.2 Labels or Instructions and " +
			"SC 4.1.2 Name, Role, Value: screen readers announce only \"edit text\" or \"combo box\", so blind users " +
			"do not know what to enter, and clicking the visible caption does not focus the field. Associate a " +
			"<label for=\"id\"> or wrap the field in its <label>; a placeholder is not a label. A hidden field, one whose id is " +
			"an expression (the label usually lives in the calling component), one inside a form-field component " +
			"that labels it (<mat-form-field>, <FormField>, <Form.Item>), one with spread props or Vue attribute " +
			"fallthrough, and one whose type is computed are not reported.",
		Bad:  `<input type="email" id="email" placeholder="Email">`,
		Good: `<label for="email">Email</label> <input type="email" id="email">`,
	},
	Run: runFormLabel,
}

func runFormLabel(p *lens.Pass) {
	m := syntax.MarkupFile(p.File)
	var fors *labelFors
	for i := range m.Tags {
		t := &m.Tags[i]
		switch t.Element {
		case "input":
			v, ok := "text", true
			if a := t.Attr("type"); a != nil {
				v, ok = a.Static()
			}
			if !ok {
				continue // a computed type may be hidden or submit
			}
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "hidden", "submit", "button", "reset", "image":
				continue
			}
		case "select", "textarea":
		default:
			continue
		}
		if t.Spread || labelled(t) || hidden(t) || !t.Changed(p.File) || wrappedInLabel(m, i) {
			continue
		}
		conf := review.ConfidenceHigh
		if a := t.Attr("id"); a != nil {
			id, ok := a.Static()
			if !ok {
				continue // a computed id: the label is usually the caller's
			}
			if fors == nil {
				fors = collectFors(m)
			}
			if fors.dynamic || fors.static[strings.TrimSpace(id)] {
				continue
			}
			conf = review.ConfidenceMedium // a <label for> may live in another component
		}
		hint := ""
		if filled(t, "placeholder") {
			hint = " Its placeholder is not a label: it is not reliably announced and disappears once the user types."
		}
		reportTag(p, t, lens.Report{
			Title: fmt.Sprintf("%s without a label", tagLabel(t)),
			Message: fmt.Sprintf("%s has no programmatic label: no <label for>, wrapping <label>, aria-label, "+
				"aria-labelledby or title. %s and %s: screen readers announce only the field's type, so blind users "+
				"do not know what to enter, and clicking the visible caption does not focus the field.%s",
				tagLabel(t), sc("1.3.1", "Info and Relationships", "A"), sc("3.3.2", "Labels or Instructions", "A"), hint),
			Suggested:  `Add <label for="<field id>">Caption</label> (htmlFor in JSX) and give the field that id, or wrap the field in its <label>.`,
			Confidence: conf,
		})
	}
}

// labelFors is the set of ids that the labels of a file point at.
type labelFors struct {
	static map[string]bool
	// dynamic reports a computed for/htmlFor, which may name any id.
	dynamic bool
}

func collectFors(m *syntax.Markup) *labelFors {
	fs := &labelFors{static: map[string]bool{}}
	for i := range m.Tags {
		a := m.Tags[i].Attr("for")
		if a == nil {
			continue
		}
		if v, ok := a.Static(); ok {
			fs.static[strings.TrimSpace(v)] = true
		} else {
			fs.dynamic = true
		}
	}
	return fs
}

// wrappedInLabel reports a field inside a <label>, or inside a component
// that associates a label with the field it wraps: a *Label component, or a
// form-field wrapper such as Angular Material's <mat-form-field> (with its
// <mat-label>), <FormField> or antd's <Form.Item label>.
func wrappedInLabel(m *syntax.Markup, i int) bool {
	for j := m.Tags[i].Parent; j >= 0; j = m.Tags[j].Parent {
		t := &m.Tags[j]
		if t.Element == "label" {
			return true
		}
		if name := strings.ToLower(t.Name); t.Element == "" &&
			(strings.HasSuffix(name, "label") || strings.Contains(name, "field") || strings.Contains(name, "form.item") ||
				strings.Contains(name, "formitem") || strings.Contains(name, "form-item") || strings.Contains(name, "formcontrol")) {
			return true
		}
	}
	return false
}
