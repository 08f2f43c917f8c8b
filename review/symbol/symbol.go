package symbol

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// Kind is the kind of a symbol.
type Kind string

// Symbol kinds. Not every language uses every kind: Go has no classes,
// Python no interfaces.
const (
	KindFunction  Kind = "function"
	KindMethod    Kind = "method"
	KindType      Kind = "type"
	KindStruct    Kind = "struct"
	KindInterface Kind = "interface"
	KindClass     Kind = "class"
	KindEnum      Kind = "enum"
	KindTrait     Kind = "trait"
	KindConst     Kind = "const"
	KindVar       Kind = "var"
	KindField     Kind = "field"
	KindModule    Kind = "module"
)

func (k Kind) String() string { return string(k) }

// typeLike reports whether symbols of kind k can have methods and fields.
func (k Kind) typeLike() bool {
	switch k {
	case KindType, KindStruct, KindInterface, KindClass, KindEnum, KindTrait:
		return true
	}
	return false
}

// Symbol is one declaration of a file.
type Symbol struct {
	// Name is the declared name ("Run"); an anonymous default export of
	// JavaScript is named "default".
	Name string
	// Container is the receiver type, or the enclosing class, struct,
	// interface, trait, impl target, namespace or module ("Store"); it is
	// "" at top level.
	Container string
	Kind      Kind
	// Signature is the declaration on one line, as written, without body,
	// comments, decorators or annotations. A long multi-line value is cut
	// after its first line: "var langs = map[string]string{…}".
	Signature string
	// Doc is the doc comment, docstring, JSDoc, Javadoc or /// text,
	// delimiters removed and trimmed; "" if none.
	Doc string
	// Path is the repo-relative path of the file.
	Path string
	// Line and EndLine are the 1-based lines of the whole declaration,
	// body included. Line is the line of the declaration itself, not of
	// its doc comment or decorators.
	Line, EndLine int
	// NameCol is the 1-based byte column of the name on Line (or on the
	// line of the name token when the declaration starts a line above it).
	NameCol int
	// Exported reports visibility outside the file's package or module: a
	// capitalised name in Go, no leading underscore in Python (dunder
	// methods count as exported), an exported declaration in JavaScript
	// and TypeScript (members of an exported class unless private or
	// protected), public in Java (members of interfaces included), pub in
	// Rust (methods of trait impls included).
	Exported bool
	// Fields lists the fields of a struct, class, interface or record as
	// declared, names with types where known ("ID int", "name: string",
	// "Map<String, Item> items"), and the variants of an enum.
	Fields []string
	// Methods lists, for a type-like symbol, the names of the methods
	// declared for it in the same file, in order.
	Methods []string
	// Hash fingerprints the text of the declaration (lines Line to EndLine,
	// trailing space and the first line's indentation removed), so that
	// [Diff] can tell moved code from changed code. It is 0 when unknown.
	Hash uint64
}

// QualifiedName returns "Container.Name", or Name at top level.
func (s Symbol) QualifiedName() string {
	if s.Container == "" {
		return s.Name
	}
	return s.Container + "." + s.Name
}

// Public reports whether s is part of its package's or module's public
// surface, and when not although it is [Symbol.Exported], why: a member of
// a Go type that is not exported, or of a Python class or module whose
// name is private (a leading underscore: `_Cache.get`, `_telemetry.report`,
// anything under `_internal/`). Other languages fold their containers into
// Exported already.
func (s Symbol) Public() (public bool, why string) {
	if !s.Exported {
		return false, ""
	}
	switch review.DetectLanguage(s.Path, nil).Family() {
	case review.LangGo:
		if s.Container != "" && !isUpper(s.Container) {
			return false, "it belongs to the unexported type " + s.Container
		}
	case review.LangPython:
		if s.Container != "" && !pyExported(s.Container) {
			return false, "it belongs to the private class " + s.Container
		}
		elems := strings.Split(strings.TrimSuffix(strings.TrimSuffix(s.Path, ".py"), ".pyi"), "/")
		for i, e := range elems {
			if !pyExported(e) {
				kind := "package"
				if i == len(elems)-1 {
					kind = "module"
				}
				return false, fmt.Sprintf("its %s %s is private (a leading underscore)", kind, e)
			}
		}
	}
	return true, ""
}

