package syntax

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// DeclaredMark prefixes a token of [CodeTokens] that is a name the file
// declares: a consistent renaming of such names is a refactoring, not a
// change of behaviour.
const DeclaredMark = "\x00"

// CodeTokens returns the normalised token stream of src in language lang,
// the one [CodeChanged] compares: comments and semicolons dropped, every
// string literal replaced by `""`, type annotations left out, and in Go
// the names the file declares marked, so that renaming them one to one
// is no change. It returns nil for other languages.
func CodeTokens(lang review.Language, src []byte) []string {
	switch {
	case lang == review.LangGo:
		return goTokens(src)
	case lang == review.LangPython:
		return pyTokens(ParsePython(string(src)))
	case lang.IsJS():
		return jsTokens(TokenizeJS(lang, src), lang == review.LangTypeScript || lang == review.LangTSX)
	}
	return nil
}

// goTokens scans Go source with go/scanner, skipping the type expressions
// of declarations (type specs, parameter and result types, var and const
// types) that the parser finds, and marking the names the file declares
// (see [sameUpToRenaming]).
func goTokens(src []byte) []string {
	fset := token.NewFileSet()
	var skip [][2]int
	names := map[string]bool{}
	if f, _ := parser.ParseFile(fset, "", src, parser.SkipObjectResolution); f != nil {
		goDeclared(f, names)
		tf := fset.File(f.Package)
		add := func(n ast.Node) {
			if n != nil && tf != nil {
				skip = append(skip, [2]int{tf.Offset(n.Pos()), tf.Offset(n.End())})
			}
		}
		fields := func(l *ast.FieldList) {
			if l == nil {
				return
			}
			for _, fd := range l.List {
				add(fd.Type)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSpec:
				add(n)
				return false
			case *ast.FuncType:
				fields(n.TypeParams)
				fields(n.Params)
				fields(n.Results)
			case *ast.ValueSpec:
				if n.Type != nil {
					add(n.Type)
				}
			}
			return true
		})
	}
	var s scanner.Scanner
	file := token.NewFileSet().AddFile("", -1, len(src))
	s.Init(file, src, nil, 0)
	var out []string
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		off := file.Offset(pos)
		if tok == token.SEMICOLON || inRanges(skip, off) {
			continue
		}
		switch {
		case tok == token.STRING:
			out = append(out, `""`)
		case tok == token.IDENT && names[lit]:
			out = append(out, DeclaredMark+lit)
		case lit != "":
			out = append(out, lit)
		default:
			out = append(out, tok.String())
		}
	}
}

// goDeclared adds the names f declares: functions, types, constants,
// variables, parameters, results, fields, labels and := definitions.
func goDeclared(f *ast.File, names map[string]bool) {
	add := func(ids ...*ast.Ident) {
		for _, id := range ids {
			if id != nil && id.Name != "_" {
				names[id.Name] = true
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			add(n.Name)
		case *ast.TypeSpec:
			add(n.Name)
		case *ast.ValueSpec:
			add(n.Names...)
		case *ast.Field:
			add(n.Names...)
		case *ast.LabeledStmt:
			add(n.Label)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						add(id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						add(id)
					}
				}
			}
		}
		return true
	})
}

// inRanges reports whether off lies in one of the half-open ranges.
func inRanges(rs [][2]int, off int) bool {
	for _, r := range rs {
		if off >= r[0] && off < r[1] {
			return true
		}
	}
	return false
}

// pyNotAnnotated are keywords that a colon may follow at the start of a
// logical line without making an annotation.
var pyNotAnnotated = map[string]bool{"else": true, "try": true, "finally": true, "except": true, "lambda": true}

