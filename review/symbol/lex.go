package symbol

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/internal/scan"
)

// syntax is the lexical syntax of a language (its row of the language
// table) as the lexer reads it.
type syntax struct{ review.TokenSyntax }

// syntaxOf returns the lexical syntax of lang and whether it is known.
func syntaxOf(lang review.Language) (syntax, bool) {
	t := lang.Info().Tokens
	return syntax{t}, t.Known
}

// tokKind classifies a token.
type tokKind uint8

const (
	tPunct tokKind = iota
	tIdent
	tNumber
	tString
	tLifetime // a Rust lifetime or label: 'a
)

// tok is one token of a file. Comments are not tokens; a template
// literal is split into string pieces around its substitutions, whose code
// is tokenized like any other.
type tok struct {
	off, end int32
	// line is the 1-based line of the token's first byte.
	line int32
	// match is the index of the bracket matching a (, [, { or ), ], }, or
	// -1.
	match int32
	kind  tokKind
	// nl reports that the token is the first one on its line.
	nl bool
}

// comment is one comment; doc marks the doc forms "/**" and "///".
type comment struct {
	off, end int32
	doc      bool
	line     bool // a line comment
}

// lexed is a tokenized file. It is not modified after lexing.
type lexed struct {
	src       []byte
	syn       syntax
	toks      []tok
	comments  []comment
	lineStart []int32 // offsets of the starts of lines; lineStart[0] == 0
}

// lineStarts returns the offsets at which the lines of src start.
func lineStarts(src []byte) []int32 {
	out := make([]int32, 1, len(src)/28+2)
	for i := 0; ; {
		k := bytes.IndexByte(src[i:], '\n')
		if k < 0 {
			return out
		}
		i += k + 1
		out = append(out, int32(i))
	}
}

// lexer holds the state of one tokenizing pass.
type lexer struct {
	*lexed
	i       int
	curLine int   // index into lineStart of the line holding the last emitted offset
	last    int32 // the line of the last token, to tell the first token of a line
	// tmpl holds, for each open template substitution, the brace depth at
	// which it was opened; braces counts the open "{" of code.
	tmpl   []int
	braces int
}

// lex tokenizes src. It never fails: an unterminated literal or comment
// runs to the end of its line or of the file.
func lex(src []byte, syn syntax) *lexed {
	lx := &lexer{lexed: &lexed{src: src, syn: syn, lineStart: lineStarts(src)}}
	// Real code averages four to five bytes per token.
	lx.toks = make([]tok, 0, len(src)/4+8)
	lx.run()
	lx.matchBrackets()
	return lx.lexed
}

// lineAt returns the 1-based line of off; offsets must not decrease
// between calls.
func (lx *lexer) lineAt(off int) int32 {
	for lx.curLine+1 < len(lx.lineStart) && int(lx.lineStart[lx.curLine+1]) <= off {
		lx.curLine++
	}
	return int32(lx.curLine + 1)
}

func (lx *lexer) emit(start, end int, kind tokKind) {
	line := lx.lineAt(start)
	lx.toks = append(lx.toks, tok{off: int32(start), end: int32(end), line: line, match: -1, kind: kind, nl: line != lx.last})
	lx.last = line
}

func (lx *lexer) emitComment(start, end int, doc, line bool) {
	lx.comments = append(lx.comments, comment{off: int32(start), end: int32(end), doc: doc, line: line})
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// identByte reports whether c can continue an identifier. Bytes of
// multi-byte runes count as identifier bytes, which is right for every
// letter and harmless for the rare non-letter.
func (s *syntax) identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c >= 0x80 || c == '$' && s.Dollar
}

