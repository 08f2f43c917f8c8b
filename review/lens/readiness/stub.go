package readiness

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// Stub finds what marks a change as visibly unfinished: stubs it adds on
// its code path. A review that finds one recommends
// insufficient-but-promising ([review.StubRule]).
var Stub = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          review.StubRule,
		Perspective: review.Readiness,
		Category:    CatFollowUp,
		Severity:    review.SeverityMedium,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Summary:     "Stub left in the change",
		Doc: "Code the change adds that says it is not implemented fails at run time where it is reached: " +
			"the change is unfinished. Deterministic markers only, on added lines of non-test files: a Go " +
			"`panic(\"not implemented\")` (or unimplemented, TODO, implement me); a Python `raise " +
			"NotImplementedError` in a module-level function, or in a method when its message says TODO, " +
			"not implemented yet or implement me (a bare one in a method is the abstract-method idiom, and an " +
			"@abstractmethod never counts); a JavaScript or TypeScript `throw new Error(\"TODO\")` or \"not " +
			"implemented\" (not a message about subclasses or overriding); a new function whose body is " +
			"empty, or only returns zero values, with a TODO or FIXME comment in it; and a new exported Go " +
			"function (not a method, which may be a no-op on purpose) or public module-level Python function " +
			"whose body is empty. A TODO comment elsewhere is readiness/todo-added: finished code carries " +
			"those too. A review with a stub recommends insufficient-but-promising.",
		Bad:  "func (s *Store) Delete(id string) error {\n\tpanic(\"not implemented\")\n}",
		Good: "func (s *Store) Delete(id string) error {\n\treturn s.db.Delete(id)\n}",
	},
	Run: runStub,
}

// stubText matches the message of a stub; abstractText one that asks a
// subclass to implement the method, which is no stub.
var (
	stubText     = regexp.MustCompile(`(?i)\b(not (yet )?implemented|unimplemented|implement me|todo|fixme)\b`)
	stubSoon     = regexp.MustCompile(`(?i)\b(todo|fixme|not yet implemented|implement me|wip)\b`)
	abstractText = regexp.MustCompile(`(?i)subclass|abstract|overrid|must be implemented|should be implemented|derived`)
	// todoMark is a marker comment of unfinished work.
	todoMark = regexp.MustCompile(`(?i)\b(todo|fixme|implement)\b`)
)

func runStub(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return
	}
	switch {
	case p.File.Language == review.LangGo:
		goStubs(p)
	case p.File.Language == review.LangPython:
		pyStubs(p)
	case p.File.Language.IsJS():
		jsStubs(p)
	}
}

// reportStub reports a stub at line n.
func reportStub(p *lens.Pass, n int, what, name string) {
	in := ""
	if name != "" {
		in = " in " + name
	}
	p.Report(lens.Report{
		Line:   n,
		Symbol: name,
		Title:  fmt.Sprintf("Stub left%s: %s", in, what),
		Message: fmt.Sprintf("The change adds %s%s: the code is not implemented, so it fails or does nothing where it is reached, "+
			"and the change is unfinished.", what, in),
		Suggested: "Implement it before merging, or leave it out of the change until it is implemented.",
	})
}

// commentMarked reports whether a comment on lines from..to holds a
// marker of unfinished work.
func commentMarked(p *lens.Pass, from, to int) bool {
	comments := syntax.Comments(p.File)
	for n := from; n <= to && n <= len(comments); n++ {
		if n >= 1 && todoMark.MatchString(comments[n-1].Text) {
			return true
		}
	}
	return false
}

func goStubs(p *lens.Pass) {
	g := syntax.Go(p.File)
	if g.File == nil || !p.Contains("func") {
		return
	}
	for _, d := range g.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		from, to := g.Line(fd.Body.Lbrace), g.Line(fd.Body.Rbrace)
		if p.FirstChanged(g.Line(fd.Pos()), to) == 0 {
			continue // a stub is on a changed line of the function
		}
		name := syntax.GoFuncName(fd)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "panic" {
				return true
			}
			if msg, ok := goString(call.Args[0]); ok && stubText.MatchString(msg) && p.Changed(g.Line(call.Pos())) {
				reportStub(p, g.Line(call.Pos()), fmt.Sprintf("panic(%q)", msg), name)
			}
			return true
		})
		if !p.Changed(g.Line(fd.Pos())) {
			continue // only new functions
		}
		switch {
		case goZeroBody(fd.Body) && commentMarked(p, from, to):
			reportStub(p, from, "a body with only a TODO", name)
		case len(fd.Body.List) == 0 && fd.Recv == nil && fd.Name.IsExported() && fd.Name.Name != "main" && fd.Name.Name != "init":
			reportStub(p, from, "an empty body", name)
		}
	}
}