// pyTokens tokenizes the masked code of a Python file: identifiers,
// numbers and single punctuation characters, one `""` per string literal,
// and the indentation of each logical line (Python's blocks); a logical
// line that is only a string (a docstring) is left out. Parameter
// annotations and return annotations of defs, and the annotation of an
// annotated assignment (`x: int = 0`), are left out.
func pyTokens(py *PyFile) []string {
	code := py.Code
	var skip [][2]int
	for _, fn := range py.Funcs {
		if fn.Open <= 0 || fn.Close <= fn.Open || fn.Colon < fn.Close {
			continue
		}
		depth, from := 0, -1
		for i := fn.Open + 1; i < fn.Close; i++ {
			switch c := code[i]; {
			case c == '(' || c == '[' || c == '{':
				depth++
			case c == ')' || c == ']' || c == '}':
				depth--
			case depth == 0 && c == ':' && from < 0:
				from = i
			case depth == 0 && (c == ',' || c == '=') && from >= 0:
				skip = append(skip, [2]int{from, i})
				from = -1
			}
		}
		if from >= 0 {
			skip = append(skip, [2]int{from, fn.Close})
		}
		skip = append(skip, [2]int{fn.Close + 1, fn.Colon}) // "-> T"
	}
	strs := map[int]int{}
	for _, s := range py.Strings {
		strs[s.Off] = s.End
	}
	var out []string
	for n, l := range py.Lines {
		if !l.Logical {
			continue
		}
		start := py.LineStart(n)
		end := len(code)
		for m := n + 1; m < len(py.Lines); m++ {
			if py.Lines[m].Logical {
				end = py.LineStart(m)
				break
			}
		}
		toks := pyLogicalTokens(code, start, end, strs, skip)
		if len(toks) == 1 && toks[0].text == `""` {
			continue // a docstring or another bare string
		}
		out = append(out, "\n"+strings.Repeat(" ", l.Indent))
		// An annotated assignment: a name (or dotted name) and a colon
		// first; the annotation runs to "=" or the end of the line.
		k := 0
		for k+1 < len(toks) && PyIdentStart(toks[k].text[0]) && toks[k+1].text == "." {
			k += 2
		}
		if k+1 < len(toks) && PyIdentStart(toks[k].text[0]) && !pyNotAnnotated[toks[k].text] && toks[k+1].text == ":" {
			rest := toks[k+2:]
			cut := len(rest)
			for i, t := range rest {
				if t.text == "=" && t.depth == 0 {
					cut = i
					break
				}
			}
			toks = append(toks[:k+1:k+1], rest[cut:]...)
		}
		for _, t := range toks {
			out = append(out, t.text)
		}
	}
	return out
}

type pyTok struct {
	text  string
	depth int
}

// pyLogicalTokens returns the tokens of code[start:end] outside skip.
func pyLogicalTokens(code string, start, end int, strs map[int]int, skip [][2]int) []pyTok {
	var out []pyTok
	depth := 0
	for i := start; i < end; {
		c := code[i]
		if inRanges(skip, i) {
			i++
			continue
		}
		switch {
		case strs[i] > i:
			out = append(out, pyTok{`""`, depth})
			i = strs[i]
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\' || c == '\f':
			i++
		case PyIdentByte(c) || c >= 0x80:
			j := i
			for j < end && (PyIdentByte(code[j]) || code[j] >= 0x80) && strs[j] <= j {
				j++
			}
			out = append(out, pyTok{code[i:j], depth})
			i = j
		default:
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
			out = append(out, pyTok{string(c), depth})
			i++
		}
	}
	return out
}

// jsTokens returns the token texts of a JavaScript or TypeScript file,
// each string literal (and template without substitutions) as `""`. With
// ts, TypeScript's type syntax is left out: interfaces, type aliases,
// `import type`/`export type` statements, annotations of parameters,
// variables and return types, and `as`/`satisfies` casts.
func jsTokens(js *JSFile, ts bool) []string {
	var skip []bool
	if ts {
		skip = js.typeTokens()
	}
	var out []string
	for i := range js.Toks {
		if skip != nil && skip[i] {
			continue
		}
		t := js.Text(i)
		switch {
		case t == ";":
			continue
		case js.Literal(i):
			t = `""`
		}
		// Parentheses around one token mean nothing; a cast removed from
		// "(x as T)" leaves them.
		if k := len(out); t == ")" && k >= 2 && out[k-2] == "(" && !strings.ContainsAny(out[k-1], "()[]{}") {
			out = append(out[:k-2], out[k-1])
			continue
		}
		out = append(out, t)
	}
	return out
}