func (lx *lexer) run() {
	src, syn := lx.src, &lx.syn
	n := len(src)
	if bytes.HasPrefix(src, []byte("#!")) {
		for lx.i < n && src[lx.i] != '\n' {
			lx.i++
		}
	}
	for lx.i < n {
		i := lx.i
		c := src[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			lx.i++
			continue
		}
		// Comments.
		if syn.LineComment != "" && c == syn.LineComment[0] && bytes.HasPrefix(src[i:], []byte(syn.LineComment)) &&
			(!syn.WordHash || i == 0 || isSpace(src[i-1])) {
			end := i + bytes.IndexByte(src[i:], '\n')
			if end < i {
				end = n
			}
			doc := syn.LineComment == "//" && bytes.HasPrefix(src[i:], []byte("///")) && !bytes.HasPrefix(src[i:], []byte("////"))
			lx.emitComment(i, end, doc, true)
			lx.i = end
			continue
		}
		if syn.Block && c == '/' && i+1 < n && src[i+1] == '*' {
			end := lx.blockEnd(i + 2)
			doc := bytes.HasPrefix(src[i:], []byte("/**")) && !bytes.HasPrefix(src[i:], []byte("/**/"))
			lx.emitComment(i, end, doc, false)
			lx.i = end
			continue
		}
		switch {
		case c == '#' && syn.Hash && i+1 < n && syn.identByte(src[i+1]) && !isDigit(src[i+1]):
			j := i + 1
			for j < n && syn.identByte(src[j]) {
				j++
			}
			lx.emit(i, j, tIdent)
			lx.i = j
		case syn.identByte(c) && !isDigit(c):
			j := i + 1
			for j < n && syn.identByte(src[j]) {
				j++
			}
			if j < n && (src[j] == '"' || src[j] == '\'') && lx.stringPrefix(src[i:j]) {
				lx.i = j
				end := lx.quoted(j, src[j])
				lx.emit(i, end, tString)
				lx.i = end
				continue
			}
			if syn.Rust && j < n && src[j] == '#' && lx.stringPrefix(src[i:j]) {
				if end := lx.rustRaw(j); end > 0 {
					lx.emit(i, end, tString)
					lx.i = end
					continue
				}
			}
			lx.emit(i, j, tIdent)
			lx.i = j
		case isDigit(c) || c == '.' && i+1 < n && isDigit(src[i+1]):
			j := i + 1
			for j < n && (syn.identByte(src[j]) || src[j] == '.' && !(j+1 < n && src[j+1] == '.') ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E')) {
				j++
			}
			lx.emit(i, j, tNumber)
			lx.i = j
		case c == '`' && syn.Backtick:
			end := bytes.IndexByte(src[i+1:], '`')
			if end < 0 {
				end = n
			} else {
				end += i + 2
			}
			lx.emit(i, end, tString)
			lx.i = end
		case c == '`' && syn.Template:
			lx.template(i, i+1)
		case c == '\'' && syn.Rust:
			lx.rustQuote(i)
		case strings.IndexByte(syn.Quotes, c) >= 0:
			end := lx.quoted(i, c)
			lx.emit(i, end, tString)
			lx.i = end
		case c == '/' && syn.Regex && lx.regexAllowed():
			lx.regex(i)
		case c == '}' && len(lx.tmpl) > 0 && lx.tmpl[len(lx.tmpl)-1] == lx.braces:
			// The end of a template substitution: the template goes on.
			lx.tmpl = lx.tmpl[:len(lx.tmpl)-1]
			lx.template(i, i+1)
		default:
			l := punctLen(src[i:])
			lx.emit(i, i+l, tPunct)
			lx.i = i + l
			switch c {
			case '{':
				lx.braces++
			case '}':
				lx.braces--
			}
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// stringPrefix reports whether an identifier directly followed by a quote
// is a string prefix: r, b, f, u and their pairs in Python; b, r, br, c,
// cr in Rust.
func (lx *lexer) stringPrefix(p []byte) bool {
	if len(p) > 2 {
		return false
	}
	switch {
	case lx.syn.Triple:
		for _, c := range p {
			if !strings.ContainsRune("rRbBuUfF", rune(c)) {
				return false
			}
		}
		return true
	case lx.syn.Rust:
		switch string(p) {
		case "b", "r", "br", "c", "cr":
			return true
		}
	}
	return false
}

// blockEnd returns the offset after the "*/" that closes a block comment
// whose body starts at i, following nesting where the syntax nests.
func (lx *lexer) blockEnd(i int) int {
	src := lx.src
	if !lx.syn.Nested {
		k := bytes.Index(src[i:], []byte("*/"))
		if k < 0 {
			return len(src)
		}
		return i + k + 2
	}
	depth := 1
	for i+1 < len(src) {
		switch {
		case src[i] == '/' && src[i+1] == '*':
			depth++
			i += 2
		case src[i] == '*' && src[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return len(src)
}

// quoted returns the end of the string literal whose opening quote q is at
// i. Triple quotes and text blocks run to their closer; a single-line
// string left open ends before the line break.
func (lx *lexer) quoted(i int, q byte) int {
	src := lx.src
	n := len(src)
	if (lx.syn.Triple || lx.syn.TextBlock && q == '"') && i+2 < n && src[i+1] == q && src[i+2] == q {
		delim := src[i : i+3]
		for j := i + 3; j < n; j++ {
			if src[j] == '\\' {
				j++
				continue
			}
			if bytes.HasPrefix(src[j:], delim) {
				return j + 3
			}
		}
		return n
	}
	return quotedEnd(src, i, q, lx.syn.Multiline)
}

// quotedEnd returns the end of the string literal whose opening quote q is
// at i; unless multiline, one left open ends before the line break.
func quotedEnd(src []byte, i int, q byte, multiline bool) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			if !multiline {
				return j
			}
		}
	}
	return len(src)
}

// rustRaw returns the end of a Rust raw string r#"..."# whose first "#"
// is at i, or 0 when none starts there.
func (lx *lexer) rustRaw(i int) int {
	src := lx.src
	j := i
	for j < len(src) && src[j] == '#' {
		j++
	}
	if j >= len(src) || src[j] != '"' {
		return 0
	}
	hashes := j - i
	closer := append([]byte{'"'}, bytes.Repeat([]byte{'#'}, hashes)...)
	k := bytes.Index(src[j+1:], closer)
	if k < 0 {
		return len(src)
	}
	return j + 1 + k + len(closer)
}

// rustQuote lexes a Rust char literal ('a', '\n', '\u{1F600}') or a
// lifetime ('a, 'static) at i.
func (lx *lexer) rustQuote(i int) {
	src := lx.src
	n := len(src)
	if i+1 < n && src[i+1] == '\\' {
		end := i + 2
		for end < n && end < i+14 && src[end] != '\'' && src[end] != '\n' {
			end++
		}
		if end < n && src[end] == '\'' {
			end++
		}
		lx.emit(i, end, tString)
		lx.i = end
		return
	}
	if i+1 < n {
		_, w := utf8.DecodeRune(src[i+1:])
		if i+1+w < n && src[i+1+w] == '\'' {
			lx.emit(i, i+2+w, tString)
			lx.i = i + 2 + w
			return
		}
	}
	j := i + 1
	for j < n && lx.syn.identByte(src[j]) {
		j++
	}
	if j == i+1 {
		lx.emit(i, i+1, tPunct)
		lx.i = i + 1
		return
	}
	lx.emit(i, j, tLifetime)
	lx.i = j
}

// template lexes a piece of a template literal from start (the backtick or
// the "}" that ends a substitution) with its text starting at i. A piece
// ends at the closing backtick or at "${", where code resumes until the
// matching "}".
func (lx *lexer) template(start, i int) {
	src := lx.src
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '`':
			lx.emit(start, i+1, tString)
			lx.i = i + 1
			return
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				lx.emit(start, i+2, tString)
				lx.tmpl = append(lx.tmpl, lx.braces)
				lx.i = i + 2
				return
			}
		}
		i++
	}
	lx.emit(start, len(src), tString)
	lx.i = len(src)
}

