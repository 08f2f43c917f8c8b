package syntax

import (
	"strings"

	"github.com/reviewls/reviewls/review"
)

// Markup is the element structure of a markup file (HTML, JSX/TSX, Vue,
// Svelte) as the accessibility rules need it: every start tag with its
// attributes and position, the nesting of elements, and whether an element
// has text content. It is not a validating parser: it recovers from
// malformed input and errs on the side of "may have" (an element with a
// spread attribute may have any attribute; an expression child may render
// text), so rules built on it stay silent when they cannot know.
//
// HTML, Vue and Svelte are read by the HTML5 tokenizer of
// golang.org/x/net/html, which decides where tags, comments, doctypes and
// raw text (<script>, <style>; <textarea> and <title> hold text) begin
// and end; Vue and Svelte "/>" closes any element. Comments, <script> and
// <style> bodies are skipped. Svelte expressions are lexed alone
// ([ExprEnd]).
//
// JSX and TSX are read from the JavaScript lexer's tokens ([JS]), where a
// "<" starts a tag only where an expression may start (after "(",
// "return", "=", "=>", "&&", "?", ":", ",", "{", ... or at the start of
// the file), never after an identifier, a literal or ")" (a comparison
// or a type argument); generic parameter lists ("<T,>", "<T extends U>",
// "<T>(") are not tags. The text between tags is one token, so an
// apostrophe in it opens no string.
//
// A Markup is immutable once built and safe for concurrent use.
type Markup struct {
	// Tags holds the start tags in source order. The descendants of
	// Tags[i] are Tags[i+1 : Tags[i].Last+1], and Tags[i].Parent < i.
	Tags []Tag

	src   string
	lines []int // byte offset of the start of each line
}

// Tag is one start tag and the content facts of its element.
type Tag struct {
	// Name is the tag name as written ("img", "Button", "my-icon",
	// "Icons.Trash"); it is "" for a JSX fragment.
	Name string
	// Element is the lower-case name of a native HTML or SVG element, or ""
	// for a component (<Button>, <TodoItem> in an HTML template), a custom
	// element (<my-icon>) or a framework pseudo-element (<component>,
	// <svelte:head>).
	Element string
	// Start and End are the byte offsets of "<" and just past ">";
	// NameEnd is the offset just past the name.
	Start, End, NameEnd int
	// Line and EndLine are the 1-based lines of "<" and ">"; Col and EndCol
	// the 1-based byte columns of "<" and just past ">".
	Line, EndLine, Col, EndCol int
	Attrs                      []Attr
	// SelfClosing reports "/>" or a void element: the element has no
	// content.
	SelfClosing bool
	// Spread reports that the element may receive attributes not written
	// here: a JSX or Svelte spread ({...props}), Vue's v-bind="obj" or
	// attribute fallthrough to a component's single root element, an
	// element passed as a prop (render={<a />}), or a server template
	// construct inside the tag ({{ }}, {% %}, <?php ?>, th:*, asp-*).
	Spread bool
	// Parent is the index of the enclosing element in Markup.Tags, or -1.
	Parent int
	// Last is the index of the element's last descendant (its own index
	// when it has none).
	Last int
	// Text reports direct text content other than whitespace.
	Text bool
	// Expr reports direct content whose rendering is unknown: an expression
	// ({x}, {{ x }}), a slot, or a v-html/dangerouslySetInnerHTML-style
	// attribute.
	Expr bool
}

// AttrKind says how an attribute's value is written.
type AttrKind uint8

// Attribute kinds.
const (
	// AttrBool is an attribute without a value (<video controls>).
	AttrBool AttrKind = iota
	// AttrLiteral is a literal string value (alt="", tabindex=2).
	AttrLiteral
	// AttrExpr is a value computed at run time: alt={text} (JSX, Svelte),
	// :alt="text" or v-bind:alt (Vue, Alpine), [alt]="text" (Angular), a
	// string holding an interpolation ("{{ x }}", Svelte "a {b}").
	AttrExpr
)

