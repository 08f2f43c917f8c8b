package accessibility

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// ViewportZoom finds viewport settings that stop users from zooming.
var ViewportZoom = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/viewport-zoom-disabled",
		Perspective: review.Accessibility,
		Category:    CatPerceivable,
		Severity:    review.SeverityMedium,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "Viewport stops users from zooming",
		Doc: "`user-scalable=no` (or 0) and a `maximum-scale` below 2 in `<meta name=\"viewport\">` keep mobile " +
			"browsers from zooming the page, which fails WCAG 2.2 SC 1.4.4 Resize Text: people with low vision " +
			"cannot enlarge text to read it. Drop those keys; `width=device-width, initial-scale=1` is all a " +
			"responsive page needs. The fix removes them. `maximum-scale` of 2 or more, `minimum-scale` and a " +
			"computed content are not reported.",
		Bad:     `<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no">`,
		Good:    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
		Fixable: true,
	},
	Run: runViewportZoom,
}

func runViewportZoom(p *lens.Pass) {
	if !p.Contains("viewport") {
		return
	}
	m := syntax.MarkupFile(p.File)
	for i := range m.Tags {
		t := &m.Tags[i]
		if t.Element != "meta" || !t.Changed(p.File) {
			continue
		}
		if name, _ := t.Static("name"); !strings.EqualFold(strings.TrimSpace(name), "viewport") {
			continue
		}
		a := t.Attr("content")
		if a == nil {
			continue
		}
		content, ok := a.Static()
		if !ok {
			continue
		}
		var keep, bad []string
		for _, item := range strings.FieldsFunc(content, func(r rune) bool { return r == ',' || r == ';' }) {
			item = strings.TrimSpace(item)
			k, v, _ := strings.Cut(item, "=")
			k, v = strings.ToLower(strings.TrimSpace(k)), strings.ToLower(strings.TrimSpace(v))
			switch {
			case k == "user-scalable" && (v == "no" || v == "0" || v == "false"):
				bad = append(bad, item)
			case k == "maximum-scale" && lowScale(v):
				bad = append(bad, item)
			case item != "":
				keep = append(keep, item)
			}
		}
		if len(bad) == 0 {
			continue
		}
		reportTag(p, t, lens.Report{
			Message: fmt.Sprintf("The viewport's %s stops mobile browsers from zooming. %s: people with low "+
				"vision cannot enlarge the text to read it.", strings.Join(bad, " and "), sc("1.4.4", "Resize Text", "AA")),
			Suggested: "Remove " + strings.Join(bad, " and ") + " from the viewport's content.",
			Fix: &review.Fix{
				Title: "Allow zooming",
				Edits: []review.TextEdit{{Span: m.Span(p.File.Path, a.ValStart, a.ValEnd), NewText: strings.Join(keep, ", ")}},
			},
		})
	}
}

// lowScale reports a maximum-scale below 2 (the zoom WCAG needs is 200%).
func lowScale(v string) bool {
	f, err := strconv.ParseFloat(v, 64)
	return err == nil && f < 2
}
