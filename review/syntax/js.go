package syntax

import (
	"sort"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// JSFile is a JavaScript or TypeScript file as the rules read it: the
// lexer's tokens with template literals whole (substitutions included)
// and operators whole, comments dropped. It is not modified after
// tokenizing, so rules of all lenses may read it concurrently.
type JSFile struct {
	Src  string
	Toks []Token
	// lineTok[n-1] is the index of the first token that starts on line n
	// or later; it has one entry per line plus a sentinel.
	lineTok []int32
	// lineStart[n-1] is the offset of line n.
	lineStart []int32
}

// Col returns the 1-based byte column of token i.
func (js *JSFile) Col(i int) int {
	t := js.Toks[i]
	return int(t.Off-js.lineStart[t.Line-1]) + 1
}

// EndCol returns the 1-based byte column just after token i, on the line
// where the token ends.
func (js *JSFile) EndCol(i int) (line, col int) {
	t := js.Toks[i]
	l := int(t.Line)
	for l < len(js.lineStart) && js.lineStart[l] < t.End {
		l++
	}
	return l, int(t.End-js.lineStart[l-1]) + 1
}

var jsOf review.Memo[*JSFile]

// JS returns the tokens of a JavaScript or TypeScript file (JSX and TSX
// included), memoised on f. The tokenizer skips comments and keeps string,
// template and regular-expression literals whole, so rules never match
// text inside them. JSX text is lexed as code; an apostrophe in it opens a
// string that ends with the line, which keeps the damage to that line.
func JS(f *review.File) *JSFile {
	return jsOf.Of(f, func() *JSFile { return TokenizeJS(f.Language, f.Content) })
}

// TokenizeJS returns the rules' reading of src in language lang (JSX
// elements in JSX and TSX), which need not be a file's content (a base
// version).
func TokenizeJS(lang review.Language, src []byte) *JSFile {
	ts := lang.Info().Tokens
	if !ts.Template {
		ts = jsSyntax // not JavaScript: read as TypeScript
	}
	tk := lex(src, ts, true)
	// Strings are immutable and the rules slice Src constantly; the copy
	// is made once here.
	js := &JSFile{Src: string(src), Toks: tk.Toks, lineStart: tk.LineStart}
	line := int32(len(tk.LineStart))
	js.lineTok = make([]int32, line+1)
	k := 0
	for l := int32(1); l <= line+1; l++ {
		for k < len(js.Toks) && js.Toks[k].Line < l {
			k++
		}
		js.lineTok[l-1] = int32(k)
	}
	return js
}

var jsSyntax = review.LangTypeScript.Info().Tokens

// Text returns the source text of token i, or "" when i is out of range.
func (js *JSFile) Text(i int) string {
	if i < 0 || i >= len(js.Toks) {
		return ""
	}
	t := js.Toks[i]
	return js.Src[t.Off:t.End]
}

// Is reports whether token i exists and its text is s.
func (js *JSFile) Is(i int, s string) bool {
	if i < 0 || i >= len(js.Toks) {
		return false
	}
	t := js.Toks[i]
	return int(t.End-t.Off) == len(s) && js.Src[t.Off:t.End] == s
}

// Kind returns the kind of token i, or TokPunct when out of range.
func (js *JSFile) Kind(i int) TokenKind {
	if i < 0 || i >= len(js.Toks) {
		return TokPunct
	}
	return js.Toks[i].Kind
}

// Match returns the index of the bracket matching token i, or -1.
func (js *JSFile) Match(i int) int {
	if i < 0 || i >= len(js.Toks) {
		return -1
	}
	return int(js.Toks[i].Match)
}

// LineToks returns the half-open range of indices of the tokens that start
// on line n.
func (js *JSFile) LineToks(n int) (lo, hi int) {
	if n < 1 || n >= len(js.lineTok) {
		return 0, 0
	}
	return int(js.lineTok[n-1]), int(js.lineTok[n])
}

// Literal reports whether token i is a string literal or a template literal
// without substitutions.
func (js *JSFile) Literal(i int) bool {
	k := js.Kind(i)
	return i >= 0 && i < len(js.Toks) && (k == TokString || k == TokTemplate && !js.Toks[i].Subst())
}

// StringValue returns the contents of a string literal or a template
// literal without substitutions, quotes removed and escapes kept.
func (js *JSFile) StringValue(i int) (string, bool) {
	if !js.Literal(i) {
		return "", false
	}
	s := js.Text(i)
	if len(s) < 2 {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// ConstExpr reports whether the tokens [lo, hi) form an expression of
// literals only: strings, templates without substitutions, numbers, and
// "+" or parentheses between them.
func (js *JSFile) ConstExpr(lo, hi int) bool {
	if lo >= hi {
		return false
	}
	for i := lo; i < hi; i++ {
		switch {
		case js.Literal(i), js.Kind(i) == TokNumber:
		case js.Is(i, "+"), js.Is(i, "("), js.Is(i, ")"):
		default:
			return false
		}
	}
	return true
}

// ArgEnd returns the index of the token that ends the call argument that
// starts at i: the next "," or the closing bracket at the same depth.
func (js *JSFile) ArgEnd(i int) int {
	for i < len(js.Toks) {
		t := js.Toks[i]
		if t.Kind == TokPunct {
			switch js.Text(i) {
			case "(", "[", "{":
				if t.Match < 0 {
					return len(js.Toks)
				}
				i = int(t.Match) + 1
				continue
			case ",", ")", "]", "}":
				return i
			}
		}
		i++
	}
	return i
}

// Args returns the token ranges of the arguments of the call whose "(" is
// token open; each range is [lo, hi).
func (js *JSFile) Args(open int) [][2]int {
	end := js.Match(open)
	if end < 0 || end == open+1 {
		return nil
	}
	var out [][2]int
	for i := open + 1; i < end; {
		j := min(js.ArgEnd(i), end)
		out = append(out, [2]int{i, j})
		i = j + 1
	}
	return out
}

// jsPunctLen returns the length of the operator or punctuator at the start
// of s (maximal munch).
func jsPunctLen(s []byte) int {
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	c, c1, c2 := s[0], at(1), at(2)
	switch c {
	case '=', '!':
		if c1 == '=' {
			if c2 == '=' {
				return 3 // === !==
			}
			return 2 // == !=
		}
		if c == '=' && c1 == '>' {
			return 2 // =>
		}
	case '&', '|', '?':
		if c1 == c {
			if c2 == '=' {
				return 3 // &&= ||= ??=
			}
			return 2 // && || ??
		}
		if c == '?' && c1 == '.' && !jsDigit(c2) {
			return 2 // ?.
		}
		if c1 == '=' && c != '?' {
			return 2 // &= |=
		}
	case '+', '-':
		if c1 == c || c1 == '=' {
			return 2 // ++ -- += -=
		}
	case '*':
		if c1 == '*' {
			if c2 == '=' {
				return 3 // **=
			}
			return 2 // **
		}
		if c1 == '=' {
			return 2
		}
	case '/', '%', '^':
		if c1 == '=' {
			return 2
		}
	case '.':
		if c1 == '.' && c2 == '.' {
			return 3 // ...
		}
	case '<':
		if c1 == '<' {
			if c2 == '=' {
				return 3 // <<=
			}
			return 2 // <<
		}
		if c1 == '=' {
			return 2
		}
	case '>':
		if c1 == '>' {
			if c2 == '>' {
				if at(3) == '=' {
					return 4 // >>>=
				}
				return 3 // >>>
			}
			if c2 == '=' {
				return 3 // >>=
			}
			return 2 // >>
		}
		if c1 == '=' {
			return 2
		}
	}
	return 1
}

func jsDigit(c byte) bool { return c >= '0' && c <= '9' }

// JSFunc is a function with a block body: a declaration, a function
// expression, a method or an arrow function.
type JSFunc struct {
	// Name is the declared name, the variable or property it is assigned
	// to, or "" for an anonymous function (a callback).
	Name  string
	Async bool
	// Start is the index of the function's first token (async, function,
	// a modifier, the name or the parameters); Open and Close are the
	// indices of its body braces.
	Start, Open, Close int
}

var jsFuncsOf review.Memo[[]JSFunc]

// JSFuncs returns the functions of a JavaScript or TypeScript file, sorted
// by the position of their body, memoised on f.
func JSFuncs(f *review.File) []JSFunc {
	return jsFuncsOf.Of(f, func() []JSFunc { return JS(f).findFuncs() })
}

// jsNotMethods are keywords that a "(" may follow without making a call or
// a method definition.
var jsNotMethods = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true,
	"function": true, "return": true, "typeof": true, "await": true, "yield": true,
	"void": true, "new": true, "super": true, "import": true, "else": true, "do": true,
	"in": true, "of": true, "case": true, "throw": true, "delete": true, "instanceof": true,
}

// jsModifiers may precede a method name.
var jsModifiers = map[string]bool{
	"async": true, "static": true, "get": true, "set": true, "public": true, "private": true,
	"protected": true, "readonly": true, "override": true, "abstract": true, "*": true,
}

func (js *JSFile) findFuncs() []JSFunc {
	var out []JSFunc
	for i := range js.Toks {
		if fn, ok := js.funcAt(i); ok {
			out = append(out, fn)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Open < out[b].Open })
	return out
}

// funcAt recognises a function whose defining token is i: the function
// keyword, the "=>" of an arrow function with a block body, or the name of
// a method.
func (js *JSFile) funcAt(i int) (JSFunc, bool) {
	t := js.Toks
	if i < 0 || i >= len(t) {
		return JSFunc{}, false
	}
	switch t[i].Kind {
	case TokIdent:
		if js.Is(i, "function") {
			j := i + 1
			if js.Is(j, "*") {
				j++
			}
			name := ""
			if js.Kind(j) == TokIdent {
				name = js.Text(j)
				j++
			}
			if js.Is(j, "<") {
				j = js.skipAngles(j)
			}
			if !js.Is(j, "(") || t[j].Match < 0 {
				return JSFunc{}, false
			}
			open := js.bodyAfterParams(int(t[j].Match))
			if open < 0 {
				return JSFunc{}, false
			}
			start, async := i, js.Is(i-1, "async")
			if async {
				start = i - 1
			}
			if name == "" {
				name = js.assignedName(start)
			}
			return JSFunc{Name: name, Async: async, Start: start, Open: open, Close: int(t[open].Match)}, true
		}
		if !js.Is(i+1, "(") || t[i+1].Match < 0 || js.Is(i-1, ".") || js.Is(i-1, "function") ||
			js.Is(i-1, "*") && js.Is(i-2, "function") || jsNotMethods[js.Text(i)] {
			return JSFunc{}, false
		}
		open := js.bodyAfterParams(int(t[i+1].Match))
		if open < 0 {
			return JSFunc{}, false
		}
		start, async := i, false
		for k := i - 1; k >= 0 && k >= i-4 && jsModifiers[js.Text(k)]; k-- {
			start = k
			if js.Is(k, "async") {
				async = true
			}
		}
		return JSFunc{Name: js.Text(i), Async: async, Start: start, Open: open, Close: int(t[open].Match)}, true
	case TokPunct:
		if !js.Is(i, "=>") || !js.Is(i+1, "{") || t[i+1].Match < 0 {
			return JSFunc{}, false
		}
		ps := js.arrowParams(i)
		if ps < 0 {
			return JSFunc{}, false
		}
		start, async := ps, js.Is(ps-1, "async")
		if async {
			start = ps - 1
		}
		return JSFunc{Name: js.assignedName(start), Async: async, Start: start, Open: i + 1, Close: int(t[i+1].Match)}, true
	}
	return JSFunc{}, false
}

var jsAsyncOf review.Memo[[]JSFunc]

// JSAsyncFuncs returns the async functions of a JavaScript or TypeScript
// file, sorted by the position of their body, memoised on f. It looks only
// at async keywords, so it is much cheaper than [JSFuncs].
func JSAsyncFuncs(f *review.File) []JSFunc {
	return jsAsyncOf.Of(f, func() []JSFunc {
		js := JS(f)
		var out []JSFunc
		for i := range js.Toks {
			if js.Toks[i].Kind != TokIdent || !js.Is(i, "async") {
				continue
			}
			j := i + 1
			switch {
			case js.Is(j, "function"):
			case js.Is(j, "("):
				// async (x) => {} or async (x): T => {}
				if j = js.Match(j) + 1; j <= 0 {
					continue
				}
				for k := j + 1; js.Is(j, ":") && k < len(js.Toks) && k < j+64; k++ {
					if js.Is(k, "=>") {
						j = k
						break
					}
					if js.Is(k, ";") || js.Is(k, "=") {
						break
					}
					if m := js.Match(k); m > k {
						k = m
					}
				}
			case js.Kind(j) == TokIdent && js.Is(j+1, "=>"):
				j++ // async x => {}
			case js.Is(j, "*") && js.Kind(j+1) == TokIdent:
				j++ // async *gen() {}
			}
			if fn, ok := js.funcAt(j); ok && fn.Async {
				out = append(out, fn)
			}
		}
		sort.Slice(out, func(a, b int) bool { return out[a].Open < out[b].Open })
		return out
	})
}

// LongestBlock returns the largest number of lines between a "{" and its
// matching "}"; rules use it to skip files where no function can be long.
func (js *JSFile) LongestBlock() int {
	longest := 0
	for i, t := range js.Toks {
		if t.Kind == TokPunct && t.End-t.Off == 1 && js.Src[t.Off] == '{' && t.Match > int32(i) {
			longest = max(longest, int(js.Toks[t.Match].Line-t.Line))
		}
	}
	return longest
}

// skipAngles returns the index after the ">" that closes the type
// parameter list opened at i.
func (js *JSFile) skipAngles(i int) int {
	depth := 0
	for j := i; j < len(js.Toks) && j < i+64; j++ {
		switch js.Text(j) {
		case "<":
			depth++
		case ">":
			depth--
		case ">>":
			depth -= 2
		case "{", ";", "(":
			return j
		}
		if depth <= 0 {
			return j + 1
		}
	}
	return i
}

// bodyAfterParams returns the index of the "{" that opens the body of a
// function whose parameter list closes at token close, skipping a
// TypeScript return type, or -1 when none follows.
func (js *JSFile) bodyAfterParams(close int) int {
	j := close + 1
	if js.Is(j, "{") {
		if js.Match(j) < j {
			return -1 // an unclosed body
		}
		return j
	}
	if !js.Is(j, ":") {
		return -1
	}
	prev := j
	for j++; j < len(js.Toks) && j < close+128; j++ {
		switch js.Text(j) {
		case "{":
			if js.typeEnd(prev) {
				if js.Match(j) < j {
					return -1
				}
				return j
			}
			if j = js.Match(j); j < 0 {
				return -1
			}
		case "(", "[":
			if j = js.Match(j); j < 0 {
				return -1
			}
		case ";", "=", "=>", ")", "]", "}", ",":
			return -1
		}
		prev = j
	}
	return -1
}

// typeEnd reports whether token i can end a TypeScript type, so that a "{"
// after it opens a body rather than an object type.
func (js *JSFile) typeEnd(i int) bool {
	switch js.Kind(i) {
	case TokIdent, TokString, TokNumber, TokTemplate:
		return true
	}
	switch js.Text(i) {
	case ">", "]", ")", "}":
		return true
	}
	return false
}

// arrowParams returns the index of the first token of the parameters of
// the arrow function whose "=>" is token i, or -1.
func (js *JSFile) arrowParams(i int) int {
	p := i - 1
	if js.Is(p, ")") {
		return js.Match(p)
	}
	if js.Kind(p) == TokIdent && !js.Is(p-1, ":") {
		return p
	}
	// (x): T => {}: walk back over the return type.
	for k := p; k >= 0 && k > i-64; k-- {
		switch js.Text(k) {
		case ")":
			if js.Is(k+1, ":") {
				return js.Match(k)
			}
			if k = js.Match(k); k < 0 {
				return -1
			}
		case "]", "}":
			if k = js.Match(k); k < 0 {
				return -1
			}
		case ";", "=", "{", "(", "[":
			return -1
		}
	}
	return -1
}

// assignedName returns the name a function expression starting at token
// start is assigned to (const f = ..., f: ..., this.f = ...), or "".
func (js *JSFile) assignedName(start int) string {
	k := start - 1
	if !js.Is(k, "=") && !js.Is(k, ":") {
		return ""
	}
	if js.Is(k, "=") && js.Kind(k-1) == TokIdent && js.Is(k-2, ":") && js.Kind(k-3) == TokIdent {
		return js.Text(k - 3) // const f: Handler = ...
	}
	if js.Kind(k-1) == TokIdent {
		return js.Text(k - 1)
	}
	return ""
}

// JSEnclosing returns the innermost function of funcs (sorted by Open) whose
// body contains token i, or nil.
func JSEnclosing(funcs []JSFunc, i int) *JSFunc {
	k := sort.Search(len(funcs), func(k int) bool { return funcs[k].Open >= i })
	for k--; k >= 0; k-- {
		if funcs[k].Open < i && i < funcs[k].Close {
			return &funcs[k]
		}
	}
	return nil
}

// JSImport binds a local name to an export of a module.
type JSImport struct {
	// Local is the local binding.
	Local string
	// Module is the module specifier ("node:child_process").
	Module string
	// Name is the imported export: "default", "*" for a namespace or a
	// whole require(), or the export's name.
	Name string
}

var jsImportsOf review.Memo[[]JSImport]

// JSImports returns the ES imports and CommonJS requires of a file,
// memoised on f. Type-only imports are left out.
func JSImports(f *review.File) []JSImport {
	return jsImportsOf.Of(f, func() []JSImport { return JS(f).imports() })
}

// JSImportOf returns the module and export a local name is bound to.
func JSImportOf(imports []JSImport, local string) (JSImport, bool) {
	for _, im := range imports {
		if im.Local == local {
			return im, true
		}
	}
	return JSImport{}, false
}

// JSModuleIs reports whether a module specifier names one of mods, with or
// without the "node:" scheme.
func JSModuleIs(spec string, mods ...string) bool {
	spec = strings.TrimPrefix(spec, "node:")
	for _, m := range mods {
		if spec == m {
			return true
		}
	}
	return false
}

func (js *JSFile) imports() []JSImport {
	var out []JSImport
	t := js.Toks
	for i := range t {
		if t[i].Kind != TokIdent {
			continue
		}
		switch js.Text(i) {
		case "import":
			if js.Is(i-1, ".") || js.Is(i+1, "(") || js.Is(i+1, "type") && !js.Is(i+2, ",") && !js.Is(i+2, "from") {
				continue
			}
			var pending []JSImport
			j := i + 1
			for ; j < len(t) && j < i+256 && !js.Is(j, "from") && !js.Is(j, ";"); j++ {
				switch {
				case js.Is(j, "*") && js.Is(j+1, "as"):
					pending = append(pending, JSImport{Local: js.Text(j + 2), Name: "*"})
					j += 2
				case js.Is(j, "{"):
					end := js.Match(j)
					if end < 0 {
						break
					}
					for k := j + 1; k < end; k++ {
						if js.Kind(k) != TokIdent || js.Is(k, "type") && js.Kind(k+1) == TokIdent {
							continue
						}
						name, local := js.Text(k), js.Text(k)
						if js.Is(k+1, "as") {
							local = js.Text(k + 2)
							k += 2
						}
						pending = append(pending, JSImport{Local: local, Name: name})
					}
					j = end
				case t[j].Kind == TokIdent && (js.Is(j+1, ",") || js.Is(j+1, "from")):
					pending = append(pending, JSImport{Local: js.Text(j), Name: "default"})
				}
			}
			if js.Is(j, "from") && js.Kind(j+1) == TokString {
				mod, _ := js.StringValue(j + 1)
				for _, im := range pending {
					im.Module = mod
					out = append(out, im)
				}
			}
		case "require":
			if !js.Is(i+1, "(") || !js.Literal(i+2) || !js.Is(i+3, ")") || !js.Is(i-1, "=") {
				continue
			}
			mod, _ := js.StringValue(i + 2)
			member := ""
			if js.Is(i+4, ".") && js.Kind(i+5) == TokIdent {
				member = js.Text(i + 5)
			}
			switch b := i - 2; {
			case js.Kind(b) == TokIdent:
				name := "*"
				if member != "" {
					name = member
				}
				out = append(out, JSImport{Local: js.Text(b), Module: mod, Name: name})
			case js.Is(b, "}") && js.Match(b) >= 0 && member == "":
				for k := js.Match(b) + 1; k < b; k++ {
					if js.Kind(k) != TokIdent {
						continue
					}
					name, local := js.Text(k), js.Text(k)
					if js.Is(k+1, ":") && js.Kind(k+2) == TokIdent {
						local = js.Text(k + 2)
						k += 2
					}
					out = append(out, JSImport{Local: local, Module: mod, Name: name})
				}
			}
		}
	}
	return out
}

// jsContinues are keywords after which a line break does not end the
// expression being written.
var jsContinues = map[string]bool{
	"return": true, "await": true, "void": true, "yield": true, "typeof": true, "new": true,
	"throw": true, "case": true, "in": true, "of": true, "instanceof": true, "delete": true,
	"extends": true, "async": true, "export": true, "default": true, "const": true, "let": true,
	"var": true, "as": true, "satisfies": true,
}

// StatementStart reports whether token i begins a statement: it is the
// first token, or follows ";", else, do, the "{" of a block, or a line
// break after a complete expression (automatic semicolon insertion).
func (js *JSFile) StatementStart(i int) bool {
	if i <= 0 {
		return i == 0
	}
	prev := i - 1
	switch js.Text(prev) {
	case ";", "else", "do":
		return true
	case "{":
		return js.BlockBrace(prev)
	}
	if !js.Toks[i].NL {
		return false
	}
	switch js.Kind(prev) {
	case TokIdent:
		return !jsContinues[js.Text(prev)]
	case TokNumber, TokString, TokTemplate, TokRegexp:
		return true
	}
	switch js.Text(prev) {
	case ")", "]", "}", "++", "--":
		return true
	}
	return false
}

// BlockBrace reports whether the "{" at token i opens a block (a function
// body, a control statement's body, a bare block) rather than an object
// literal, a pattern or a JSX expression container.
func (js *JSFile) BlockBrace(i int) bool {
	if i == 0 {
		return true
	}
	switch js.Text(i - 1) {
	case ")", "=>", "else", "try", "finally", "do", "{", ";":
		return true
	case "}":
		return js.Toks[i].NL
	}
	return js.returnType(i)
}

// returnType reports whether the tokens before the "{" at token i are a
// TypeScript return type annotation, "): T", making the brace a function
// body. Only the tokens a type is made of are crossed.
func (js *JSFile) returnType(i int) bool {
	depth := 0
	for j := i - 1; j > 0 && i-j < 64; j-- {
		switch t := js.Text(j); {
		case t == ">" || t == "]":
			depth++
		case t == "<" || t == "[":
			depth--
		case t == ":" && depth == 0:
			return js.Is(j-1, ")")
		case js.Kind(j) == TokIdent || js.Kind(j) == TokString || js.Kind(j) == TokNumber ||
			t == "." || t == "|" || t == "&" || t == "," || t == "?":
		default:
			return false
		}
		if depth < 0 {
			return false
		}
	}
	return false
}

// EndsStatement reports whether token j, which follows a complete
// expression, ends the statement: it is ";", "}", the end of the file, or
// a token on a new line that cannot continue the expression.
func (js *JSFile) EndsStatement(j int) bool {
	if j >= len(js.Toks) {
		return true
	}
	switch js.Text(j) {
	case ";", "}":
		return true
	}
	if !js.Toks[j].NL {
		return false
	}
	switch js.Kind(j) {
	case TokIdent:
		return !jsContinues[js.Text(j)] || js.Is(j, "const") || js.Is(j, "let") || js.Is(j, "var") || js.Is(j, "return") || js.Is(j, "await")
	case TokNumber, TokString, TokRegexp:
		return true
	}
	switch js.Text(j) {
	case "++", "--", "{", "!", "~":
		return true
	}
	return false
}

// Chain returns the end (exclusive) of the member chain that starts at
// token i: an identifier or this, then ".name" or "?.name" steps. It
// returns i when token i is not an identifier.
func (js *JSFile) Chain(i int) int {
	if js.Kind(i) != TokIdent {
		return i
	}
	j := i + 1
	for (js.Is(j, ".") || js.Is(j, "?.")) && js.Kind(j+1) == TokIdent {
		j += 2
	}
	return j
}

// ChainBack returns the first token of the member chain that ends at token
// i (inclusive), or i+1 when token i is not an identifier.
func (js *JSFile) ChainBack(i int) int {
	if js.Kind(i) != TokIdent {
		return i + 1
	}
	k := i
	for (js.Is(k-1, ".") || js.Is(k-1, "?.")) && js.Kind(k-2) == TokIdent {
		k -= 2
	}
	return k
}

// Span returns the source text of tokens [lo, hi).
func (js *JSFile) Span(lo, hi int) string {
	if lo >= hi || lo < 0 || hi > len(js.Toks) {
		return ""
	}
	return js.Src[js.Toks[lo].Off:js.Toks[hi-1].End]
}