// typeTokens marks the tokens of TypeScript type syntax (see [jsTokens]).
// It is a token-level approximation: an object literal's "key: value" and
// a conditional's "a ? b : c" are told apart from annotations by the
// bracket the colon sits in and the "?" seen before it.
func (js *JSFile) typeTokens() []bool {
	n := len(js.Toks)
	skip := make([]bool, n)
	mark := func(from, to int) {
		for k := from; k < to && k < n; k++ {
			skip[k] = true
		}
	}
	// open[i] is the index of the innermost bracket enclosing token i, or
	// -1; questions counts the pending "?" per enclosing bracket.
	type frame struct{ open, questions int }
	stack := []frame{{-1, 0}}
	for i := 0; i < n; i++ {
		top := &stack[len(stack)-1]
		switch t := js.Text(i); {
		case t == "(" || t == "[" || t == "{":
			stack = append(stack, frame{i, 0})
			continue
		case t == ")" || t == "]" || t == "}":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			if t == ")" && js.Is(i+1, ":") && stack[len(stack)-1].questions == 0 {
				// A return type: up to the body or the arrow.
				end := js.typeExtent(i+2, true)
				mark(i+1, end)
				i = end - 1
			}
			continue
		case t == "?" && !js.Is(i+1, ":"): // "a?: T" is an optional parameter
			top.questions++
			continue
		case t == ":" && top.questions > 0:
			top.questions--
			continue
		case (js.StatementStart(i) || js.Is(i-1, "export")) && (t == "interface" || t == "type" || t == "declare") && js.Kind(i+1) == TokIdent:
			if t == "type" && !js.Is(i+2, "=") && !js.Is(i+2, "<") {
				continue
			}
			if js.Is(i-1, "export") {
				skip[i-1] = true
			}
			if t == "interface" {
				j := i + 1
				for j < n && !js.Is(j, "{") {
					j++
				}
				if m := js.Match(j); m > j {
					mark(i, m+1)
					i = m
				}
				continue
			}
			end := js.statementEnd(i)
			mark(i, end)
			i = end - 1
			continue
		case (t == "import" || t == "export") && js.StatementStart(i) && js.Is(i+1, "type"):
			end := js.statementEnd(i)
			mark(i, end)
			i = end - 1
			continue
		case (t == "as" || t == "satisfies") && i > 0 && js.Kind(i+1) == TokIdent || t == "as" && js.Is(i+1, "const"):
			end := js.typeExtent(i+1, false)
			mark(i, end)
			i = end - 1
			continue
		case js.Kind(i) == TokIdent && js.Is(i+1, "<"):
			// Type arguments or parameters: f<T>(...), useState<string>(...).
			if j := js.skipAngles(i + 1); j > i+2 && js.Is(j, "(") && (js.Is(j-1, ">") || js.Is(j-1, ">>")) {
				mark(i+1, j)
				i = j - 1
			}
			continue
		case t != ":":
			continue
		}
		// A colon: an annotation after a parameter or a DeclaredMark variable.
		prev, from := i-1, i
		if js.Is(prev, "?") || js.Is(prev, "!") {
			prev, from = prev-1, prev
		}
		open := top.open
		param := open >= 0 && js.Is(open, "(") && (js.Kind(prev) == TokIdent || js.Is(prev, "]") || js.Is(prev, "}"))
		decl := js.Kind(prev) == TokIdent && (js.Is(prev-1, "let") || js.Is(prev-1, "const") || js.Is(prev-1, "var"))
		if !param && !decl {
			continue
		}
		end := js.typeExtent(i+1, false)
		mark(from, end)
		i = end - 1
	}
	return skip
}

// typeExtent returns the index just after the type that starts at token
// i: balanced brackets are skipped, and the type ends at a ",", ")", "]",
// "}", "=", ";" or a line break outside them; for a return type (ret) it
// also ends at "=>" and at the "{" of a function body.
func (js *JSFile) typeExtent(i int, ret bool) int {
	angles := 0
	for j := i; j < len(js.Toks); j++ {
		t := js.Text(j)
		switch {
		case t == "<":
			angles++
			continue
		case t == ">" && angles > 0:
			angles--
			continue
		case t == ">>" && angles > 1:
			angles -= 2
			continue
		case angles > 0:
			if m := js.Match(j); m > j {
				j = m
			}
			continue
		}
		switch t {
		case "(", "[":
			if m := js.Match(j); m > j {
				j = m
				continue
			}
			return j
		case "{":
			if ret && j > i && js.typeEnd(j-1) && !js.Is(j-1, ":") {
				return j
			}
			if m := js.Match(j); m > j {
				j = m
				continue
			}
			return j
		case "=>":
			if ret {
				return j
			}
		case ",", ")", "]", "}", "=", ";", "?", ":", "||", "&&", "??", "+", "-", "*", "/", "%", "==", "===", "!=", "!==":
			return j
		}
		if j > i && js.Toks[j].NL && !strings.ContainsAny(js.Text(j-1), "|&") && !js.Is(j, "|") && !js.Is(j, "&") {
			return j
		}
	}
	return len(js.Toks)
}

// statementEnd returns the index after the statement starting at token i:
// its ";" or the first token of the next statement on a new line, outside
// brackets.
func (js *JSFile) statementEnd(i int) int {
	for j := i + 1; j < len(js.Toks); j++ {
		switch {
		case js.Is(j, ";"):
			return j + 1
		case js.Is(j, "(") || js.Is(j, "[") || js.Is(j, "{"):
			if m := js.Match(j); m > j {
				j = m
			}
		case js.Toks[j].NL && js.StatementStart(j) && !strings.ContainsAny(js.Text(j-1), "|&=,<") && !js.Is(j, "|") && !js.Is(j, "&"):
			return j
		}
	}
	return len(js.Toks)
}