// Attr is one attribute of a start tag.
type Attr struct {
	// Name is the attribute name as written (":alt", "@click.stop",
	// "onClick", "on:click", "htmlFor").
	Name string
	// Key is the normalised name: lower case, binding syntax removed
	// (":alt" -> "alt"), event bindings as "on"+event ("@click.stop",
	// "v-on:click", "on:click", "(click)", "onClick" -> "onclick"), and
	// React's htmlFor and className as "for" and "class".
	Key string
	// Value is the value without its quotes or braces. A JSX attribute
	// without a value means {true}, so its Value is "true"; elsewhere it is
	// "".
	Value string
	Kind  AttrKind
	// Start and End delimit the whole attribute; ValStart and ValEnd its
	// value without quotes or braces (both End for an AttrBool).
	Start, End, ValStart, ValEnd int
}

var markupOf review.Memo[*Markup]

// MarkupFile returns the scanned markup of f, memoised on f so every rule
// shares one scan. For a language that is not markup ([review.Language.IsMarkup]) it
// returns an empty Markup.
func MarkupFile(f *review.File) *Markup {
	return markupOf.Of(f, func() *Markup {
		var js *JSFile
		if f.Language.IsJS() && f.Language.IsMarkup() {
			js = JS(f) // the tokens the rules read
		}
		return scanMarkup(f.Language, f.Content, js)
	})
}

// ScanMarkup scans content of language lang; see [Markup].
func ScanMarkup(lang review.Language, content []byte) *Markup { return scanMarkup(lang, content, nil) }

// scanMarkup is ScanMarkup; js, when not nil, is the rules' token reading
// of JSX or TSX content.
func scanMarkup(lang review.Language, content []byte, js *JSFile) *Markup {
	src := string(content)
	m := &Markup{src: src, lines: mkLineStarts(src)}
	if !lang.IsMarkup() {
		return m
	}
	s := &mkScanner{src: src, lang: lang, m: m}
	s.jsx = lang == review.LangJSX || lang == review.LangTSX
	s.svelte = lang == review.LangSvelte
	// Room for the tags and attributes of a typical document, so that the
	// slices need not grow: a start tag begins with "<" and a letter, and
	// most attributes have an "=". The same walk notes server code ("<?",
	// "<%").
	tags := 0
	for i := 0; ; i++ {
		j := strings.IndexByte(src[i:], '<')
		if j < 0 {
			break
		}
		i += j
		if i+1 < len(src) {
			switch c := src[i+1]; {
			case mkLetter(c):
				tags++
			case c == '?' || c == '%':
				s.server = true
			}
		}
	}
	s.m.Tags = make([]Tag, 0, 16+tags)
	s.spans = make([]mkSpan, 0, cap(s.m.Tags))
	s.done = make([]Attr, 0, min(strings.Count(src, "=")+tags/8, 3*cap(s.m.Tags)))
	s.scratch = make([]Attr, 0, 16)
	if s.jsx {
		if js == nil {
			js = TokenizeJS(lang, content)
		}
		s.toks = js.Toks
		s.scanJSX()
	} else {
		s.scanHTML()
	}
	for len(s.stack) > 0 {
		s.close(s.stack[len(s.stack)-1])
	}
	if lang == review.LangVue {
		s.vueFallthrough()
	}
	line := 0 // tags are in source order: walk the line starts forward
	for i := range m.Tags {
		t := &m.Tags[i]
		if sp := s.spans[i]; sp.to > sp.from {
			t.Attrs = s.done[sp.from:sp.to:sp.to]
		}
		for line+1 < len(m.lines) && m.lines[line+1] <= t.Start {
			line++
		}
		t.Line, t.Col = line+1, t.Start-m.lines[line]+1
		end := line
		for end+1 < len(m.lines) && m.lines[end+1] < t.End { // ">" ending a line stays on it
			end++
		}
		e := t.End
		if end+1 < len(m.lines) && m.lines[end+1] == e {
			// A tag left open ends after a line break: at the end of the line.
			for e--; e > m.lines[end] && src[e-1] == '\r'; e-- {
			}
		}
		t.EndLine, t.EndCol = end+1, e-m.lines[end]+1
	}
	return m
}

