package symbol

import (
	"go/ast"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// Calls returns the names that the declaration of s (signature and body)
// calls, deduplicated, in order of first use. For Go they are the callees
// of its call expressions as written: "f", "pkg.F", "x.Method",
// "s.db.Query" (a conversion such as Kind(x) looks like a call and is
// listed too). For the other languages they are the identifiers followed
// by "(", with the member chain before them ("this.store.get",
// "self.load", "Foo::new") and constructors after new; declarations of
// nested functions and methods are not calls. Keywords and the common
// builtins (len, print, require, Some, ...) are left out. Calls parses or
// tokenizes content on every call; it returns nil for a language that
// [Extract] does not understand.
func Calls(content []byte, lang review.Language, s Symbol) (names []string) {
	defer func() {
		if recover() != nil { // as in Extract: a last resort
			names = nil
		}
	}()
	return calls(content, lang, s)
}

func calls(content []byte, lang review.Language, s Symbol) []string {
	return usedNames(content, lang, s, goCalls, (*uses).calls)
}

// TypesUsed returns the names of the types mentioned in the declaration of
// s, deduplicated, in order of first use. For Go it reads the type
// expressions of the syntax tree (parameters, results, fields, variables,
// composite literals, conversions to composite types, type assertions and
// type arguments), qualified names included ("time.Duration"); predeclared
// types and the declaration's own type parameters are left out. For the
// other languages it is a best effort over tokens, keeping only
// CamelCase names (a capital and a lower-case letter, so neither "MAX" nor
// "T"): in TypeScript the types after ":", as, satisfies, extends,
// implements, new and instanceof and in type arguments; in JavaScript
// those after new, extends and instanceof; in Python, Java and Rust every
// CamelCase name, since those languages reserve the style for types
// (Rust paths are kept up to their first CamelCase segment, so
// "io::Error" and "Kind" for Kind::Function).
func TypesUsed(content []byte, lang review.Language, s Symbol) (names []string) {
	defer func() {
		if recover() != nil { // as in Extract: a last resort
			names = nil
		}
	}()
	return typesUsed(content, lang, s)
}

func typesUsed(content []byte, lang review.Language, s Symbol) []string {
	return usedNames(content, lang, s, goTypes, (*uses).types)
}

// usedNames returns the names the declaration of s uses, read by goNames
// from its syntax tree in Go and by scriptNames from its tokens in the
// other languages.
func usedNames(content []byte, lang review.Language, s Symbol, goNames func(ast.Node) []string, scriptNames func(*uses) []string) []string {
	if lang == review.LangGo {
		g := parseGo(content, true)
		if g == nil {
			return nil
		}
		if n := g.goNode(s); n != nil {
			return goNames(n)
		}
		return nil
	}
	u := newUses(content, lang, s)
	if u == nil {
		return nil
	}
	return scriptNames(u)
}

// uses scans the tokens of one declaration of a script language.
type uses struct {
	*lexed
	lang   review.Language
	lo, hi int // the declaration's tokens
	// decl holds the offsets of the name tokens of every declaration in
	// the file: a method's own name is not a call.
	decl map[int32]bool
}

func newUses(content []byte, lang review.Language, s Symbol) *uses {
	lx, syms := extractScript(content, lang, nil)
	if lx == nil {
		return nil
	}
	u := &uses{lexed: lx, lang: lang, decl: map[int32]bool{}}
	for _, d := range syms {
		if d.Line >= 1 && d.Line <= len(lx.LineStart) {
			u.decl[lx.LineStart[d.Line-1]+int32(d.NameCol-1)] = true
		}
	}
	u.lo = len(lx.Toks)
	for i, t := range lx.Toks {
		if int(t.Line) >= s.Line && i < u.lo {
			u.lo = i
		}
		if int(t.Line) <= max(s.EndLine, s.Line) {
			u.hi = i + 1
		}
	}
	return u
}

// callKeywords are words that a "(" may follow without making a call, per
// language family.
var callKeywords = map[review.Language]map[string]bool{
	review.LangJavaScript: set("if", "for", "while", "switch", "catch", "with", "function", "return", "typeof",
		"await", "yield", "void", "super", "import", "else", "do", "in", "of", "case", "throw",
		"delete", "instanceof", "require", "parseInt", "parseFloat", "isNaN", "String", "Number",
		"Boolean", "Symbol", "constructor", "async", "as", "satisfies"),
	review.LangPython: set("if", "elif", "while", "for", "in", "not", "and", "or", "return", "yield",
		"await", "lambda", "assert", "del", "is", "with", "as", "raise", "except", "print", "len",
		"range", "isinstance", "issubclass", "str", "int", "float", "bool", "dict", "list", "set",
		"tuple", "super", "enumerate", "zip", "sorted", "reversed", "getattr", "setattr", "hasattr",
		"delattr", "type", "min", "max", "sum", "any", "all", "map", "filter", "iter", "next", "repr",
		"abs", "round", "format", "id", "vars", "open", "hash", "callable", "frozenset", "bytes",
		"object", "property", "staticmethod", "classmethod"),
	review.LangJava: set("if", "for", "while", "switch", "catch", "synchronized", "return", "super",
		"this", "try", "throw", "assert", "case", "else", "do"),
	review.LangRust: set("if", "while", "match", "for", "loop", "return", "in", "as", "Some", "Ok",
		"Err", "move", "else", "let", "unsafe", "async", "await", "impl", "dyn", "where", "ref", "mut",
		"Fn", "FnMut", "FnOnce"),
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// family returns the key of a language in callKeywords.
func (u *uses) family() review.Language {
	return u.lang.Family()
}

func (u *uses) calls() []string {
	var out orderedSet
	kw := callKeywords[u.family()]
	for k := u.lo; k < u.hi; k++ {
		if !u.Ident(k) || u.decl[u.Toks[k].Off] || kw[u.Text(k)] {
			continue
		}
		j := k + 1
		switch {
		case u.lang == review.LangRust && u.Is(j, "::") && u.Is(j+1, "<"): // turbofish
			j = u.skipAngles(j+1, u.hi)
		case u.lang != review.LangPython && u.lang != review.LangRust && u.Is(j, "<"):
			j = u.skipAngles(j, u.hi)
		}
		if !u.Is(j, "(") {
			continue
		}
		switch u.Text(k - 1) {
		case "function", "def", "fn", "class", "interface", "struct", "enum", "trait", "macro_rules":
			continue // a nested declaration
		}
		// In JavaScript and Java, a name with a parameter list and a body
		// is a method or function being defined (an object literal's
		// method, a local class's), not a call.
		if m := u.Match(j); m > j && u.Is(m+1, "{") && u.lang != review.LangRust && u.lang != review.LangPython &&
			!u.Is(k-1, ".") && !u.Is(k-1, "new") {
			continue
		}
		out.add(u.chain(k))
	}
	return out.list
}

// chain renders the member chain that ends at identifier k: "a.b.c",
// "a?.b", "Foo::new".
func (u *uses) chain(k int) string {
	c := k
	for c-2 >= u.lo && (u.Is(c-1, ".") || u.Is(c-1, "?.") || u.Is(c-1, "::")) && u.Ident(c-2) {
		c -= 2
	}
	var sb strings.Builder
	for i := c; i <= k; i++ {
		sb.WriteString(u.Text(i))
	}
	return sb.String()
}

func (u *uses) types() []string {
	var out orderedSet
	switch u.family() {
	case review.LangJavaScript:
		ts := u.lang == review.LangTypeScript || u.lang == review.LangTSX
		for k := u.lo; k < u.hi; k++ {
			switch {
			case u.Is(k, "new"), u.Is(k, "extends"), u.Is(k, "instanceof"),
				ts && (u.Is(k, ":") || u.Is(k, "as") || u.Is(k, "satisfies") || u.Is(k, "implements")):
				u.tsType(k+1, &out, 0)
			case ts && u.Is(k, "<") && u.Ident(k-1) && !u.Toks[k].NL:
				u.tsType(k+1, &out, 0)
			case ts && u.Is(k, ",") && u.Is(k-2, "implements"):
				u.tsType(k+1, &out, 0)
			}
		}
	case review.LangPython:
		for k := u.lo; k < u.hi; k++ {
			if u.Ident(k) && camel(u.Text(k)) && !u.Is(k-1, ".") && !u.decl[u.Toks[k].Off] {
				switch u.Text(k) {
				case "True", "False", "None":
					continue
				}
				out.add(u.Text(k))
			}
		}
	case review.LangJava:
		for k := u.lo; k < u.hi; k++ {
			if !u.Ident(k) || !camel(u.Text(k)) || u.Is(k-1, ".") || u.decl[u.Toks[k].Off] {
				continue
			}
			if u.Is(k+1, "(") && !u.Is(k-1, "new") {
				continue // a constructor's own name, or a method named like a type
			}
			out.add(u.Text(k))
		}
	case review.LangRust:
		for k := u.lo; k < u.hi; k++ {
			if !u.Ident(k) || u.Is(k-1, "::") || u.Is(k-1, ".") || u.Is(k+1, "!") || u.decl[u.Toks[k].Off] {
				continue
			}
			var path []string
			for j := k; ; j += 2 {
				path = append(path, u.Text(j))
				if camel(u.Text(j)) || !u.Is(j+1, "::") || !u.Ident(j+2) {
					break
				}
			}
			last := path[len(path)-1]
			switch last {
			case "Self", "Some", "None", "Ok", "Err":
				continue
			}
			if camel(last) {
				out.add(strings.Join(path, "::"))
			}
		}
	}
	return out.list
}

// tsType reads the TypeScript type at i and adds the CamelCase names it
// mentions; bracketed parts are left to the caller's scan, which reaches
// their own annotations.
func (u *uses) tsType(i int, out *orderedSet, depth int) int {
	if depth > 8 {
		return i
	}
	for i < u.hi {
		for u.Is(i, "readonly") || u.Is(i, "keyof") || u.Is(i, "unique") || u.Is(i, "infer") || u.Is(i, "new") {
			i++
		}
		switch {
		case u.Is(i, "typeof"):
			i++
			for u.Ident(i) && (u.Is(i+1, ".") && u.Ident(i+2)) {
				i += 2
			}
			i++
		case u.Ident(i):
			j := i
			for u.Is(j+1, ".") && u.Ident(j+2) {
				j += 2
			}
			if camel(u.Text(j)) && !u.decl[u.Toks[i].Off] {
				out.add(u.Join(i, j+1))
			}
			i = j + 1
			if u.Is(i, "<") {
				i++
				for n := 0; n < 16 && i < u.hi; n++ {
					i = u.tsType(i, out, depth+1)
					if !u.Is(i, ",") {
						break
					}
					i++
				}
				if u.Is(i, ">") {
					i++
				}
			}
		case u.Kind(i).IsString() || u.Kind(i) == syntax.TokNumber:
			i++
		case syntax.IsOpener(u.Text(i)) && u.Match(i) > i:
			i = u.Match(i) + 1
		default:
			return i
		}
		for u.Is(i, "[") && u.Is(i+1, "]") {
			i += 2
		}
		if !u.Is(i, "|") && !u.Is(i, "&") {
			return i
		}
		i++
	}
	return i
}
