package accessibility

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// markupLangs are the languages the markup rules read.
var markupLangs = []review.Language{review.LangHTML, review.LangJSX, review.LangTSX, review.LangVue, review.LangSvelte}

// skillWCAG is the skill every markup rule traces to (hve-spec §8.2).
const skillWCAG = "wcag-22"

// sc renders a WCAG 2.2 success criterion citation.
func sc(num, name, level string) string {
	return fmt.Sprintf("WCAG 2.2 SC %s %s (Level %s)", num, name, level)
}

// reportTag reports a finding anchored to the lines of tag t.
func reportTag(p *lens.Pass, t *syntax.Tag, r lens.Report) {
	r.Line, r.EndLine = t.Line, t.EndLine
	r.Col, r.EndCol = t.Col, t.EndCol
	p.Report(r)
}

// tagLabel renders a tag for titles and messages: "<button>", "<Icon>",
// "<input type=\"email\">".
func tagLabel(t *syntax.Tag) string {
	if t.Element == "input" {
		if v, ok := t.Static("type"); ok && v != "" {
			return fmt.Sprintf("<input type=%q>", v)
		}
	}
	if t.Name == "" {
		return "<>"
	}
	return "<" + t.Name + ">"
}

// ariaHidden reports aria-hidden="true" (or a bare aria-hidden in JSX).
func ariaHidden(t *syntax.Tag) bool {
	v, ok := t.Static("aria-hidden")
	return ok && v == "true"
}

// hidden reports an element removed from the accessibility tree, or not
// rendered at all: aria-hidden="true" or the hidden attribute.
func hidden(t *syntax.Tag) bool { return ariaHidden(t) || t.True("hidden") }

// filled reports an attribute that is present and not statically blank.
func filled(t *syntax.Tag, key string) bool {
	a := t.Attr(key)
	if a == nil {
		return false
	}
	v, ok := a.Static()
	return !ok || strings.TrimSpace(v) != ""
}

// hasHref reports a link target: href, or Angular's routerLink, which sets
// the href of an <a>.
func hasHref(t *syntax.Tag) bool { return t.Has("href") || t.Has("routerlink") }

// labelled reports an accessible name given by aria-label,
// aria-labelledby or title.
func labelled(t *syntax.Tag) bool {
	return filled(t, "aria-label") || filled(t, "aria-labelledby") || filled(t, "title")
}

// role returns the static role of t (lower case), and whether it is known.
func role(t *syntax.Tag) (string, bool) {
	a := t.Attr("role")
	if a == nil {
		return "", true
	}
	v, ok := a.Static()
	v = strings.ToLower(strings.TrimSpace(v))
	if i := strings.IndexByte(v, ' '); i >= 0 { // role="button link": the first is used
		v = v[:i]
	}
	return v, ok
}

// tabIndex returns the static tabindex of t and whether it is present and
// known.
func tabIndex(t *syntax.Tag) (n int, present, known bool) {
	a := t.Attr("tabindex")
	if a == nil {
		return 0, false, true
	}
	v, ok := a.Static()
	if !ok {
		return 0, true, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return n, true, err == nil
}

// iconLike reports component names that render an icon and no text:
// <Icon>, <TrashIcon>, <FontAwesomeIcon>, <v-icon>, react-icons' <FaTrash>.
func iconLike(name string) bool {
	if strings.Contains(strings.ToLower(name), "icon") || strings.Contains(name, "Svg") {
		return true
	}
	for _, prefix := range []string{"Fa", "Md", "Io", "Ai", "Bi", "Bs", "Fi", "Hi", "Ri", "Si", "Tb", "Lu", "Pi", "Rx", "Vsc"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return true
		}
	}
	return false
}

// contentNamed reports whether the content of element i can give it an
// accessible name: text, an expression (which may render text), an image
// with alternative text, a labelled icon, or a component that may render
// text. Content under aria-hidden="true" does not count.
func contentNamed(m *syntax.Markup, i int) bool {
	t := &m.Tags[i]
	if t.Text || t.Expr {
		return true
	}
	for j := i + 1; j <= t.Last; {
		c := &m.Tags[j]
		if hidden(c) {
			j = c.Last + 1
			continue
		}
		switch {
		case c.Text || c.Expr || labelled(c):
			return true
		case c.Element == "img" || c.Element == "area":
			if filled(c, "alt") {
				return true
			}
		case c.Element == "":
			if c.Spread || !iconLike(c.Name) || filled(c, "alt") || filled(c, "label") {
				return true // a component may render text
			}
		}
		j++
	}
	return false
}

// imgWithoutAlt returns the index of an image inside element i that has no
// alt attribute and is not otherwise labelled or hidden, or -1.
func imgWithoutAlt(m *syntax.Markup, i int) int {
	for j := i + 1; j <= m.Tags[i].Last; j++ {
		c := &m.Tags[j]
		if c.Element == "img" && !c.Has("alt") && !c.Spread && !labelled(c) && !hidden(c) {
			return j
		}
	}
	return -1
}

// namelessControl returns the index of the button or link around element
// i that has no accessible name apart from what i might give it, or -1.
func namelessControl(m *syntax.Markup, i int) int {
	for j := m.Tags[i].Parent; j >= 0; j = m.Tags[j].Parent {
		c := &m.Tags[j]
		r, _ := role(c)
		if c.Element == "button" || c.Element == "a" && hasHref(c) || r == "button" || r == "link" {
			if c.Spread || labelled(c) || contentNamed(m, j) {
				return -1
			}
			return j
		}
	}
	return -1
}

// focusable reports an element that keyboard users reach with Tab, as far
// as the markup shows: native controls that are not disabled, links with
// href, editable content and tabindex >= 0.
func focusable(t *syntax.Tag) bool {
	if t.Spread || t.Element == "" || t.True("hidden") {
		return false
	}
	if n, present, known := tabIndex(t); present {
		return known && n >= 0
	}
	if v, ok := t.Static("contenteditable"); t.Has("contenteditable") && (!ok || v != "false") {
		return true
	}
	switch t.Element {
	case "button", "select", "textarea":
		return !t.True("disabled")
	case "input":
		v, _ := t.Static("type")
		return !strings.EqualFold(v, "hidden") && !t.True("disabled")
	case "a", "area":
		return hasHref(t)
	case "summary", "iframe":
		return true
	case "audio", "video":
		return t.True("controls")
	}
	return false
}

// spelling names the event-handler and attribute spellings of a language.
type spelling struct {
	keydown, tabindex0 string
}

func spellingOf(lang review.Language) spelling {
	switch lang {
	case review.LangJSX, review.LangTSX:
		return spelling{"onKeyDown", "tabIndex={0}"}
	case review.LangVue:
		return spelling{"@keydown", `tabindex="0"`}
	case review.LangSvelte:
		return spelling{"on:keydown", `tabindex="0"`}
	}
	return spelling{"onkeydown", `tabindex="0"`}
}

// removeAttr returns an edit that deletes attribute a and the white space
// before it.
func removeAttr(p *lens.Pass, m *syntax.Markup, a *syntax.Attr) review.TextEdit {
	from := a.Start
	for from > 0 && strings.Contains(" \t\r\n", m.Text(from-1, from)) {
		from--
	}
	return review.TextEdit{Span: m.Span(p.File.Path, from, a.End)}
}

// insertAfterName returns an edit that inserts text right after the tag
// name of t.
func insertAfterName(p *lens.Pass, m *syntax.Markup, t *syntax.Tag, text string) review.TextEdit {
	return review.TextEdit{Span: m.Span(p.File.Path, t.NameEnd, t.NameEnd), NewText: text}
}