// Pos returns the 1-based line and byte column of byte offset off.
func (m *Markup) Pos(off int) (line, col int) {
	// Find the first line starting after off; off is on the line before.
	lo, hi := 0, len(m.lines)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if m.lines[h] <= off {
			lo = h + 1
		} else {
			hi = h
		}
	}
	if lo == 0 {
		return 1, off + 1
	}
	return lo, off - m.lines[lo-1] + 1
}

// Span returns the review span of bytes [from, to) of the file at path.
func (m *Markup) Span(path string, from, to int) review.Span {
	l1, c1 := m.Pos(from)
	l2, c2 := m.Pos(to)
	return review.Span{Path: path, StartLine: l1, StartCol: c1, EndLine: l2, EndCol: c2}
}

// Text returns the source bytes [from, to).
func (m *Markup) Text(from, to int) string { return m.src[from:to] }

// Changed reports whether any line of t changed in f.
func (t *Tag) Changed(f *review.File) bool {
	for n := t.Line; n <= t.EndLine; n++ {
		if f.Changed(n) {
			return true
		}
	}
	return false
}

// Attr returns the attribute with normalised key, or nil.
func (t *Tag) Attr(key string) *Attr {
	for i := range t.Attrs {
		if t.Attrs[i].Key == key {
			return &t.Attrs[i]
		}
	}
	return nil
}

// Has reports whether the tag has an attribute with normalised key.
func (t *Tag) Has(key string) bool { return t.Attr(key) != nil }

// Static returns the value of attribute key when it is known without
// running code (see [Attr.Static]).
func (t *Tag) Static(key string) (string, bool) {
	if a := t.Attr(key); a != nil {
		return a.Static()
	}
	return "", false
}

// True reports whether boolean attribute key is present and not statically
// false: <video muted>, muted="", muted={true}, :muted="true", but not
// muted={false}. A spread is not consulted.
func (t *Tag) True(key string) bool {
	a := t.Attr(key)
	if a == nil {
		return false
	}
	v, ok := a.Static()
	return !ok || v != "false"
}

// Static returns the attribute's value when it is known without running
// code: a literal, a bare attribute, or an expression that is a number,
// string or boolean literal ({0}, {"x"}, :tabindex="1", [attr.x]="'y'").
func (a *Attr) Static() (string, bool) {
	switch a.Kind {
	case AttrBool, AttrLiteral:
		return a.Value, true
	}
	v := strings.TrimSpace(a.Value)
	if v == "" {
		return "", false
	}
	switch c := v[0]; {
	case c == '"' || c == '\'' || c == '`':
		if len(v) >= 2 && v[len(v)-1] == c && !strings.ContainsAny(v[1:len(v)-1], "\"'`${}\\") {
			return v[1 : len(v)-1], true
		}
	case c >= '0' && c <= '9' || c == '-' || c == '+':
		for i := 1; i < len(v); i++ {
			if d := v[i]; (d < '0' || d > '9') && d != '.' {
				return "", false
			}
		}
		return v, true
	case v == "true" || v == "false":
		return v, true
	}
	return "", false
}

// mkVoid lists the HTML elements that never have content.
var mkVoid = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

// mkJSXKeys maps the common camel-case React props to their keys, so the
// scan of a large TSX file does not allocate a lower-case copy per
// attribute.
var mkJSXKeys = map[string]string{
	"className": "class", "htmlFor": "for", "tabIndex": "tabindex", "onClick": "onclick",
	"onChange": "onchange", "onSubmit": "onsubmit", "onKeyDown": "onkeydown", "onKeyUp": "onkeyup",
	"onKeyPress": "onkeypress", "onBlur": "onblur", "onFocus": "onfocus", "autoPlay": "autoplay",
	"autoFocus": "autofocus", "readOnly": "readonly", "maxLength": "maxlength", "onInput": "oninput",
	"onMouseDown": "onmousedown", "onMouseEnter": "onmouseenter", "onMouseLeave": "onmouseleave",
	"contentEditable": "contenteditable", "dangerouslySetInnerHTML": "dangerouslysetinnerhtml",
	"defaultValue": "defaultvalue", "autoComplete": "autocomplete", "inputMode": "inputmode",
}

