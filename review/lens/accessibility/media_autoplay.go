package accessibility

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// MediaAutoplay finds media that plays by itself with no way to stop it.
var MediaAutoplay = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/media-autoplay",
		Perspective: review.Accessibility,
		Category:    CatPerceivable,
		Severity:    review.SeverityHigh,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "Autoplaying media without controls",
		Doc: "A <video> or <audio> with autoplay and without controls cannot be paused by the user. With sound it " +
			"fails WCAG 2.2 SC 1.4.2 Audio Control (High, Perceivable): the audio drowns out screen-reader speech, " +
			"so blind users cannot use the page until it ends. A muted autoplaying video without controls fails " +
			"SC 2.2.2 Pause, Stop, Hide (Medium, Operable): moving content distracts users with attention or " +
			"vestibular disorders and cannot be stopped. The fix adds the controls attribute; a page-level pause " +
			"button also satisfies the criteria, which the rule cannot see, so muted video findings have medium " +
			"confidence. Computed autoplay values and spread props are not reported.",
		Bad:     `<video src="/intro.mp4" autoplay></video>`,
		Good:    `<video src="/intro.mp4" autoplay muted controls></video>`,
		Fixable: true,
	},
	Run: runMediaAutoplay,
}

func runMediaAutoplay(p *lens.Pass) {
	m := syntax.MarkupFile(p.File)
	for i := range m.Tags {
		t := &m.Tags[i]
		if t.Element != "video" && t.Element != "audio" || t.Spread {
			continue
		}
		ap := t.Attr("autoplay")
		// True counts a computed controls={show} as present.
		if ap == nil || t.True("controls") || !t.Changed(p.File) {
			continue
		}
		if v, ok := ap.Static(); !ok || v == "false" {
			continue
		}
		r := lens.Report{
			Title: fmt.Sprintf("Autoplaying %s without controls", tagLabel(t)),
			Message: fmt.Sprintf("%s starts playing with sound and offers no controls to pause or mute it. %s: the "+
				"audio drowns out screen-reader speech, so blind users cannot use the page until it stops.",
				tagLabel(t), sc("1.4.2", "Audio Control", "A")),
			Suggested: "Add controls (and do not autoplay audio), or provide a visible pause/mute button.",
			Fix: &review.Fix{Title: "Add controls", Edits: []review.TextEdit{
				{Span: m.Span(p.File.Path, ap.End, ap.End), NewText: " controls"},
			}},
		}
		if c := t.Attr("controls"); c != nil {
			// controls={false}: set it rather than adding a duplicate.
			r.Fix.Edits = []review.TextEdit{{Span: m.Span(p.File.Path, c.Start, c.End), NewText: "controls"}}
		}
		if t.True("muted") {
			r.Severity = review.SeverityMedium
			r.Category = CatOperable
			r.Confidence = review.ConfidenceMedium
			r.Message = fmt.Sprintf("%s plays muted by itself and offers no controls to pause it. %s: moving "+
				"content that cannot be stopped distracts users with attention or vestibular disorders, and "+
				"nothing in the markup lets them pause it.", tagLabel(t), sc("2.2.2", "Pause, Stop, Hide", "A"))
		}
		reportTag(p, t, r)
	}
}