// isUpper reports a name that starts with an upper-case letter: an
// exported Go identifier.
func isUpper(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// Extract returns the symbols of a file: top-level declarations, methods,
// and fields of types and classes, sorted by Line (then NameCol). lang is
// a [review.DetectLanguage] id; Go, Python, JavaScript, TypeScript (JSX
// and TSX included), Java and Rust are understood, and any other language
// yields nil. Go is parsed with go/parser; the other languages are
// tokenized (strings and comments skipped) and read by their braces,
// keywords and indentation, which is dependable on real code but not a
// full parse. Malformed input yields partial results, never a panic.
func Extract(path string, content []byte, lang review.Language) (syms []Symbol) {
	defer func() {
		// The extractors are fuzzed; this is a last resort, so that a bug
		// on some odd input costs the symbols of one file, not the server.
		if recover() != nil {
			syms = nil
		}
	}()
	return extract(path, content, lang, nil)
}

// extract reads the symbols of content; tk, when not nil, are its tokens.
func extract(path string, content []byte, lang review.Language, tk *syntax.Tokens) []Symbol {
	var out []Symbol
	var starts []int32
	switch lang {
	case review.LangGo:
		out, starts = extractGo(content)
	case review.LangPython, review.LangJavaScript, review.LangJSX, review.LangTypeScript, review.LangTSX,
		review.LangJava, review.LangRust:
		var lx *lexed
		lx, out = extractScript(content, lang, tk)
		starts = lx.LineStart
	default:
		return nil
	}
	finish(out, path, content, starts)
	return out
}

// extractScript reads the symbols of a file of a language other than Go
// from its tokens, lexing content when tk is nil.
func extractScript(content []byte, lang review.Language, tk *syntax.Tokens) (*lexed, []Symbol) {
	if tk == nil {
		tk = syntax.Lex(content, lang.Info().Tokens)
	}
	lx := &lexed{tk}
	switch lang {
	case review.LangPython:
		return lx, extractPython(lx)
	case review.LangJavaScript, review.LangJSX, review.LangTypeScript, review.LangTSX:
		return lx, extractJS(lx)
	case review.LangJava:
		return lx, extractJava(lx)
	case review.LangRust:
		return lx, extractRust(lx)
	}
	return nil, nil
}

// lexed is a file's tokens with the extractors' helpers.
type lexed struct{ *syntax.Tokens }

func lex(src []byte, ts review.TokenSyntax) *lexed { return &lexed{syntax.Lex(src, ts)} }

// scanHeader walks the tokens [i, hi) of a declaration's header, counting
// type-argument angles and stepping over bracketed groups, and returns the
// first index at which stop(j, angle) holds (before its group is stepped
// over), or hi.
func (p *lexed) scanHeader(i, hi int, stop func(j, angle int) bool) int {
	angle := 0
	for ; i < hi; i++ {
		switch p.Text(i) {
		case "<":
			angle++
		case ">":
			angle = max(angle-1, 0)
		}
		if stop(i, angle) {
			return i
		}
		if m := p.Match(i); m > i && syntax.IsOpener(p.Text(i)) {
			i = m
		}
	}
	return hi
}

// finish sorts the symbols and fills in Path, Hash and the Methods of
// type-like symbols; starts are the line starts of content.
func finish(syms []Symbol, path string, content []byte, starts []int32) {
	sortSymbols(syms)
	// Symbols that span the same lines share a hash: a minified file puts
	// thousands on one long line, which is hashed once, not per symbol.
	hashes := map[[2]int]uint64{}
	for i := range syms {
		s := &syms[i]
		s.Path = path
		s.EndLine = max(s.EndLine, s.Line)
		span := [2]int{s.Line, s.EndLine}
		if s.Hash = hashes[span]; s.Hash == 0 {
			s.Hash = hashLines(content, starts, s.Line, s.EndLine)
			hashes[span] = s.Hash
		}
	}
	fillMethods(syms)
}

// sortSymbols orders symbols by Line, then NameCol.
func sortSymbols(syms []Symbol) {
	sort.SliceStable(syms, func(i, j int) bool {
		if syms[i].Line != syms[j].Line {
			return syms[i].Line < syms[j].Line
		}
		return syms[i].NameCol < syms[j].NameCol
	})
}

// fillMethods lists the methods of sorted syms on their type-like
// symbols (the first one of each name).
func fillMethods(syms []Symbol) {
	types := map[string]int{}
	for i := range syms {
		if _, dup := types[syms[i].Name]; syms[i].Kind.typeLike() && !dup {
			types[syms[i].Name] = i
		}
	}
	for i := range syms {
		s := &syms[i]
		if s.Kind != KindMethod || s.Container == "" {
			continue
		}
		if t, ok := types[s.Container]; ok && !contains(syms[t].Methods, s.Name) {
			syms[t].Methods = append(syms[t].Methods, s.Name)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hashLines returns the FNV-1a hash of lines from..to of content, each
// without trailing white space and without the indentation of line from.
// Every identifier spelled as one of masked hashes as one placeholder
// byte, so that a declaration hashes the same under another name.
func hashLines(content []byte, starts []int32, from, to int, masked ...string) uint64 {
	if from < 1 || from > len(starts) {
		return 0
	}
	const offset64, prime64 = 14695981039346656037, 1099511628211
	h := uint64(offset64)
	indent := []byte(nil)
	for n := from; n <= to && n <= len(starts); n++ {
		l := lineText(content, starts, n)
		if n == from {
			indent = l[:len(l)-len(bytes.TrimLeft(l, " \t"))]
		}
		l = bytes.TrimPrefix(bytes.TrimRight(l, " \t\r"), indent)
		if len(masked) == 0 {
			for _, c := range l {
				h = (h ^ uint64(c)) * prime64
			}
		} else {
			for i := 0; i < len(l); {
				j := identEnd(l, i)
				switch {
				case j == i:
					h = (h ^ uint64(l[i])) * prime64
					j++
				case slices.Contains(masked, string(l[i:j])):
					h *= prime64 // the placeholder, a zero byte
				default:
					for _, c := range l[i:j] {
						h = (h ^ uint64(c)) * prime64
					}
				}
				i = j
			}
		}
		h = (h ^ '\n') * prime64
	}
	return h | 1 // never 0, which means unknown
}

// identEnd returns the end of the identifier that starts at l[i], or i
// when none starts there (inside a longer word, or not a letter).
func identEnd(l []byte, i int) int {
	if !identByte(l[i]) || l[i] >= '0' && l[i] <= '9' || i > 0 && identByte(l[i-1]) {
		return i
	}
	j := i
	for j < len(l) && identByte(l[j]) {
		j++
	}
	return j
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// lineText returns line n (1-based) of content without its line break.
func lineText(content []byte, starts []int32, n int) []byte {
	if n < 1 || n > len(starts) {
		return nil
	}
	end := len(content)
	if n < len(starts) {
		end = int(starts[n]) - 1
	}
	return content[starts[n-1]:end]
}

// Enclosing returns the innermost symbol of syms whose range holds line,
// or nil. Of two symbols with the same range, the later one (a member on
// its container's line) wins. The result points into syms.
func Enclosing(syms []Symbol, line int) *Symbol {
	var best *Symbol
	for i := range syms {
		s := &syms[i]
		if s.Line > line || max(s.EndLine, s.Line) < line {
			continue
		}
		if best == nil || s.EndLine-s.Line <= best.EndLine-best.Line {
			best = s
		}
	}
	return best
}

// Find returns the symbols whose Name or QualifiedName is name, in order.
func Find(syms []Symbol, name string) []Symbol {
	var out []Symbol
	for _, s := range syms {
		if s.Name == name || s.Container != "" && s.QualifiedName() == name {
			out = append(out, s)
		}
	}
	return out
}

// IdentAt returns the identifier under the 1-based line and byte column of
// content, or "" when the byte there is not part of one. The column may
// point anywhere inside the identifier, even inside a multi-byte rune;
// letters, digits, "_" and "$" make identifiers, and a word that starts
// with a digit is a number, not an identifier.
func IdentAt(content []byte, line, col int) string {
	if line < 1 || col < 1 {
		return ""
	}
	start := 0
	for n := 1; n < line; n++ {
		k := bytes.IndexByte(content[start:], '\n')
		if k < 0 {
			return ""
		}
		start += k + 1
	}
	l := content[start:]
	if k := bytes.IndexByte(l, '\n'); k >= 0 {
		l = l[:k]
	}
	i := col - 1
	if i >= len(l) {
		return ""
	}
	for i > 0 && !utf8.RuneStart(l[i]) {
		i--
	}
	if r, _ := utf8.DecodeRune(l[i:]); !identRune(r) {
		return ""
	}
	lo := i
	for lo > 0 {
		r, w := utf8.DecodeLastRune(l[:lo])
		if !identRune(r) {
			break
		}
		lo -= w
	}
	hi := i
	for hi < len(l) {
		r, w := utf8.DecodeRune(l[hi:])
		if !identRune(r) {
			break
		}
		hi += w
	}
	if r, _ := utf8.DecodeRune(l[lo:]); unicode.IsDigit(r) {
		return ""
	}
	if inString(l[:lo]) {
		return "" // a word of a string literal (a secret, say) names nothing
	}
	return string(l[lo:hi])
}

// inString reports whether a line that starts with prefix is inside a
// string literal at its end: an unclosed ", ` or ' quote, with backslash
// escapes. A Rust lifetime ('a after &, < or +, and 'static) is not a
// quote. Strings that span lines are not seen.
func inString(prefix []byte) bool {
	var quote byte
	for i := 0; i < len(prefix); i++ {
		c := prefix[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '`':
			quote = c
		case c == '\'' && !lifetime(prefix, i):
			quote = c
		}
	}
	return quote != 0
}

// lifetime reports whether the ' at i starts a Rust lifetime rather than
// a character or string literal.
func lifetime(l []byte, i int) bool {
	j := i + 1
	for j < len(l) && (l[j] == '_' || l[j] >= 'a' && l[j] <= 'z' || l[j] >= 'A' && l[j] <= 'Z' || l[j] >= '0' && l[j] <= '9') {
		j++
	}
	if j == i+1 || j < len(l) && l[j] == '\'' {
		return false // '' or 'x': a character literal
	}
	p := bytes.TrimRight(l[:i], " ")
	if len(p) == 0 {
		return false
	}
	switch p[len(p)-1] {
	case '&', '<', '+':
		return true
	case ':':
		return string(l[i+1:j]) == "static" // "T: 'static"
	}
	return false
}

func identRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// camel reports whether name looks like a type name: an upper-case first
// letter and at least one lower-case letter ("Store", "HTTPClient", not
// "MAX" or "T").
func camel(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	if !unicode.IsUpper(r) {
		return false
	}
	return strings.IndexFunc(name, unicode.IsLower) >= 0
}