// mkScanner is the state of one scan.
type mkScanner struct {
	src    string
	lang   review.Language
	jsx    bool
	svelte bool
	// server reports "<?" or "<%" in the source: server code.
	server bool
	i      int
	m      *Markup
	// stack holds the indexes of the open elements, innermost last.
	stack []int
	// scratch collects the attributes of the tags being scanned; a JSX
	// element nested in an attribute value pushes its own above them.
	scratch []Attr
	// done holds the attributes of every finished tag, and spans each
	// tag's range in it: Tag.Attrs is sliced from it once the scan is done,
	// so appends may still move it.
	done  []Attr
	spans []mkSpan
	// toks are the tokens of JSX or TSX content.
	toks []Token
}

type mkSpan struct{ from, to int }

func mkLineStarts(src string) []int {
	starts := make([]int, 1, 1+len(src)/32)
	for i := 0; ; {
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
}

func mkSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func mkLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func mkIdentByte(c byte) bool {
	return mkLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80
}

// mkNameByte reports bytes of a tag name: letters, digits and "-_.:$".
func mkNameByte(c byte) bool {
	return mkIdentByte(c) || c == '-' || c == '.' || c == ':'
}

// top returns the innermost open element, or -1.
func (s *mkScanner) top() int {
	if n := len(s.stack); n > 0 {
		return s.stack[n-1]
	}
	return -1
}

// close ends element idx and every element opened inside it.
func (s *mkScanner) close(idx int) {
	for n := len(s.stack); n > 0; n-- {
		i := s.stack[n-1]
		s.stack = s.stack[:n-1]
		s.m.Tags[i].Last = len(s.m.Tags) - 1
		if i == idx {
			return
		}
	}
}

// skipTo moves past the next occurrence of end, or to the end of input.
func (s *mkScanner) skipTo(end string) {
	if j := strings.Index(s.src[s.i:], end); j >= 0 {
		s.i += j + len(end)
	} else {
		s.i = len(s.src)
	}
}

// element classifies a tag name: the lower-case name of a native HTML or
// SVG element, or "" for components, custom elements and framework
// pseudo-elements (<component>, <transition>, <svelte:head>).
func (s *mkScanner) element(name string) string {
	if name == "" || len(name) > 16 {
		return ""
	}
	if c := name[0]; (c < 'a' || c > 'z') && s.lang != review.LangHTML {
		return "" // <Button>, <Icons.Trash>: components in JSX, Vue and Svelte
	}
	lower := strings.ToLower(name)
	if lower != name && strings.ToUpper(name) != name {
		return "" // <TodoItem> in an HTML template is a component
	}
	if !mkElements[lower] {
		return ""
	}
	return lower
}

// mkElements are the native HTML and SVG element names.
var mkElements = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`a abbr address area article aside audio b base bdi bdo blockquote body br
		button canvas caption cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed
		fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input
		ins kbd label legend li link main map mark menu meta meter nav noscript object ol optgroup option output
		p param picture pre progress q rp rt ruby s samp script search section select slot small source span
		strong style sub summary sup table tbody td template textarea tfoot th thead time title tr track u ul
		var video wbr center font marquee nobr tt big acronym frame frameset noframes
		svg g path circle rect line polyline polygon ellipse text tspan textpath defs use symbol clippath
		lineargradient radialgradient stop mask pattern filter image foreignobject desc marker switch`) {
		m[n] = true
	}
	return m
}()

// popTo closes the innermost open element named name, if any; a stray end
// tag is ignored.
func (s *mkScanner) popTo(name string) {
	for n := len(s.stack) - 1; n >= 0; n-- {
		t := &s.m.Tags[s.stack[n]]
		if t.Name == name || s.lang == review.LangHTML && strings.EqualFold(t.Name, name) {
			s.close(s.stack[n])
			return
		}
	}
}

