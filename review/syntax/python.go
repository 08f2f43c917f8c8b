package syntax

import (
	"regexp"
	"sort"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// PyFile is the layout of a Python file: its code with strings and
// comments masked, its logical lines, string literals and functions. It is
// not modified after scanning, so rules may read it concurrently.
type PyFile struct {
	Src string
	// Code is Src with the contents of string literals and comments
	// replaced by spaces. Quotes, string prefixes and line breaks stay, so
	// offsets and columns are those of Src and brackets inside strings
	// never count.
	Code string
	// Lines holds one entry per line: Lines[n-1] describes line n.
	Lines []PyLine
	// Strings lists the string literals in source order.
	Strings []PyString
	// Funcs lists the def statements in source order.
	Funcs []PyFunc
	// Main lists the line ranges of `if __name__ == "__main__":` blocks.
	Main [][2]int

	lineStart []int
}

// PyLine describes one physical line of a Python file.
type PyLine struct {
	// Indent is the width of the leading whitespace (tabs to multiples of
	// eight).
	Indent int
	// Logical reports that a logical line (a statement) starts here: the
	// line holds code and does not continue a bracket, a backslash or a
	// string from the lines above.
	Logical bool
	// Blank reports a line with no code: empty or only a comment, and not
	// inside a bracket or a string.
	Blank bool
}

// PyString is one string literal.
type PyString struct {
	// Off and End delimit the literal, prefix and quotes included.
	Off, End int
	// F reports an f-string with at least one {} replacement field.
	F bool
}

// PyFunc is one def statement.
type PyFunc struct {
	Name  string
	Async bool
	// Line is the line of the def keyword, Indent its indentation.
	Line, Indent int
	// Open and Close are the offsets of the parameter list's parentheses;
	// Colon is the offset of the colon that ends the signature.
	Open, Close, Colon int
	// Body is the line of the first body statement (Line's own line for a
	// one-line def); End is the last line of the body.
	Body, End int
}

var pyOf review.Memo[*PyFile]

// LineStart returns the offset of the start of line n+1 (0-based n).
func (py *PyFile) LineStart(n int) int { return py.lineStart[n] }

// Python returns the layout of a Python file, memoised on f.
func Python(f *review.File) *PyFile {
	return pyOf.Of(f, func() *PyFile { return parsePython(string(f.Content), TokensOf(f)) })
}

// LineOf returns the 1-based line of byte offset off.
func (py *PyFile) LineOf(off int) int {
	return sort.Search(len(py.lineStart), func(i int) bool { return py.lineStart[i] > off })
}

// Offset returns the byte offset of the start of line n (1-based).
func (py *PyFile) Offset(n int) int {
	if n < 1 {
		return 0
	}
	if n > len(py.lineStart) {
		return len(py.Src)
	}
	return py.lineStart[n-1]
}

// CodeLine returns the masked code of line n without its terminator.
func (py *PyFile) CodeLine(n int) string {
	if n < 1 || n > len(py.lineStart) {
		return ""
	}
	s := py.Code[py.Offset(n):py.Offset(n+1)]
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// Match returns the offset of the bracket that closes the one at offset
// open, or -1.
func (py *PyFile) Match(open int) int {
	depth := 0
	for i := open; i < len(py.Code); i++ {
		switch py.Code[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// PyArg is one argument of a call or one parameter of a def.
type PyArg struct {
	// Off and End delimit the argument, surrounding space trimmed.
	Off, End int
	// Name is the keyword of a keyword argument ("shell" in shell=True),
	// and Value the offset of its value; for positional arguments Name is
	// "" and Value is Off.
	Name  string
	Value int
}

// Args splits the bracketed list opened at offset open on its top-level
// commas.
func (py *PyFile) Args(open int) []PyArg {
	end := py.Match(open)
	if end < 0 {
		return nil
	}
	var out []PyArg
	depth := 0
	from := open + 1
	add := func(to int) {
		off, e := from, to
		for off < e && isPySpace(py.Code[off]) {
			off++
		}
		for e > off && isPySpace(py.Code[e-1]) {
			e--
		}
		if off == e {
			return
		}
		a := PyArg{Off: off, End: e, Value: off}
		if m := keywordArg(py.Code[off:e]); m != nil && (off+m[1] >= e || py.Code[off+m[1]] != '=') {
			a.Name = py.Code[off+m[2] : off+m[3]]
			a.Value = off + m[1]
			for a.Value < e && isPySpace(py.Code[a.Value]) {
				a.Value++
			}
		}
		out = append(out, a)
	}
	for i := open + 1; i < end; i++ {
		switch py.Code[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				add(i)
				from = i + 1
			}
		}
	}
	add(end)
	return out
}

var pyKeywordArg = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*=`)

// keywordArg matches pyKeywordArg on arg, skipping the regexp when arg
// has no "=".
func keywordArg(arg string) []int {
	if strings.IndexByte(arg, '=') < 0 {
		return nil
	}
	return pyKeywordArg.FindStringSubmatchIndex(arg)
}

func isPySpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\' }

// Literal reports whether Src[off:end] is made of string literals only
// (implicitly concatenated, joined by "+", or parenthesised), none of them
// an f-string with a replacement field.
func (py *PyFile) Literal(off, end int) bool {
	i := off
	seen := false
	for i < end {
		c := py.Code[i]
		switch {
		case isPySpace(c) || c == '+' || c == '(' || c == ')':
			i++
		default:
			k := sort.Search(len(py.Strings), func(k int) bool { return py.Strings[k].Off >= i })
			if k == len(py.Strings) || py.Strings[k].Off != i || py.Strings[k].F {
				return false
			}
			i = py.Strings[k].End
			seen = true
		}
	}
	return seen
}

// FuncAt returns the innermost def whose signature or body holds line n,
// or nil.
func (py *PyFile) FuncAt(n int) *PyFunc {
	var best *PyFunc
	for i := range py.Funcs {
		fn := &py.Funcs[i]
		if fn.Line <= n && n <= fn.End && (best == nil || fn.Line >= best.Line) {
			best = fn
		}
	}
	return best
}

// BlockEnd returns the last non-blank line of the block opened by the
// logical line n (a line ending in ":"), or n when the block is empty or
// inline.
func (py *PyFile) BlockEnd(n int) int {
	if n < 1 || n > len(py.Lines) {
		return n
	}
	indent := py.Lines[n-1].Indent
	end := n
	for k := n + 1; k <= len(py.Lines); k++ {
		l := py.Lines[k-1]
		if l.Blank {
			continue
		}
		if l.Logical && l.Indent <= indent {
			break
		}
		end = k
	}
	return end
}

// Statements returns the logical lines directly inside the block opened by
// the logical line n, in order.
func (py *PyFile) Statements(n int) []int {
	end := py.BlockEnd(n)
	var out []int
	inner := -1
	for k := n + 1; k <= end; k++ {
		l := py.Lines[k-1]
		if !l.Logical {
			continue
		}
		if inner < 0 {
			inner = l.Indent
		}
		if l.Indent == inner {
			out = append(out, k)
		}
	}
	return out
}

var (
	pyDefRE  = regexp.MustCompile(`^(async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
	pyMainRE = regexp.MustCompile(`^if\s+(?:__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)\s*:`)
)

// ParsePython returns the layout of Python source src, which need not be
// a file's content (a base version).
func ParsePython(src string) *PyFile { return parsePython(src, Lex([]byte(src), pySyntax)) }

var pySyntax = review.LangPython.Info().Tokens

// parsePython lays out src from its tokens tk: the comments and string
// bodies are masked, and a line continues the one before when it starts
// inside a bracket, a string or after a backslash.
func parsePython(src string, tk *Tokens) *PyFile {
	py := &PyFile{Src: src}
	code := []byte(src)
	py.lineStart = append(py.lineStart, 0)
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' && i+1 < len(src) {
			py.lineStart = append(py.lineStart, i+1)
		}
	}
	if len(src) == 0 {
		py.lineStart = nil
	}
	// cont[n] reports that line n+1 starts inside a bracket, a string or
	// after a backslash.
	cont := make([]bool, len(py.lineStart)+1)
	line := 0 // 0-based index of the current line
	depth := 0
	mask := func(from, to int) {
		for k := from; k < to && k < len(code); k++ {
			if code[k] != '\n' {
				code[k] = ' '
			}
		}
	}
	// breaks counts the line breaks in src[from:to]: the lines after them
	// continue when inside a bracket, and the first also when first is
	// set (after a backslash); every one does inside a string.
	breaks := func(from, to int, first, str bool) {
		for k := from; k < to; k++ {
			if src[k] != '\n' {
				continue
			}
			if line++; line < len(cont) {
				cont[line] = first || str || depth > 0
			}
			first = false
		}
	}
	if strings.HasPrefix(src, "#!") {
		mask(0, strings.IndexByte(src+"\n", '\n'))
	}
	for _, c := range tk.Comments {
		mask(int(c.Off), int(c.End))
	}
	prev := 0
	backslash := false
	for _, t := range tk.Toks {
		off, end := int(t.Off), int(t.End)
		breaks(prev, off, backslash, false)
		backslash = false
		prev = end
		switch {
		case t.Kind == TokPunct && end-off == 1:
			switch src[off] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			case '\\':
				backslash = strings.HasPrefix(src[end:], "\n") || strings.HasPrefix(src[end:], "\r\n")
			}
		case t.Kind == TokString:
			text := src[off:end]
			p := strings.IndexAny(text, `"'`)
			q := text[p]
			delim := 1
			if len(text) >= p+3 && text[p+1] == q && text[p+2] == q {
				delim = 3
			}
			body, bodyEnd := off+p+delim, end
			if t.Flags&TokOpen == 0 {
				bodyEnd = end - delim
			}
			f := strings.ContainsAny(text[:p], "fF") && pyHasField(src[body:bodyEnd])
			py.Strings = append(py.Strings, PyString{Off: off, End: end, F: f})
			mask(body, bodyEnd)
			breaks(body, bodyEnd, false, true)
		}
	}
	breaks(prev, len(src), backslash, false)
	n := len(src)
	py.Code = string(code)
	py.Lines = make([]PyLine, len(py.lineStart))
	for k := range py.Lines {
		text := py.CodeLine(k + 1)
		trimmed := strings.TrimLeft(text, " \t\f")
		blank := strings.TrimSpace(trimmed) == ""
		py.Lines[k] = PyLine{
			Indent:  IndentWidth(text),
			Logical: !cont[k] && !blank,
			Blank:   !cont[k] && blank,
		}
	}
	for k, l := range py.Lines {
		if !l.Logical {
			continue
		}
		text := strings.TrimLeft(py.CodeLine(k+1), " \t")
		if l.Indent == 0 && strings.HasPrefix(text, "if") {
			orig := strings.TrimLeft(py.srcLine(k+1), " \t")
			if pyMainRE.MatchString(orig) {
				py.Main = append(py.Main, [2]int{k + 1, py.BlockEnd(k + 1)})
			}
		}
		if !strings.HasPrefix(text, "def") && !strings.HasPrefix(text, "async") {
			continue // what pyDefRE needs, checked without the regexp
		}
		m := pyDefRE.FindStringSubmatchIndex(text)
		if m == nil {
			continue
		}
		lineOff := py.Offset(k+1) + len(py.CodeLine(k+1)) - len(text)
		fn := PyFunc{Name: text[m[4]:m[5]], Async: m[2] >= 0, Line: k + 1, Indent: l.Indent, Open: lineOff + m[1] - 1}
		fn.Close = py.Match(fn.Open)
		if fn.Close < 0 {
			continue
		}
		fn.Colon = -1
		d := 0
		for p := fn.Close + 1; p < n; p++ {
			ch := py.Code[p]
			if ch == '(' || ch == '[' || ch == '{' {
				d++
			} else if ch == ')' || ch == ']' || ch == '}' {
				d--
			} else if ch == ':' && d == 0 {
				fn.Colon = p
				break
			}
		}
		if fn.Colon < 0 {
			continue
		}
		colonLine := py.LineOf(fn.Colon)
		if rest := py.Code[fn.Colon+1 : py.Offset(colonLine+1)]; strings.TrimSpace(rest) != "" {
			fn.Body, fn.End = colonLine, colonLine
		} else {
			fn.End = colonLine
			for q := colonLine + 1; q <= len(py.Lines); q++ {
				ql := py.Lines[q-1]
				if ql.Blank {
					continue
				}
				if ql.Logical && ql.Indent <= fn.Indent {
					break
				}
				if fn.Body == 0 && ql.Logical {
					fn.Body = q
				}
				fn.End = q
			}
			if fn.Body == 0 {
				fn.Body = colonLine
			}
		}
		py.Funcs = append(py.Funcs, fn)
	}
	return py
}

func (py *PyFile) srcLine(n int) string {
	s := py.Src[py.Offset(n):py.Offset(n+1)]
	return strings.TrimRight(s, "\r\n")
}

// pyHasField reports whether an f-string body holds a replacement field
// ("{x}", not the escaped "{{").
func pyHasField(body string) bool {
	for i := 0; i < len(body); i++ {
		if body[i] == '{' {
			if i+1 < len(body) && body[i+1] == '{' {
				i++
				continue
			}
			return true
		}
	}
	return false
}

// PyIdentStart reports a byte that may start a Python identifier (ASCII).
func PyIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// PyIdentByte reports a byte of a Python identifier (ASCII).
func PyIdentByte(c byte) bool { return PyIdentStart(c) || c >= '0' && c <= '9' }

// IndentWidth returns the width of the leading whitespace of s, with tab
// stops every 8 columns as in Python's tokenizer.
func IndentWidth(s string) int {
	w := 0
	for _, c := range []byte(s) {
		switch c {
		case ' ':
			w++
		case '\t':
			w += 8 - w%8
		default:
			return w
		}
	}
	return w
}