// goString returns the value of a string literal, or of a call's first
// argument that is one (errors.New, fmt.Sprintf).
func goString(e ast.Expr) (string, bool) {
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) >= 1 {
		e = call.Args[0]
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// goZeroBody reports a body with no statement, or only a return of zero
// values (nil, 0, "", false).
func goZeroBody(b *ast.BlockStmt) bool {
	switch len(b.List) {
	case 0:
		return true
	case 1:
		ret, ok := b.List[0].(*ast.ReturnStmt)
		if !ok {
			return false
		}
		for _, r := range ret.Results {
			switch v := r.(type) {
			case *ast.Ident:
				if v.Name != "nil" && v.Name != "false" {
					return false
				}
			case *ast.BasicLit:
				if v.Value != "0" && v.Value != `""` && v.Value != "``" {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return false
}

var notImplementedRE = regexp.MustCompile(`\braise\s+NotImplementedError\b`)

func pyStubs(p *lens.Pass) {
	if !p.Contains("NotImplementedError") && !p.Contains("def ") {
		return
	}
	py := syntax.Python(p.File)
	for _, fn := range py.Funcs {
		if fn.Body < 1 || fn.End < fn.Body {
			continue
		}
		abstract := pyDecorated(py, fn, "abstractmethod")
		method := fn.Indent > 0
		for n := fn.Body; n <= fn.End; n++ {
			code := py.CodeLine(n)
			loc := notImplementedRE.FindStringIndex(code)
			if loc == nil || !p.Changed(n) || abstract || pyInner(py, fn, n) {
				continue
			}
			msg := p.Line(n)[loc[1]:]
			if method && !stubSoon.MatchString(msg) || abstractText.MatchString(msg) {
				continue
			}
			reportStub(p, n, "raise NotImplementedError", fn.Name)
		}
		if !p.Changed(fn.Line) || abstract {
			continue
		}
		body, doc := pyBody(py, fn)
		switch {
		case body && commentMarked(p, fn.Line, fn.End):
			reportStub(p, fn.Body, "a body with only a TODO", fn.Name)
		case body && !doc && !method && !strings.HasPrefix(fn.Name, "_") && !strings.HasSuffix(p.File.Path, ".pyi"):
			reportStub(p, fn.Body, "an empty body", fn.Name)
		}
	}
}

// pyInner reports whether line n lies in a function nested in fn: its
// own stubs are reported with it.
func pyInner(py *syntax.PyFile, fn syntax.PyFunc, n int) bool {
	for _, g := range py.Funcs {
		if g.Line > fn.Line && g.Line < n && n <= g.End && g.Indent > fn.Indent {
			return true
		}
	}
	return false
}

// pyDecorated reports whether a decorator of fn names dec.
func pyDecorated(py *syntax.PyFile, fn syntax.PyFunc, dec string) bool {
	for n := fn.Line - 1; n >= 1; n-- {
		line := strings.TrimSpace(py.CodeLine(n))
		if !strings.HasPrefix(line, "@") {
			return false
		}
		if strings.Contains(line, dec) {
			return true
		}
	}
	return false
}

// pyBody reports whether fn's body does nothing: only pass, ..., a bare
// return or return None, after an optional docstring (doc).
func pyBody(py *syntax.PyFile, fn syntax.PyFunc) (empty, doc bool) {
	first := true
	for n := fn.Body; n <= fn.End; n++ {
		if !py.Lines[n-1].Logical {
			continue
		}
		code := strings.TrimSpace(py.CodeLine(n))
		if n == fn.Line {
			_, code, _ = strings.Cut(code[strings.LastIndex(code, ")"):], ":")
			code = strings.TrimSpace(code)
		}
		switch {
		case first && (strings.HasPrefix(code, `"`) || strings.HasPrefix(code, `'`)):
			doc = true
		case code == "pass", code == "...", code == "return", code == "return None":
		default:
			return false, doc
		}
		first = false
	}
	return true, doc
}

func jsStubs(p *lens.Pass) {
	if !p.Contains("throw") && !p.Contains("TODO") && !p.Contains("FIXME") {
		return
	}
	js := syntax.JS(p.File)
	t := js.Toks
	funcs := syntax.JSFuncs(p.File)
	text := func(i int) string { return js.Src[t[i].Off:t[i].End] }
	for i := 0; i+4 < len(t); i++ {
		if text(i) != "throw" || text(i+1) != "new" || text(i+2) != "Error" || text(i+3) != "(" || !p.Changed(int(t[i].Line)) {
			continue
		}
		msg, err := strconv.Unquote(jsQuoted(text(i + 4)))
		if err != nil || !stubText.MatchString(msg) || abstractText.MatchString(msg) {
			continue
		}
		name := ""
		if fn := syntax.JSEnclosing(funcs, i); fn != nil {
			name = fn.Name
		}
		reportStub(p, int(t[i].Line), fmt.Sprintf("throw new Error(%q)", msg), name)
	}
	for _, fn := range funcs {
		from, to := int(t[fn.Open].Line), int(t[fn.Close].Line)
		if fn.Close == fn.Open+1 && p.Changed(int(t[fn.Start].Line)) && commentMarked(p, from, to) {
			reportStub(p, from, "a body with only a TODO", fn.Name)
		}
	}
}

// jsQuoted turns a JavaScript string literal into one strconv.Unquote
// reads: single quotes and backticks become double quotes.
func jsQuoted(s string) string {
	if len(s) < 2 || s[0] == '"' {
		return s
	}
	body := s[1 : len(s)-1]
	if strings.ContainsAny(body, `"\`) || s[0] == '`' && strings.Contains(body, "${") {
		return s // not worth converting: no stub message needs it
	}
	return `"` + body + `"`
}