// text records text content of the innermost element.
func (s *mkScanner) text(t string) {
	top := s.top()
	if top < 0 || s.m.Tags[top].Text {
		return
	}
	for i := 0; i < len(t); i++ {
		if !mkSpace(t[i]) {
			s.m.Tags[top].Text = true
			return
		}
	}
}

// expr records content of unknown rendering in the innermost element.
func (s *mkScanner) expr() {
	if top := s.top(); top >= 0 {
		s.m.Tags[top].Expr = true
	}
}

// openTag scans a start tag at "<" and appends it to Tags. It returns the
// tag's index and whether it closed itself with "/>".
func (s *mkScanner) openTag() (idx int, self bool) {
	src := s.src
	start := s.i
	s.i++
	for s.i < len(src) && mkNameByte(src[s.i]) {
		s.i++
	}
	name := src[start+1 : s.i]
	idx = len(s.m.Tags)
	s.m.Tags = append(s.m.Tags, Tag{Name: name, Element: s.element(name), Start: start, NameEnd: s.i, Parent: s.top(), Last: idx})
	if s.jsx && s.i < len(src) && src[s.i] == '<' {
		s.typeArgs() // <Select<Option> ...>
	}
	s.spans = append(s.spans, mkSpan{})
	if p := s.m.Tags[idx].Parent; p >= 0 {
		switch {
		case name == "slot", name == "component", strings.HasPrefix(name, "svelte:"):
			s.m.Tags[p].Expr = true // renders content decided elsewhere
		}
	}
	// Elements in attribute values (icon={<Icon/>}) count as descendants.
	s.stack = append(s.stack, idx)
	mark := len(s.scratch)
	self = s.attrs(idx)
	s.stack = s.stack[:len(s.stack)-1]
	t := &s.m.Tags[idx]
	t.Last = len(s.m.Tags) - 1 // those elements; close extends it to the content
	t.End = s.i
	t.SelfClosing = self
	for i := mark; i < len(s.scratch); i++ {
		switch s.scratch[i].Key {
		case "v-html", "v-text", "innerhtml", "textcontent", "innertext", "dangerouslysetinnerhtml", "children":
			t.Expr = true
		}
	}
	s.spans[idx] = mkSpan{len(s.done), len(s.done) + len(s.scratch) - mark}
	s.done = append(s.done, s.scratch[mark:]...)
	s.scratch = s.scratch[:mark]
	return idx, self
}

// typeArgs moves past the type arguments of a JSX tag name at s.i.
func (s *mkScanner) typeArgs() {
	for depth := 0; s.i < len(s.src); s.i++ {
		switch s.src[s.i] {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				s.i++
				return
			}
		}
	}
}

// attrs scans the attributes of tag idx up to and including its ">" and
// reports whether the tag ended with "/>".
func (s *mkScanner) attrs(idx int) bool {
	src := s.src
	for s.i < len(src) {
		c := src[s.i]
		var next byte
		if s.i+1 < len(src) {
			next = src[s.i+1]
		}
		switch {
		case mkSpace(c):
			s.i++
		case c == '>':
			s.i++
			return false
		case c == '/' && next == '>':
			s.i += 2
			return true
		case s.jsx && c == '/' && next == '/':
			s.skipTo("\n")
		case s.jsx && c == '/' && next == '*':
			s.i += 2
			s.skipTo("*/")
		case c == '<' && !s.jsx && (next == '?' || next == '%'):
			// PHP, ERB, JSP or ASP code inside the tag may add any attribute.
			s.m.Tags[idx].Spread = true
			s.i += 2
			s.skipTo(string(next) + ">")
		case c == '<' && !s.jsx:
			return false // malformed: a new tag starts before this one ended
		case c == '{' && (s.jsx || s.svelte):
			start := s.i
			s.i++
			sig, spread := s.brace()
			switch {
			case spread:
				s.m.Tags[idx].Spread = true
			case s.svelte && sig: // {alt}: shorthand for alt={alt}
				v := strings.TrimSpace(src[start+1 : s.i-1])
				s.scratch = append(s.scratch, Attr{Name: v, Key: strings.ToLower(v), Value: v, Kind: AttrExpr,
					Start: start, End: s.i, ValStart: start + 1, ValEnd: s.i - 1})
			}
		case c == '{' && (next == '{' || next == '%'):
			// A server template construct may add any attribute.
			s.m.Tags[idx].Spread = true
			s.i += 2
			if next == '{' {
				s.skipTo("}}")
			} else {
				s.skipTo("%}")
			}
		default:
			if !s.attr(idx) {
				s.i++ // a stray byte
			}
		}
	}
	return false
}