// regexAllowed reports whether a "/" at lx.i starts a regular expression,
// judging by the previous token.
func (lx *lexer) regexAllowed() bool {
	if len(lx.toks) == 0 {
		return true
	}
	prev := lx.toks[len(lx.toks)-1]
	return scan.RegexAfter(lx.src, lx.i, lx.src[prev.off:prev.end], prev.kind == tIdent, prev.kind == tPunct, lx.syn.identByte)
}

// regex lexes the regular expression literal at i, or a "/" when none
// closes on this line.
func (lx *lexer) regex(i int) {
	if end := scan.RegexEnd(lx.src, i, lx.syn.identByte); end > 0 {
		lx.emit(i, end, tString)
		lx.i = end
		return
	}
	lx.emit(i, i+1, tPunct)
	lx.i = i + 1
}

// punctLen returns the length of the punctuator at the start of s. Only the
// few multi-byte operators the extractors look for are joined; "<" and ">"
// always stand alone so that type-argument lists can be matched.
func punctLen(s []byte) int {
	if len(s) < 2 {
		return 1
	}
	c, c1 := s[0], s[1]
	switch {
	case c == '=' && c1 == '>', c == '-' && c1 == '>', c == ':' && c1 == ':',
		c == '&' && c1 == '&', c == '|' && c1 == '|':
		return 2
	case c == '?' && c1 == '.' && !(len(s) > 2 && isDigit(s[2])):
		return 2
	case c == '.' && c1 == '.' && len(s) > 2 && s[2] == '.':
		return 3
	case (c == '=' || c == '!') && c1 == '=':
		if len(s) > 2 && s[2] == '=' {
			return 3
		}
		return 2
	}
	return 1
}

