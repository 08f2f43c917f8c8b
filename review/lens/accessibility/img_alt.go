package accessibility

import (
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// ImgAlt finds images without alternative text.
var ImgAlt = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/img-alt",
		Perspective: review.Accessibility,
		Category:    CatPerceivable,
		Severity:    review.SeverityMedium,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "Image without alternative text",
		Doc: "An <img>, <area href> or <input type=\"image\"> without an alt attribute fails WCAG 2.2 SC 1.1.1 " +
			"Non-text Content: screen readers announce the file name or just \"image\", so blind users miss what it " +
			"shows. Describe the image in alt, or write alt=\"\" when it is purely decorative so assistive technology " +
			"skips it. The finding is Medium for a content image (information is lost, the page still works) and " +
			"High for an image button, an image-map link, or an image that is the only content of a link or button, " +
			"whose alt is then the control's only name. An aria-label, " +
			"aria-labelledby or title, role=\"presentation\" or \"none\", aria-hidden=\"true\" or hidden, or a spread of props " +
			"({...props}, v-bind) counts as handled; components such as Next.js <Image> are not checked, and no fix " +
			"is offered because only the author knows what the image conveys.",
		Bad:  `<img src="/q3-sales.png">`,
		Good: `<img src="/q3-sales.png" alt="Sales rose 20% in Q3">`,
	},
	Run: runImgAlt,
}

func runImgAlt(p *lens.Pass) {
	m := syntax.MarkupFile(p.File)
	for i := range m.Tags {
		t := &m.Tags[i]
		var sev review.Severity
		switch t.Element {
		case "img":
		case "area":
			if !t.Has("href") {
				continue
			}
			sev = review.SeverityHigh
		case "input":
			if v, _ := t.Static("type"); !strings.EqualFold(v, "image") {
				continue
			}
			sev = review.SeverityHigh
		default:
			continue
		}
		if t.Spread || t.Has("alt") || labelled(t) || hidden(t) || !t.Changed(p.File) {
			continue
		}
		if r, _ := role(t); r == "presentation" || r == "none" {
			continue
		}
		impact := "screen readers announce the file name or just \"image\", so blind and low-vision users miss what it shows"
		if c := namelessControl(m, i); c >= 0 && t.Element == "img" {
			sev = review.SeverityHigh
			impact = fmt.Sprintf("it is the only content of the %s on line %d, so its alt text is that control's only name: "+
				"screen readers announce just \"button\" or \"link\" (or the file name) and blind users cannot tell what it does",
				tagLabel(&m.Tags[c]), m.Tags[c].Line)
		}
		if sev == review.SeverityHigh && t.Element != "img" {
			impact = "its alt text is the control's only name, so screen readers announce just \"button\" or \"link\" and blind users cannot tell where it leads or what it does"
		}
		reportTag(p, t, lens.Report{
			Title:    fmt.Sprintf("%s without alt text", tagLabel(t)),
			Severity: sev,
			Message: fmt.Sprintf("%s has no alt attribute. %s: %s.",
				tagLabel(t), sc("1.1.1", "Non-text Content", "A"), impact),
			Suggested: `Add alt="…" describing what the image conveys (its purpose for a button or link), or alt="" if it is purely decorative.`,
		})
	}
}