// attr scans one attribute at s.i; it reports false when there is no name.
func (s *mkScanner) attr(idx int) bool {
	src := s.src
	start := s.i
	for s.i < len(src) {
		c := src[s.i]
		if mkSpace(c) || c == '=' || c == '>' || c == '/' || c == '"' || c == '\'' || c == '<' ||
			(c == '{' || c == '}') && (s.jsx || s.svelte) {
			break
		}
		s.i++
	}
	if s.i == start {
		return false
	}
	a := Attr{Name: src[start:s.i], Start: start}
	j := s.i
	for j < len(src) && mkSpace(src[j]) {
		j++
	}
	if j < len(src) && src[j] == '=' {
		s.i = j + 1
		for s.i < len(src) && mkSpace(src[s.i]) {
			s.i++
		}
		before := len(s.m.Tags)
		s.value(&a)
		if len(s.m.Tags) > before && a.Kind == AttrExpr && strings.HasPrefix(strings.TrimSpace(a.Value), "<") {
			// An element passed as a prop (render={<a href="#" />}) is cloned
			// by the component, which gives it children and attributes.
			s.m.Tags[before].Spread = true
			s.m.Tags[before].Expr = true
		}
	} else {
		a.Kind = AttrBool
		a.ValStart, a.ValEnd = s.i, s.i
		if s.jsx {
			a.Value = "true"
		}
	}
	a.End = s.i
	key, bound, spread := s.normalise(a.Name)
	if spread {
		s.m.Tags[idx].Spread = true
		return true
	}
	a.Key = key
	if bound && a.Kind == AttrLiteral {
		a.Kind = AttrExpr
	}
	s.scratch = append(s.scratch, a)
	return true
}

// value scans an attribute value at s.i into a.
func (s *mkScanner) value(a *Attr) {
	src := s.src
	if s.i >= len(src) {
		a.Kind, a.ValStart, a.ValEnd = AttrLiteral, s.i, s.i
		return
	}
	switch c := src[s.i]; {
	case c == '"' || c == '\'':
		a.ValStart = s.i + 1
		j := strings.IndexByte(src[s.i+1:], c)
		if j < 0 {
			s.i = len(src)
			a.ValEnd = s.i
		} else {
			a.ValEnd = s.i + 1 + j
			s.i = a.ValEnd + 1
		}
		a.Value = src[a.ValStart:a.ValEnd]
		a.Kind = AttrLiteral
		if strings.Contains(a.Value, "{{") || s.svelte && strings.Contains(a.Value, "{") {
			a.Kind = AttrExpr // an interpolated string
		}
	case c == '{' && (s.jsx || s.svelte):
		s.i++
		a.ValStart = s.i
		s.brace()
		a.ValEnd = max(a.ValStart, s.i-1)
		a.Value = src[a.ValStart:a.ValEnd]
		a.Kind = AttrExpr
	default: // unquoted
		a.ValStart = s.i
		for s.i < len(src) && !mkSpace(src[s.i]) && src[s.i] != '>' {
			s.i++
		}
		a.ValEnd = s.i
		a.Value = src[a.ValStart:a.ValEnd]
		a.Kind = AttrLiteral
	}
}

