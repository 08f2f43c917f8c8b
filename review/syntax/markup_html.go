package syntax

import (
	"bytes"
	"io"
	"strings"

	"golang.org/x/net/html"

	"github.com/reviewls/reviewls/review"
)

// An mkRegion is a template construct in HTML, Vue or Svelte source that
// the HTML tokenizer must not read as markup: a Svelte {expression}, an
// interpolation ({{ }}, {% %}) or server code (<? ?>, <% %>).
type mkRegion struct {
	from, to int
	// sig and spread are ExprEnd's report on a Svelte expression.
	sig, spread bool
}

// scanHTML scans HTML, Vue and Svelte documents with the HTML5 tokenizer
// of golang.org/x/net/html: it decides where tags, comments, raw text
// (<script>, <style>) and character data begin and end, as a browser
// does. Template constructs are blanked out of the tokenizer's copy first
// (same length, so offsets hold), and the attributes of each tag are read
// from the source itself, where their names keep their case and their
// values their offsets.
func (s *mkScanner) scanHTML() {
	src := s.src
	masked, regions := s.regions()
	z := html.NewTokenizer(masked)
	off := 0
	skip := "" // the element whose body is not markup, until its end tag
	for {
		tt := z.Next()
		start := off
		off += len(z.Raw())
		switch tt {
		case html.ErrorToken:
			// The end, where a start tag may be left open.
			if rest := src[start:]; len(rest) > 1 && rest[0] == '<' && mkLetter(rest[1]) && skip == "" {
				s.startTag(start, len(src), false)
			}
			return
		case html.TextToken:
			if skip == "" {
				s.htmlText(start, off, regions)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			if skip != "" {
				continue
			}
			idx, raw := s.startTag(start, off, tt == html.SelfClosingTagToken)
			switch {
			case tt == html.SelfClosingTagToken && s.lang != review.LangHTML:
				// Vue and Svelte close any element with "/>", even a
				// <textarea /> whose content HTML reads as text.
				z.NextIsNotRawText()
			case raw:
				skip = s.m.Tags[idx].Name
			case strings.EqualFold(s.m.Tags[idx].Name, "noscript"):
				z.NextIsNotRawText() // its content is markup when script is off
			}
		case html.EndTagToken:
			name := tagName(src[start+2 : off])
			if skip != "" {
				if strings.EqualFold(name, skip) {
					skip = ""
				}
				continue
			}
			s.popTo(name)
		}
	}
}

// tagName returns the tag name at the start of s, as written.
func tagName(s string) string {
	n := 0
	for n < len(s) && mkNameByte(s[n]) {
		n++
	}
	return s[:n]
}

// startTag records the start tag src[from:to] and pushes its element
// unless it has no content. It reports the tag's index and whether its
// body is not markup (see rawText).
func (s *mkScanner) startTag(from, to int, selfClosing bool) (idx int, raw bool) {
	idx, self := s.tagIn(from, to)
	t := &s.m.Tags[idx]
	if self || selfClosing || mkVoid[t.Element] {
		t.SelfClosing = true
		return idx, false
	}
	if s.rawText(t) {
		return idx, true
	}
	s.stack = append(s.stack, idx)
	return idx, false
}

// htmlText records the character data src[from:to], whose template
// regions are expressions, not text.
func (s *mkScanner) htmlText(from, to int, regions []mkRegion) {
	for from < to {
		j := strings.IndexByte(s.src[from:to], '{')
		if j < 0 {
			s.text(s.src[from:to])
			return
		}
		s.text(s.src[from : from+j])
		from += j
		r, ok := regionAt(regions, from)
		if !ok {
			s.text("{")
			from++
			continue
		}
		switch rest := s.src[from:]; {
		case !s.svelte, len(rest) < 2:
			s.expr() // {{ }}, {% %}
		case rest[1] == '#', rest[1] == ':', rest[1] == '/': // {#if}, {:else}, {/each}: control flow
		case rest[1] == '@':
			if strings.HasPrefix(rest, "{@html") || strings.HasPrefix(rest, "{@render") {
				s.expr()
			}
		default:
			if r.sig {
				s.expr()
			}
		}
		from = r.to
	}
}

// regionAt returns the region that starts at off.
func regionAt(regions []mkRegion, off int) (mkRegion, bool) {
	lo, hi := 0, len(regions)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if regions[m].from < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(regions) && regions[lo].from == off {
		return regions[lo], true
	}
	return mkRegion{}, false
}

// regions finds the template regions of the document, outside comments
// and the bodies of <script> and <style>, and returns the source with
// their insides blanked (line breaks kept; the delimiters too, but for
// server code), as a reader.
func (s *mkScanner) regions() (io.Reader, []mkRegion) {
	src := s.src
	if !s.svelte && !s.server && !strings.Contains(src, "{{") && !strings.Contains(src, "{%") {
		return strings.NewReader(src), nil // nothing to blank
	}
	var out []byte // a copy only once there is something to blank
	var regions []mkRegion
	blank := func(from, to int) {
		if out == nil {
			out = []byte(src)
		}
		for k := from; k < to; k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	i := 0
	for i < len(src) {
		j := strings.IndexAny(src[i:], "<{")
		if j < 0 {
			break
		}
		i += j
		rest := src[i:]
		end := func(closer string) int {
			if k := strings.Index(src[i+2:], closer); k >= 0 {
				return i + 2 + k + len(closer)
			}
			return len(src)
		}
		switch {
		case strings.HasPrefix(rest, "<!--"):
			i = end("-->")
		case strings.HasPrefix(rest, "<?") || strings.HasPrefix(rest, "<%"):
			// Server code may sit inside a tag (<input <?= $attrs ?>>):
			// blanked whole, delimiters too, the tag goes on past it.
			e := end(rest[1:2] + ">")
			blank(i, e)
			regions = append(regions, mkRegion{from: i, to: e})
			i = e
		case rest[0] == '<' && (mkRawStart(rest, "script") || mkRawStart(rest, "style")):
			s.i = i + 1
			s.skipEndTag(tagName(rest[1:]))
			i = s.i
		case strings.HasPrefix(rest, "{{") || strings.HasPrefix(rest, "{%"):
			closer := "}}"
			if rest[1] == '%' {
				closer = "%}"
			}
			e := end(closer)
			blank(i+2, max(i+2, e-2))
			regions = append(regions, mkRegion{from: i, to: e})
			i = e
		case rest[0] == '{' && s.svelte:
			s.i = i + 1
			var sig, spread bool
			if strings.HasPrefix(rest, "{/") {
				// A block's end ({/if}, {/each}) is a word, not code: its
				// "/" would read as a regular expression.
				s.i = end("}")
			} else {
				s.i, sig, spread = ExprEnd(src, i+1)
			}
			e := s.i
			inner := e
			if e > i+1 && src[e-1] == '}' {
				inner = e - 1
			}
			blank(i+1, inner)
			regions = append(regions, mkRegion{from: i, to: e, sig: sig, spread: spread})
			i = e
		default:
			i++
		}
	}
	s.i = 0
	if out == nil {
		return strings.NewReader(src), nil
	}
	return bytes.NewReader(out), regions
}

// mkRawStart reports whether s starts with the start tag of element name
// ("<script", "<STYLE ...").
func mkRawStart(s, name string) bool {
	n := 1 + len(name)
	return len(s) > n && strings.EqualFold(s[1:n], name) && (mkSpace(s[n]) || s[n] == '>' || s[n] == '/')
}

// rawText reports elements whose body is not markup.
func (s *mkScanner) rawText(t *Tag) bool {
	switch strings.ToLower(t.Name) {
	case "script", "style":
		return true
	case "template":
		// A Vue SFC template in Pug or another language.
		if lang, ok := t.Static("lang"); ok && lang != "" && lang != "html" {
			return t.Parent < 0
		}
	}
	return false
}

// skipEndTag moves past "</name ...>" (case-insensitive), or to the end.
func (s *mkScanner) skipEndTag(name string) {
	for s.i < len(s.src) {
		j := strings.Index(s.src[s.i:], "</")
		if j < 0 {
			s.i = len(s.src)
			return
		}
		s.i += j + 2
		if end := s.i + len(name); end <= len(s.src) && strings.EqualFold(s.src[s.i:end], name) &&
			(end == len(s.src) || !mkNameByte(s.src[end])) {
			s.skipTo(">")
			return
		}
	}
}
