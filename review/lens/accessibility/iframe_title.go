package accessibility

import (
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// IframeTitle finds frames without an accessible name.
var IframeTitle = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/iframe-title",
		Perspective: review.Accessibility,
		Category:    CatRobust,
		Severity:    review.SeverityMedium,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "Frame without a title",
		Doc: "An <iframe> without a title (or aria-label, aria-labelledby) fails WCAG 2.2 SC 4.1.2 Name, Role, " +
			"Value: screen readers announce just \"frame\" or its URL, so blind users cannot tell whether an " +
			"embedded map, video or payment form is worth entering. Give every frame a short title describing its " +
			"content. Frames hidden with aria-hidden=\"true\" or hidden and frames with spread props are not reported, and " +
			"no fix is offered because only the author knows what the frame holds.",
		Bad:  `<iframe src="https://www.youtube.com/embed/xyz"></iframe>`,
		Good: `<iframe src="https://www.youtube.com/embed/xyz" title="Product tour video"></iframe>`,
	},
	Run: runIframeTitle,
}

func runIframeTitle(p *lens.Pass) {
	m := syntax.MarkupFile(p.File)
	for i := range m.Tags {
		t := &m.Tags[i]
		if t.Element != "iframe" || t.Spread || labelled(t) || hidden(t) || !t.Changed(p.File) {
			continue
		}
		reportTag(p, t, lens.Report{
			Title: "<iframe> without a title",
			Message: "The <iframe> has no title, aria-label or aria-labelledby. " + sc("4.1.2", "Name, Role, Value", "A") +
				": screen readers announce just \"frame\" or its URL, so blind users cannot tell what it holds " +
				"before entering it.",
			Suggested: `Add title="…" describing the frame's content, e.g. title="Store location map".`,
		})
	}
}