// normalise returns the key of an attribute name, whether it is bound to
// an expression by its syntax, and whether it spreads an object of
// attributes onto the element.
func (s *mkScanner) normalise(name string) (key string, bound, spread bool) {
	if s.jsx {
		if k, ok := mkJSXKeys[name]; ok {
			return k, false, false
		}
		key = strings.ToLower(name)
		if strings.HasPrefix(key, "on") && strings.HasSuffix(key, "capture") {
			key = strings.TrimSuffix(key, "capture")
		}
		return mkAlias(key), false, false
	}
	if mkPlainName(name) {
		return mkAlias(strings.ToLower(name)), false, false
	}
	event := false
	switch {
	case s.svelte:
		if rest, ok := strings.CutPrefix(name, "on:"); ok {
			name, event, bound = rest, true, true
			name, _, _ = strings.Cut(name, "|")
		}
	case name == "v-bind" || name == "v-on" || name == "x-bind" || name == "data-bind" ||
		strings.HasPrefix(name, "th:") || strings.HasPrefix(name, "data-th-") || strings.HasPrefix(name, "asp-"):
		// Object bindings and server template attributes (Thymeleaf th:field,
		// th:replace; ASP.NET tag helpers) may set any attribute.
		return "", true, true
	case strings.HasPrefix(name, "v-bind:") || strings.HasPrefix(name, "x-bind:"):
		name, bound = name[7:], true
	case strings.HasPrefix(name, ":"):
		name, bound = name[1:], true
	case strings.HasPrefix(name, "v-on:") || strings.HasPrefix(name, "x-on:"):
		name, event, bound = name[5:], true, true
	case strings.HasPrefix(name, "@"):
		name, event, bound = name[1:], true, true
	case strings.HasPrefix(name, "[attr.") && strings.HasSuffix(name, "]"):
		name, bound = name[6:len(name)-1], true
	case strings.HasPrefix(name, "[(") && strings.HasSuffix(name, ")]") && len(name) > 4:
		name, bound = name[2:len(name)-2], true
	case strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") && len(name) > 2:
		name, bound = name[1:len(name)-1], true
	case strings.HasPrefix(name, "(") && strings.HasSuffix(name, ")") && len(name) > 2:
		name, event, bound = name[1:len(name)-1], true, true
	}
	if bound {
		name, _, _ = strings.Cut(name, ".") // modifiers: @click.stop, :prop.camel
	}
	key = strings.ToLower(name)
	if event {
		key = "on" + key
	}
	return mkAlias(key), bound, false
}

// mkPlainName reports an attribute name that no binding syntax of
// normalise applies to: letters, digits and "-" only, not starting with
// "v-", "x-", "th", "data-" or "asp-".
func mkPlainName(name string) bool {
	if name == "" || !mkLetter(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !mkLetter(c) && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	switch name[0] | 0x20 {
	case 'v', 'x':
		return len(name) < 2 || name[1] != '-'
	case 't':
		return !strings.HasPrefix(name, "th")
	case 'd':
		return !strings.HasPrefix(name, "data-")
	case 'a':
		return !strings.HasPrefix(name, "asp-")
	}
	return true
}

func mkAlias(key string) string {
	switch key {
	case "htmlfor":
		return "for"
	case "classname":
		return "class"
	}
	return key
}

// vueFallthrough marks the single root element of a Vue component's
// template as Spread: Vue passes the attributes a parent writes on the
// component (aria-label, id, ...) through to it, unless the script sets
// inheritAttrs: false.
func (s *mkScanner) vueFallthrough() {
	if strings.Contains(s.src, "inheritAttrs: false") || strings.Contains(s.src, "inheritAttrs:false") {
		return
	}
	tags := s.m.Tags
	for i := range tags {
		if tags[i].Parent >= 0 || tags[i].Name != "template" {
			continue
		}
		root := -1
		for j := i + 1; j <= tags[i].Last; j = tags[j].Last + 1 {
			if root >= 0 {
				return // several roots: no automatic fallthrough
			}
			root = j
		}
		if root >= 0 {
			tags[root].Spread = true
		}
		return
	}
}
