package accessibility

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// PositiveTabindex finds tabindex values greater than zero.
var PositiveTabindex = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/positive-tabindex",
		Perspective: review.Accessibility,
		Category:    CatOperable,
		Severity:    review.SeverityMedium,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "Positive tabindex",
		Doc: "A tabindex (tabIndex) greater than 0 moves the element ahead of every element in the page's natural " +
			"order, which fails WCAG 2.2 SC 2.4.3 Focus Order: keyboard and screen-reader users jump to it first, " +
			"out of the visual and reading order, and the order then has to be maintained by hand across the whole " +
			"page. Use tabindex=\"0\" to make an element focusable in document order (or -1 for programmatic focus " +
			"only) and order the DOM as it is read. The fix sets the value to 0 in the attribute's own syntax " +
			"(tabindex=\"0\", tabIndex={0}, :tabindex=\"0\"); computed values are not reported.",
		Bad:     `<input name="q" tabindex="1">`,
		Good:    `<input name="q" tabindex="0">`,
		Fixable: true,
	},
	Run: runPositiveTabindex,
}

func runPositiveTabindex(p *lens.Pass) {
	m := syntax.MarkupFile(p.File)
	for i := range m.Tags {
		t := &m.Tags[i]
		n, _, known := tabIndex(t)
		if !known || n <= 0 || !t.Changed(p.File) {
			continue
		}
		a := t.Attr("tabindex")
		var fix *review.Fix
		if from, to, ok := digits(a.Value); ok {
			fix = &review.Fix{
				Title: fmt.Sprintf("Set %s to 0", a.Name),
				Edits: []review.TextEdit{{Span: m.Span(p.File.Path, a.ValStart+from, a.ValStart+to), NewText: "0"}},
			}
		}
		reportTag(p, t, lens.Report{
			Title: fmt.Sprintf("Positive tabindex (%d) on %s", n, tagLabel(t)),
			Message: fmt.Sprintf("%s=%d puts %s ahead of the page's natural focus order. %s: keyboard and "+
				"screen-reader users reach it first, out of the visual and reading order, and every positive "+
				"tabindex on the page has to be kept in sync by hand.", a.Name, n, tagLabel(t),
				sc("2.4.3", "Focus Order", "A")),
			Suggested: `Use tabindex="0" and order the markup the way it is read.`,
			Fix:       fix,
		})
	}
}

// digits returns the byte range of the first run of digits in v.
func digits(v string) (from, to int, ok bool) {
	from = -1
	for i := 0; i < len(v); i++ {
		if v[i] >= '0' && v[i] <= '9' {
			if from < 0 {
				from = i
			}
			to = i + 1
		} else if from >= 0 {
			break
		}
	}
	return from, to, from >= 0
}
