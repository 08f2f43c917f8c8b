package syntax

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/internal/scan"
)

// TokenKind classifies a [Token].
type TokenKind uint8

// Token kinds.
const (
	TokPunct TokenKind = iota
	TokIdent
	TokNumber
	TokString
	// TokTemplate is a JavaScript template literal, or a piece of one
	// (see TokHead).
	TokTemplate
	TokRegexp   // a JavaScript regular-expression literal
	TokLifetime // a Rust lifetime or label: 'a
	// TokJSXText is the text of a JSX element between its tags and
	// expressions, trimmed of white space.
	TokJSXText
)

// IsString reports a string-like literal: a string, a template (or a
// piece of one) or a regular expression.
func (k TokenKind) IsString() bool { return k == TokString || k == TokTemplate || k == TokRegexp }

// Token is one token of a file. Comments are not tokens. [Lex] splits a
// template literal into pieces around its substitutions, whose code is
// tokenized like any other; [JS] reads it as one token.
type Token struct {
	Off, End int32
	// Line is the 1-based line of the token's first byte.
	Line int32
	// Match is the index of the bracket matching a (, [, { or ), ], }, or
	// -1.
	Match int32
	Kind  TokenKind
	// NL reports a line break (or the start of the file) before the
	// token, where automatic semicolon insertion may end a statement.
	NL bool
	// Flags qualify a template token.
	Flags TokenFlags
}

// Subst reports a template literal (or piece) with a ${} substitution.
func (t Token) Subst() bool { return t.Flags&TokSubst != 0 }

// TokenFlags qualify a template token.
type TokenFlags uint8

// Token flags. A piece of a template literal runs from the opening
// backtick (TokHead) or from the "}" that ends a substitution, up to the
// closing backtick or to a "${" (TokSubst), after which the
// substitution's code is tokenized like any other. A whole template (as
// [JS] reads it) is a TokHead, with TokSubst when it has a substitution.
const (
	TokHead TokenFlags = 1 << iota
	TokSubst
	// TokOpen marks a quoted string left open: at the end of its line or
	// of the file.
	TokOpen
	// TokJSXOpen marks the "<" of a JSX start tag, TokJSXClose that of an
	// end tag, TokJSXEnd the ">" that ends either, and TokJSXChild the "{"
	// of an expression among an element's children.
	TokJSXOpen
	TokJSXClose
	TokJSXEnd
	TokJSXChild
)

// TokenComment is one comment; Doc marks the doc forms "/**" and "///",
// Line a line comment.
type TokenComment struct {
	Off, End  int32
	Doc, Line bool
}

// Tokens is a tokenized file. It is not modified after lexing, so every
// stage may read it concurrently.
type Tokens struct {
	Src      []byte
	Syn      review.TokenSyntax
	Toks     []Token
	Comments []TokenComment
	// LineStart holds the offsets of the starts of lines; LineStart[0]
	// is 0.
	LineStart []int32
}

var tokensOf review.Memo[*Tokens]

// TokensOf returns the tokens of f by the lexical rules of its language,
// memoised on f, or nil when the language is not tokenized.
func TokensOf(f *review.File) *Tokens {
	ts := f.Language.Info().Tokens
	if !ts.Known {
		return nil
	}
	return tokensOf.Of(f, func() *Tokens { return Lex(f.Content, ts) })
}