// matchBrackets pairs (), [] and {}; see [scan.Brackets].
func (lx *lexed) matchBrackets() {
	var b scan.Brackets
	for i := range lx.toks {
		t := &lx.toks[i]
		if t.kind != tPunct || t.end-t.off != 1 {
			continue
		}
		switch c := lx.src[t.off]; c {
		case '(', '[', '{':
			b = b.Open(i, c)
		case ')', ']', '}':
			var j int
			if b, j = b.Close(c); j >= 0 {
				lx.toks[j].match, t.match = int32(i), int32(j)
			}
		}
	}
}

// text returns the source text of token i, or "" when out of range.
func (lx *lexed) text(i int) string {
	if i < 0 || i >= len(lx.toks) {
		return ""
	}
	t := lx.toks[i]
	return string(lx.src[t.off:t.end])
}

// is reports whether token i exists and its text is s.
func (lx *lexed) is(i int, s string) bool {
	if i < 0 || i >= len(lx.toks) {
		return false
	}
	t := lx.toks[i]
	return int(t.end-t.off) == len(s) && string(lx.src[t.off:t.end]) == s
}

// kind returns the kind of token i, or tPunct when out of range.
func (lx *lexed) kind(i int) tokKind {
	if i < 0 || i >= len(lx.toks) {
		return tPunct
	}
	return lx.toks[i].kind
}

// ident reports whether token i is an identifier.
func (lx *lexed) ident(i int) bool { return lx.kind(i) == tIdent }

// match returns the index of the bracket matching token i, or -1.
func (lx *lexed) match(i int) int {
	if i < 0 || i >= len(lx.toks) {
		return -1
	}
	return int(lx.toks[i].match)
}

// line returns the line of token i; past the end, the last line.
func (lx *lexed) line(i int) int {
	switch {
	case len(lx.toks) == 0:
		return 1
	case i < 0:
		return int(lx.toks[0].line)
	case i >= len(lx.toks):
		return lx.endLine(len(lx.toks) - 1)
	}
	return int(lx.toks[i].line)
}

// endLine returns the line of the last byte of token i.
func (lx *lexed) endLine(i int) int {
	if i < 0 || i >= len(lx.toks) {
		return lx.line(i)
	}
	t := lx.toks[i]
	if t.kind != tString || t.end-t.off < 2 {
		return int(t.line)
	}
	return lx.lineOf(int(t.end) - 1)
}

// lineOf returns the 1-based line of byte offset off.
func (lx *lexed) lineOf(off int) int { return lineOfOffset(lx.lineStart, off) }

// col returns the 1-based byte column of token i.
func (lx *lexed) col(i int) int {
	t := lx.toks[i]
	return int(t.off-lx.lineStart[t.line-1]) + 1
}

// closeOf returns the index of the "}" that closes the "{" at token open
// within [open, hi); hi when the brace is left open, as in half-typed code,
// where the body runs to the end of the scope; -1 when open is not a "{".
func (lx *lexed) closeOf(open, hi int) int {
	if open < 0 || open >= hi || !lx.is(open, "{") {
		return -1
	}
	if m := lx.match(open); m > open && m < hi {
		return m
	}
	return hi
}

func isOpener(s string) bool { return s == "(" || s == "[" || s == "{" }
func isCloser(s string) bool { return s == ")" || s == "]" || s == "}" }

