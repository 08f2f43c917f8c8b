package accessibility

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// HTMLLang finds pages without a language.
var HTMLLang = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "accessibility/html-lang",
		Perspective: review.Accessibility,
		Category:    CatUnderstandable,
		Severity:    review.SeverityMedium,
		Languages:   markupLangs,
		Depth:       review.DepthBasic,
		Skill:       skillWCAG,
		Summary:     "Page without a language",
		Doc: "An <html> element without a non-empty lang attribute fails WCAG 2.2 SC 3.1.1 Language of Page: " +
			"screen readers guess the language, often reading the page with the wrong voice and pronunciation, and " +
			"translation tools and braille displays misbehave. Declare the page language, such as lang=\"en\". The " +
			"fix adds lang with the language the document itself hints at (a content-language <meta> or an " +
			"xml:lang attribute), or \"en\" with a title asking to adjust it; a computed lang (lang={locale}), " +
			"spread props, and template fragments without <head> or <body> are not reported.",
		Bad:     `<html><body><h1>Welcome</h1></body></html>`,
		Good:    `<html lang="en"><body><h1>Welcome</h1></body></html>`,
		Fixable: true,
	},
	Run: runHTMLLang,
}

var langTagRE = regexp.MustCompile(`^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$`)

func runHTMLLang(p *lens.Pass) {
	m := syntax.MarkupFile(p.File)
	for i := range m.Tags {
		t := &m.Tags[i]
		if t.Element != "html" || t.Spread || !t.Changed(p.File) || !page(m, i) {
			continue
		}
		a := t.Attr("lang")
		if a != nil {
			if v, ok := a.Static(); !ok || strings.TrimSpace(v) != "" {
				continue
			}
		}
		lang, hinted := langHint(m, t)
		title := fmt.Sprintf("Add lang=%q", lang)
		if !hinted {
			title += " (adjust to the page language)"
		}
		var edit review.TextEdit
		switch {
		case a == nil:
			edit = insertAfterName(p, m, t, fmt.Sprintf(" lang=%q", lang))
		case a.Kind == syntax.AttrBool:
			edit = review.TextEdit{Span: m.Span(p.File.Path, a.Start, a.End), NewText: fmt.Sprintf("lang=%q", lang)}
		default:
			edit = review.TextEdit{Span: m.Span(p.File.Path, a.ValStart, a.ValEnd), NewText: lang}
		}
		what := "has no lang attribute"
		if a != nil {
			what = "has an empty lang attribute"
		}
		reportTag(p, t, lens.Report{
			Title: "<html> without a language",
			Message: fmt.Sprintf("The <html> element %s. %s: screen readers guess the language and may read the "+
				"whole page with the wrong voice and pronunciation, and translation and braille tools misbehave.",
				what, sc("3.1.1", "Language of Page", "A")),
			Suggested: fmt.Sprintf("Declare the page language: <html lang=%q>.", lang),
			Fix:       &review.Fix{Title: title, Edits: []review.TextEdit{edit}},
		})
	}
}

// page reports whether the <html> element i holds a page (a <head> or a
// <body>), not a template fragment wrapped in <html> for well-formedness.
func page(m *syntax.Markup, i int) bool {
	for j := i + 1; j <= m.Tags[i].Last; j++ {
		if e := m.Tags[j].Element; e == "head" || e == "body" {
			return true
		}
	}
	return false
}

// langHint returns the language the document itself declares elsewhere (an
// xml:lang on <html>, a content-language <meta>), or "en" and false.
func langHint(m *syntax.Markup, html *syntax.Tag) (string, bool) {
	if v, ok := html.Static("xml:lang"); ok && langTagRE.MatchString(v) {
		return v, true
	}
	for i := range m.Tags {
		t := &m.Tags[i]
		if t.Element != "meta" {
			continue
		}
		if v, _ := t.Static("http-equiv"); !strings.EqualFold(v, "content-language") {
			continue
		}
		v, _ := t.Static("content")
		v, _, _ = strings.Cut(strings.TrimSpace(v), ",")
		if langTagRE.MatchString(v) {
			return v, true
		}
	}
	return "en", false
}