// LineStarts returns the offsets at which the lines of src start.
func LineStarts(src []byte) []int32 {
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

// OffsetLine returns the 1-based line of byte offset off, given the
// offsets of the line starts.
func OffsetLine(starts []int32, off int) int {
	lo, hi := 0, len(starts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(starts[m]) <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// lexer holds the state of one tokenizing pass.
type lexer struct {
	*Tokens
	i       int
	curLine int // index into LineStart of the line holding the last emitted offset
	// brk reports a line break since the last token (or the start).
	brk bool
	// whole is the rules' reading of JavaScript: template literals are
	// one token and operators are read whole ("===", ">>>=", "??=");
	// the symbols' reading leaves "<" and ">" apart for type arguments.
	whole bool
	// tmpl holds, for each open template substitution, the brace depth at
	// which it was opened; braces counts the open "{" of code. heads
	// holds, when whole, the index of the token of each open template.
	tmpl   []int
	heads  []int
	braces int
	// toks are the tokens so far, Tokens.Toks once done.
	toks []Token
	// jsx holds the open JSX constructs, innermost last; tmplJSX holds,
	// for each open template substitution, the depth of jsx at its "${".
	jsx     []jsxFrame
	tmplJSX []int
	// ident is the identifier-byte table of the syntax.
	ident *[256]bool
	// expr stops the lexer at the "}" that closes an expression whose
	// "{" was before the start (see ExprEnd); end is then the offset
	// after it.
	expr bool
	end  int
}

// A jsxFrame is an open JSX construct: a tag (start or end), the children
// of an element, or an expression in braces.
type jsxFrame struct {
	kind uint8
	// braces is, for an expression, the brace depth outside its "{".
	braces int
	// closing marks an end tag; angles counts the open "<" of its type
	// arguments (<Select<Option> ...>).
	closing bool
	angles  int
}

const (
	jsxTag uint8 = iota
	jsxChildren
	jsxExpr
)

// jsxIn reports whether the innermost JSX construct is of kind k.
func (lx *lexer) jsxIn(k uint8) bool {
	n := len(lx.jsx)
	return n > 0 && lx.jsx[n-1].kind == k
}

// identPlain and identDollar tabulate IdentByte without and with "$".
var identPlain, identDollar = func() (p, d [256]bool) {
	for c := range 256 {
		p[c] = IdentByte(&review.TokenSyntax{}, byte(c))
		d[c] = IdentByte(&review.TokenSyntax{Dollar: true}, byte(c))
	}
	return p, d
}()

// Lex tokenizes src by the lexical rules ts. It never fails: an
// unterminated literal or comment runs to the end of its line or of the
// file.
func Lex(src []byte, ts review.TokenSyntax) *Tokens { return lex(src, ts, false) }

func lex(src []byte, ts review.TokenSyntax, whole bool) *Tokens {
	lx := &lexer{Tokens: &Tokens{Src: src, Syn: ts, LineStart: LineStarts(src)}, brk: true, whole: whole}
	// Real code averages three to five bytes per token.
	lx.toks = make([]Token, 0, len(src)/3+16)
	lx.ident = &identPlain
	if ts.Dollar {
		lx.ident = &identDollar
	}
	lx.run()
	if whole && len(lx.heads) > 0 {
		// A template left open runs to the end of the file.
		h := lx.heads[0]
		lx.toks[h].End = int32(len(src))
		lx.toks = lx.toks[:h+1]
	}
	lx.Toks = lx.toks
	lx.matchBrackets()
	return lx.Tokens
}

// lineAt returns the 1-based line of off; offsets must not decrease
// between calls.
func (lx *lexer) lineAt(off int) int32 {
	for lx.curLine+1 < len(lx.LineStart) && int(lx.LineStart[lx.curLine+1]) <= off {
		lx.curLine++
	}
	return int32(lx.curLine + 1)
}

func (lx *lexer) emit(start, end int, kind TokenKind) {
	lx.toks = append(lx.toks, Token{Off: int32(start), End: int32(end), Line: lx.lineAt(start), Match: -1, Kind: kind, NL: lx.brk})
	lx.brk = false
}

func (lx *lexer) emitFlags(start, end int, kind TokenKind, flags TokenFlags) {
	lx.emit(start, end, kind)
	lx.toks[len(lx.toks)-1].Flags = flags
}

func (lx *lexer) emitString(start, end int, open bool) {
	lx.emit(start, end, TokString)
	if open {
		lx.toks[len(lx.toks)-1].Flags = TokOpen
	}
}

func (lx *lexer) emitComment(start, end int, doc, line bool) {
	if lx.whole {
		return // the rules' reading keeps no comments
	}
	lx.Comments = append(lx.Comments, TokenComment{Off: int32(start), End: int32(end), Doc: doc, Line: line})
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// IdentByte reports whether c can continue an identifier of syntax s.
// Bytes of multi-byte runes count as identifier bytes, which is right for
// every letter and harmless for the rare non-letter.
func IdentByte(s *review.TokenSyntax, c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c >= 0x80 || c == '$' && s.Dollar
}

func (lx *lexer) run() {
	src, syn := lx.Src, &lx.Syn
	n := len(src)
	ident := lx.ident
	var lc0 byte // the first byte of the line-comment opener, if any
	if syn.LineComment != "" {
		lc0 = syn.LineComment[0]
	}
	var quote [256]bool
	for k := range len(syn.Quotes) {
		quote[syn.Quotes[k]] = true
	}
	if bytes.HasPrefix(src, []byte("#!")) {
		for lx.i < n && src[lx.i] != '\n' {
			lx.i++
		}
	}
	for lx.i < n {
		i := lx.i
		c := src[i]
		if syn.JSX && lx.jsxIn(jsxChildren) {
			lx.jsxText()
			continue
		}
		if c <= ' ' {
			// White space, and control characters, which no language
			// makes tokens of.
			if c == '\n' {
				lx.brk = true
			}
			lx.i++
			continue
		}
		// Comments.
		if c == lc0 && lc0 != 0 && bytes.HasPrefix(src[i:], []byte(syn.LineComment)) &&
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
			if bytes.IndexByte(src[i:end], '\n') >= 0 {
				lx.brk = true
			}
			lx.i = end
			continue
		}
		if syn.JSX && len(lx.jsx) > 0 && lx.jsxTagByte(c) {
			continue
		}
		switch {
		case c == '#' && syn.Hash && i+1 < n && ident[src[i+1]] && !isDigit(src[i+1]):
			j := i + 1
			for j < n && ident[src[j]] {
				j++
			}
			lx.emit(i, j, TokIdent)
			lx.i = j
		case ident[c] && !isDigit(c):
			j := i + 1
			for j < n && ident[src[j]] {
				j++
			}
			if j < n && (src[j] == '"' || src[j] == '\'') && lx.stringPrefix(src[i:j]) {
				lx.i = j
				end, open := lx.quoted(j, src[j])
				lx.emitString(i, end, open)
				lx.i = end
				continue
			}
			if syn.Rust && j < n && src[j] == '#' && lx.stringPrefix(src[i:j]) {
				if end := lx.rustRaw(j); end > 0 {
					lx.emit(i, end, TokString)
					lx.i = end
					continue
				}
			}
			lx.emit(i, j, TokIdent)
			lx.i = j
		case isDigit(c) || c == '.' && i+1 < n && isDigit(src[i+1]):
			j := i + 1
			hex := c == '0' && i+1 < n && src[i+1]|0x20 == 'x'
			for j < n && (ident[src[j]] || src[j] == '.' && !(j+1 < n && src[j+1] == '.') ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !hex) {
				j++
			}
			lx.emit(i, j, TokNumber)
			lx.i = j
		case c == '`' && syn.Backtick:
			end := bytes.IndexByte(src[i+1:], '`')
			if end < 0 {
				end = n
			} else {
				end += i + 2
			}
			lx.emit(i, end, TokString)
			lx.i = end
		case c == '`' && syn.Template:
			lx.template(i, i+1)
		case c == '\'' && syn.Rust:
			lx.rustQuote(i)
		case quote[c]:
			end, open := lx.quoted(i, c)
			lx.emitString(i, end, open)
			lx.i = end
		case c == '/' && syn.Regex && lx.regexAllowed():
			lx.regex(i)
		case c == '<' && syn.JSX && lx.jsxStart() && jsxTagAhead(src, i):
			lx.emitFlags(i, i+1, TokPunct, TokJSXOpen)
			lx.jsx = append(lx.jsx, jsxFrame{kind: jsxTag})
			lx.i = i + 1
		case c == '}' && len(lx.tmpl) > 0 && lx.tmpl[len(lx.tmpl)-1] == lx.braces:
			// The end of a template substitution: the template goes on,
			// and a JSX element left open inside it is over.
			lx.tmpl = lx.tmpl[:len(lx.tmpl)-1]
			lx.jsx = lx.jsx[:lx.tmplJSX[len(lx.tmplJSX)-1]]
			lx.tmplJSX = lx.tmplJSX[:len(lx.tmplJSX)-1]
			lx.template(i, i+1)
		default:
			var l int
			if lx.whole {
				l = jsPunctLen(src[i:])
			} else {
				l = punctLen(src[i:])
			}
			lx.emit(i, i+l, TokPunct)
			lx.i = i + l
			switch c {
			case '{':
				lx.braces++
			case '}':
				lx.braces--
				lx.jsxExprEnd()
				if lx.expr && lx.braces < 0 {
					lx.end = i + 1
					return
				}
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
	case lx.Syn.Triple:
		for _, c := range p {
			if !strings.ContainsRune("rRbBuUfF", rune(c)) {
				return false
			}
		}
		return true
	case lx.Syn.Rust:
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
	src := lx.Src
	if !lx.Syn.Nested {
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
func (lx *lexer) quoted(i int, q byte) (end int, open bool) {
	src := lx.Src
	n := len(src)
	if (lx.Syn.Triple || lx.Syn.TextBlock && q == '"') && i+2 < n && src[i+1] == q && src[i+2] == q {
		delim := src[i : i+3]
		for j := i + 3; j < n; j++ {
			if src[j] == '\\' {
				j++
				continue
			}
			if bytes.HasPrefix(src[j:], delim) {
				return j + 3, false
			}
		}
		return n, true
	}
	return quotedEnd(src, i, q, lx.Syn.Multiline)
}

// QuotedEnd returns the end of the string literal whose opening quote q is
// at i; unless multiline, one left open ends before the line break.
func QuotedEnd(src []byte, i int, q byte, multiline bool) int {
	end, _ := quotedEnd(src, i, q, multiline)
	return end
}

// quotedEnd is QuotedEnd, also reporting a literal left open.
func quotedEnd(src []byte, i int, q byte, multiline bool) (end int, open bool) {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			if j+2 < len(src) && src[j+1] == '\r' && src[j+2] == '\n' {
				j++ // a line continuation written with CRLF
			}
			j++
		case q:
			return j + 1, false
		case '\n':
			if !multiline {
				return j, true
			}
		}
	}
	return len(src), true
}

// rustRaw returns the end of a Rust raw string r#"..."# whose first "#"
// is at i, or 0 when none starts there.
func (lx *lexer) rustRaw(i int) int {
	src := lx.Src
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
	src := lx.Src
	n := len(src)
	if i+1 < n && src[i+1] == '\\' {
		end := i + 2
		for end < n && end < i+14 && src[end] != '\'' && src[end] != '\n' {
			end++
		}
		if end < n && src[end] == '\'' {
			end++
		}
		lx.emit(i, end, TokString)
		lx.i = end
		return
	}
	if i+1 < n {
		_, w := utf8.DecodeRune(src[i+1:])
		if i+1+w < n && src[i+1+w] == '\'' {
			lx.emit(i, i+2+w, TokString)
			lx.i = i + 2 + w
			return
		}
	}
	j := i + 1
	for j < n && IdentByte(&lx.Syn, src[j]) {
		j++
	}
	if j == i+1 {
		lx.emit(i, i+1, TokPunct)
		lx.i = i + 1
		return
	}
	lx.emit(i, j, TokLifetime)
	lx.i = j
}

// template lexes a piece of a template literal from start (the backtick or
// the "}" that ends a substitution) with its text starting at i. A piece
// ends at the closing backtick or at "${", where code resumes until the
// matching "}".
func (lx *lexer) template(start, i int) {
	src := lx.Src
	var flags TokenFlags
	if src[start] == '`' {
		flags = TokHead
	}
	end := len(src)
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '`':
			end = i + 1
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				lx.emitFlags(start, i+2, TokTemplate, flags|TokSubst)
				lx.tmpl = append(lx.tmpl, lx.braces)
				lx.tmplJSX = append(lx.tmplJSX, len(lx.jsx))
				if lx.whole && flags&TokHead != 0 {
					lx.heads = append(lx.heads, len(lx.toks)-1)
				}
				lx.i = i + 2
				return
			}
		}
		if end < len(src) {
			break
		}
		i++
	}
	lx.i = end
	if lx.whole && flags&TokHead == 0 && len(lx.heads) > 0 {
		// The literal ends: it is one token, its substitutions included.
		h := lx.heads[len(lx.heads)-1]
		lx.heads = lx.heads[:len(lx.heads)-1]
		lx.toks[h].End = int32(end)
		lx.toks = lx.toks[:h+1]
		lx.brk = false
		return
	}
	lx.emitFlags(start, end, TokTemplate, flags)
}

// identByte reports whether c continues an identifier of the lexer's
// syntax.
func (lx *lexer) identByte(c byte) bool { return lx.ident[c] }

// regexAllowed reports whether a "/" at lx.i starts a regular expression,
// judging by the previous token.
func (lx *lexer) regexAllowed() bool {
	if len(lx.toks) == 0 {
		return true
	}
	prev := lx.toks[len(lx.toks)-1]
	return scan.RegexAfter(lx.Src, lx.i, lx.Src[prev.Off:prev.End], prev.Kind == TokIdent, prev.Kind == TokPunct, lx.identByte)
}

// regex lexes the regular expression literal at i, or a "/" when none
// closes on this line.
func (lx *lexer) regex(i int) {
	if end := scan.RegexEnd(lx.Src, i, lx.identByte); end > 0 {
		lx.emit(i, end, TokRegexp)
		lx.i = end
		return
	}
	lx.emit(i, i+1, TokPunct)
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
func (lx *Tokens) matchBrackets() {
	var b scan.Brackets
	for i := range lx.Toks {
		t := &lx.Toks[i]
		if t.Kind != TokPunct || t.End-t.Off != 1 {
			continue
		}
		switch c := lx.Src[t.Off]; c {
		case '(', '[', '{':
			b = b.Open(i, c)
		case ')', ']', '}':
			var j int
			if b, j = b.Close(c); j >= 0 {
				lx.Toks[j].Match, t.Match = int32(i), int32(j)
			}
		}
	}
}

// text returns the source text of token i, or "" when out of range.
func (lx *Tokens) Text(i int) string {
	if i < 0 || i >= len(lx.Toks) {
		return ""
	}
	t := lx.Toks[i]
	return string(lx.Src[t.Off:t.End])
}

// is reports whether token i exists and its text is s.
func (lx *Tokens) Is(i int, s string) bool {
	if i < 0 || i >= len(lx.Toks) {
		return false
	}
	t := lx.Toks[i]
	return int(t.End-t.Off) == len(s) && string(lx.Src[t.Off:t.End]) == s
}

// kind returns the kind of token i, or TokPunct when out of range.
func (lx *Tokens) Kind(i int) TokenKind {
	if i < 0 || i >= len(lx.Toks) {
		return TokPunct
	}
	return lx.Toks[i].Kind
}

// ident reports whether token i is an identifier.
func (lx *Tokens) Ident(i int) bool { return lx.Kind(i) == TokIdent }

// match returns the index of the bracket matching token i, or -1.
func (lx *Tokens) Match(i int) int {
	if i < 0 || i >= len(lx.Toks) {
		return -1
	}
	return int(lx.Toks[i].Match)
}

// line returns the line of token i; past the end, the last line.
func (lx *Tokens) Line(i int) int {
	switch {
	case len(lx.Toks) == 0:
		return 1
	case i < 0:
		return int(lx.Toks[0].Line)
	case i >= len(lx.Toks):
		return lx.EndLine(len(lx.Toks) - 1)
	}
	return int(lx.Toks[i].Line)
}

// endLine returns the line of the last byte of token i.
func (lx *Tokens) EndLine(i int) int {
	if i < 0 || i >= len(lx.Toks) {
		return lx.Line(i)
	}
	t := lx.Toks[i]
	if !t.Kind.IsString() || t.End-t.Off < 2 {
		return int(t.Line)
	}
	return lx.LineOf(int(t.End) - 1)
}

// lineOf returns the 1-based line of byte offset off.
func (lx *Tokens) LineOf(off int) int { return OffsetLine(lx.LineStart, off) }

// col returns the 1-based byte column of token i.
func (lx *Tokens) Col(i int) int {
	t := lx.Toks[i]
	return int(t.Off-lx.LineStart[t.Line-1]) + 1
}

// closeOf returns the index of the "}" that closes the "{" at token open
// within [open, hi); hi when the brace is left open, as in half-typed code,
// where the body runs to the end of the scope; -1 when open is not a "{".
func (lx *Tokens) CloseOf(open, hi int) int {
	if open < 0 || open >= hi || !lx.Is(open, "{") {
		return -1
	}
	if m := lx.Match(open); m > open && m < hi {
		return m
	}
	return hi
}

func IsOpener(s string) bool { return s == "(" || s == "[" || s == "{" }
func isCloser(s string) bool { return s == ")" || s == "]" || s == "}" }

// join renders tokens [a, b) on one line as written: tokens that touch
// stay together, any other gap (spaces, line breaks, comments) becomes one
// space, except that a line break after an opener or before a closer
// disappears with the trailing comma before it (braces keep one space
// unless the syntax has tight braces). So a parameter list split over
// lines reads as if it had been written on one.
func (lx *Tokens) Join(a, b int) string {
	a, b = max(a, 0), min(b, len(lx.Toks))
	if a >= b {
		return ""
	}
	var sb strings.Builder
	sb.Grow(int(lx.Toks[b-1].End - lx.Toks[a].Off))
	for k := a; k < b; k++ {
		t := lx.Toks[k]
		if k > a {
			prev := lx.Toks[k-1]
			if gap := lx.Src[prev.End:t.Off]; len(gap) > 0 {
				cur, p := lx.Text(k), lx.Text(k-1)
				nl := bytes.IndexByte(gap, '\n') >= 0
				switch {
				case nl && IsOpener(p):
					if p == "{" && !lx.Syn.TightBraces {
						sb.WriteByte(' ')
					}
				case nl && isCloser(cur):
					if p == "," {
						s := strings.TrimSuffix(sb.String(), ",")
						sb.Reset()
						sb.WriteString(s)
					}
					if cur == "}" && !lx.Syn.TightBraces {
						sb.WriteByte(' ')
					}
				default:
					sb.WriteByte(' ')
				}
			}
		}
		text := lx.Src[t.Off:t.End]
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
func (lx *Tokens) Head(a, b int) string {
	a, b = max(a, 0), min(b, len(lx.Toks))
	if a >= b {
		return ""
	}
	s := lx.Join(a, b)
	if len(s) <= maxValueSig || lx.Line(b-1) == lx.Line(a) {
		return s
	}
	k := a
	for k < b && lx.Line(k) == lx.Line(a) {
		k++
	}
	var closers []string
	for j := a; j < k; j++ {
		if m := lx.Match(j); m > j && m >= k {
			closers = append(closers, lx.Text(m))
		}
	}
	s = lx.Join(a, k) + "…"
	for j := len(closers) - 1; j >= 0; j-- {
		s += closers[j]
	}
	return s
}

// docBefore returns the text of the doc comment that ends right before
// offset off, separated from it by white space with no blank line, or "".
// Consecutive "///" lines make one comment.
func (lx *Tokens) DocBefore(off int) string {
	cs := lx.Comments
	lo, hi := 0, len(cs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(cs[m].End) <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	k := lo - 1
	if k < 0 || !cs[k].Doc || !onlySpace(lx.Src[cs[k].End:off], 1) {
		return ""
	}
	if !cs[k].Line {
		return cleanBlockDoc(string(lx.Src[cs[k].Off:cs[k].End]))
	}
	first := k
	for first > 0 && cs[first-1].Doc && cs[first-1].Line && onlySpace(lx.Src[cs[first-1].End:cs[first].Off], 1) {
		first--
	}
	var lines []string
	for j := first; j <= k; j++ {
		l := strings.TrimPrefix(string(lx.Src[cs[j].Off:cs[j].End]), "///")
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

// jsxText lexes at lx.i among the children of a JSX element: text up to a
// "<" or "{", an expression's "{", or the "<" of a child element or of the
// element's end tag.
func (lx *lexer) jsxText() {
	src := lx.Src
	i := lx.i
	j := i
	for j < len(src) && src[j] != '<' && src[j] != '{' {
		j++
	}
	if j > i {
		a, b := i, j
		for a < b && src[a] <= ' ' {
			if src[a] == '\n' {
				lx.brk = true
			}
			a++
		}
		for b > a && src[b-1] <= ' ' {
			b--
		}
		if a < b {
			lx.emit(a, b, TokJSXText)
			if bytes.IndexByte(src[b:j], '\n') >= 0 {
				lx.brk = true
			}
		}
		lx.i = j
		return
	}
	lx.i = i + 1
	if src[i] == '{' {
		lx.emitFlags(i, i+1, TokPunct, TokJSXChild)
		lx.jsx = append(lx.jsx, jsxFrame{kind: jsxExpr, braces: lx.braces})
		lx.braces++
		return
	}
	var next byte
	if i+1 < len(src) {
		next = src[i+1]
	}
	switch {
	case next == '/': // the end tag: JSX nests strictly
		lx.emitFlags(i, i+1, TokPunct, TokJSXClose)
		lx.jsx = append(lx.jsx, jsxFrame{kind: jsxTag, closing: true})
	case next == '>' || mkLetter(next) || next == '_' || next == '$':
		lx.emitFlags(i, i+1, TokPunct, TokJSXOpen)
		lx.jsx = append(lx.jsx, jsxFrame{kind: jsxTag})
	default:
		lx.emit(i, i+1, TokJSXText)
	}
}

// jsxTagByte lexes the bytes a JSX tag reads its own way at lx.i, whose
// byte is c: the "<" and ">" of type arguments, the ">" that ends the tag, an attribute string (which spans
// lines and knows no escapes), a "/" (never a regular expression) and the
// "{" of an attribute expression. It reports false for any other byte,
// which is lexed as code.
func (lx *lexer) jsxTagByte(c byte) bool {
	if !lx.jsxIn(jsxTag) {
		return false
	}
	src, i := lx.Src, lx.i
	top := &lx.jsx[len(lx.jsx)-1]
	switch {
	case c == '<':
		lx.emit(i, i+1, TokPunct)
		top.angles++
	case c == '>' && top.angles > 0:
		lx.emit(i, i+1, TokPunct)
		top.angles--
	case c == '>':
		lx.emitFlags(i, i+1, TokPunct, TokJSXEnd)
		f := lx.jsx[len(lx.jsx)-1]
		lx.jsx = lx.jsx[:len(lx.jsx)-1]
		k := len(lx.toks) - 2
		self := k >= 0 && lx.toks[k].End == int32(i) && src[i-1] == '/'
		switch {
		case f.closing:
			if lx.jsxIn(jsxChildren) {
				lx.jsx = lx.jsx[:len(lx.jsx)-1] // the element ends
			}
		case !self:
			lx.jsx = append(lx.jsx, jsxFrame{kind: jsxChildren})
		}
	case c == '"' || c == '\'':
		end, open := len(src), true
		if k := bytes.IndexByte(src[i+1:], c); k >= 0 {
			end, open = i+2+k, false
		}
		lx.emitString(i, end, open)
		lx.i = end
		return true
	case c == '/':
		lx.emit(i, i+1, TokPunct)
	case c == '{':
		lx.emit(i, i+1, TokPunct)
		lx.jsx = append(lx.jsx, jsxFrame{kind: jsxExpr, braces: lx.braces})
		lx.braces++
	default:
		return false
	}
	lx.i = i + 1
	return true
}

// jsxExprEnd ends the JSX expression whose "}" was just lexed, if any,
// with the JSX constructs left open inside it.
func (lx *lexer) jsxExprEnd() {
	for k := len(lx.jsx) - 1; k >= 0; k-- {
		if f := lx.jsx[k]; f.kind == jsxExpr {
			if f.braces == lx.braces {
				lx.jsx = lx.jsx[:k]
			}
			return
		}
	}
}

// jsxStart reports whether an expression may start after the last token,
// so that a "<" there opens a JSX element: at the start of the file,
// after an operator or opening punctuation (ending in one of "([,;:?!&|={",
// or "=>"), a template's "${", and the keywords that take an expression.
func (lx *lexer) jsxStart() bool {
	if len(lx.toks) == 0 {
		return true
	}
	t := lx.toks[len(lx.toks)-1]
	text := lx.Src[t.Off:t.End]
	switch t.Kind {
	case TokPunct:
		return string(text) == "=>" || strings.IndexByte("([,;:?!&|={", text[len(text)-1]) >= 0
	case TokTemplate:
		return t.Subst() && text[len(text)-1] == '{' // after "${"
	case TokIdent:
		switch string(text) {
		case "return", "yield", "await", "default", "case", "typeof", "void", "delete", "throw",
			"in", "of", "else", "do", "new", "instanceof":
			return true
		}
	}
	return false
}

// jsxTagAhead reports whether the "<" at src[i] opens a JSX element rather
// than a TypeScript type parameter list.
func jsxTagAhead(src []byte, i int) bool {
	j := i + 1
	if j >= len(src) {
		return false
	}
	if src[j] == '>' { // <>: fragment
		return true
	}
	if !mkLetter(src[j]) && src[j] != '_' && src[j] != '$' {
		return false
	}
	k := j
	for k < len(src) && mkNameByte(src[k]) {
		k++
	}
	name := src[j:k]
	if string(name) == "const" { // <const T,>
		return false
	}
	for k < len(src) && mkSpace(src[k]) {
		k++
	}
	if k >= len(src) {
		return false
	}
	switch {
	case src[k] == ',' || src[k] == '=':
		return false // <T,> <T = X>
	case bytes.HasPrefix(src[k:], []byte("extends")) && k+7 < len(src) && mkSpace(src[k+7]):
		return false // <T extends U>
	case src[k] == '>' && k+1 < len(src) && src[k+1] == '(' && name[0] >= 'A' && name[0] <= 'Z' && k == j+len(name):
		return false // <T>(x: T) => ...
	}
	return true
}

// ExprEnd lexes the JavaScript expression that starts at src[i], after
// the "{" that opens it (a Svelte {expression} or attribute value), up to
// the "}" that closes it. It returns the offset after that "}" (len(src)
// when it is left open), whether the expression holds code (tokens, not
// only comments) and whether it starts with a spread ("..."). Only the
// expression is read: the cost is its length, not the file's.
func ExprEnd(src string, i int) (end int, code, spread bool) {
	// The lexer only reads its bytes.
	b := unsafe.Slice(unsafe.StringData(src[i:]), len(src)-i)
	lx := &lexer{Tokens: &Tokens{Src: b, Syn: jsSyntax, LineStart: []int32{0}}, brk: true, ident: &identDollar, expr: true, end: -1}
	lx.toks = make([]Token, 0, 16)
	lx.run()
	end = len(src)
	if lx.end >= 0 {
		end = i + lx.end
	}
	n := len(lx.toks)
	if lx.end >= 0 {
		n-- // the closing "}"
	}
	return end, n > 0, n > 0 && string(b[lx.toks[0].Off:lx.toks[0].End]) == "..."
}