// join renders tokens [a, b) on one line as written: tokens that touch
// stay together, any other gap (spaces, line breaks, comments) becomes one
// space, except that a line break after an opener or before a closer
// disappears with the trailing comma before it (braces keep one space
// unless the syntax has tight braces). So a parameter list split over
// lines reads as if it had been written on one.
func (lx *lexed) join(a, b int) string {
	a, b = max(a, 0), min(b, len(lx.toks))
	if a >= b {
		return ""
	}
	var sb strings.Builder
	sb.Grow(int(lx.toks[b-1].end - lx.toks[a].off))
	for k := a; k < b; k++ {
		t := lx.toks[k]
		if k > a {
			prev := lx.toks[k-1]
			if gap := lx.src[prev.end:t.off]; len(gap) > 0 {
				cur, p := lx.text(k), lx.text(k-1)
				nl := bytes.IndexByte(gap, '\n') >= 0
				switch {
				case nl && isOpener(p):
					if p == "{" && !lx.syn.TightBraces {
						sb.WriteByte(' ')
					}
				case nl && isCloser(cur):
					if p == "," {
						s := strings.TrimSuffix(sb.String(), ",")
						sb.Reset()
						sb.WriteString(s)
					}
					if cur == "}" && !lx.syn.TightBraces {
						sb.WriteByte(' ')
					}
				default:
					sb.WriteByte(' ')
				}
			}
		}
		text := lx.src[t.off:t.end]
		if bytes.IndexByte(text, '\n') >= 0 {
			sb.WriteString(strings.Join(strings.Fields(string(text)), " "))
		} else {
			sb.Write(text)
		}
	}
	return sb.String()
}

// maxValueSig is the longest signature kept whole when a declaration's
// value spans lines: a multi-line literal is summarised after its first
// line instead, since a signature is a one-line reminder, not the code.
const maxValueSig = 100

// head renders tokens [a, b) like join, but when they span lines and the
// result would be longer than maxValueSig, only the tokens of the first
// line are kept, followed by "…" and the closers of the brackets left open.
func (lx *lexed) head(a, b int) string {
	a, b = max(a, 0), min(b, len(lx.toks))
	if a >= b {
		return ""
	}
	s := lx.join(a, b)
	if len(s) <= maxValueSig || lx.line(b-1) == lx.line(a) {
		return s
	}
	k := a
	for k < b && lx.line(k) == lx.line(a) {
		k++
	}
	var closers []string
	for j := a; j < k; j++ {
		if m := lx.match(j); m > j && m >= k {
			closers = append(closers, lx.text(m))
		}
	}
	s = lx.join(a, k) + "…"
	for j := len(closers) - 1; j >= 0; j-- {
		s += closers[j]
	}
	return s
}

// docBefore returns the text of the doc comment that ends right before
// offset off, separated from it by white space with no blank line, or "".
// Consecutive "///" lines make one comment.
func (lx *lexed) docBefore(off int) string {
	cs := lx.comments
	lo, hi := 0, len(cs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(cs[m].end) <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	k := lo - 1
	if k < 0 || !cs[k].doc || !onlySpace(lx.src[cs[k].end:off], 1) {
		return ""
	}
	if !cs[k].line {
		return cleanBlockDoc(string(lx.src[cs[k].off:cs[k].end]))
	}
	first := k
	for first > 0 && cs[first-1].doc && cs[first-1].line && onlySpace(lx.src[cs[first-1].end:cs[first].off], 1) {
		first--
	}
	var lines []string
	for j := first; j <= k; j++ {
		l := strings.TrimPrefix(string(lx.src[cs[j].off:cs[j].end]), "///")
		lines = append(lines, strings.TrimPrefix(strings.TrimRight(l, " \t\r"), " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// onlySpace reports whether b is white space holding at most maxNL line
// breaks.
func onlySpace(b []byte, maxNL int) bool {
	nl := 0
	for _, c := range b {
		switch c {
		case '\n':
			if nl++; nl > maxNL {
				return false
			}
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

// cleanBlockDoc strips the delimiters of a /** */ comment and the leading
// "*" of its lines.
func cleanBlockDoc(s string) string {
	s = strings.TrimPrefix(s, "/**")
	s = strings.TrimSuffix(s, "*/")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "*") {
			l = strings.TrimPrefix(strings.TrimPrefix(l, "*"), " ")
		}
		lines[i] = l
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
