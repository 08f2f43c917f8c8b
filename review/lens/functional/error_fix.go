package functional

import (
	"fmt"
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/goapi"
	"github.com/reviewls/reviewls/review/syntax"
)

// errRemedy is what a Go reviewer would have a dropped error do, given the
// function it is dropped in: return it wrapped when the function returns
// an error (zero values for the other results); stop the test with it in
// a test; exit with it in main; in a function the change adds and that
// returns nothing, give it an error result and return the error there.
// Anywhere else — a function that existed before (a new result changes
// its callers), one with other results, a function literal (the failure
// must go where its work is awaited) — there is advice but no fix: the
// handling is a decision about a contract, and a library that logs an
// error and carries on has only hidden it.
type errRemedy struct {
	// stmt handles err inside `if err != nil { ... }`: the statement of
	// the fix, or of the advice when fix is false.
	stmt string
	fix  bool
	// imports are the packages stmt uses, by the name it uses them under.
	imports map[string]string
	// addResult is the function that gains an error result.
	addResult *ast.FuncDecl
	// say is the suggestion, with one %s for the code of the check: the
	// end of "Check the error and ...", or a sentence of its own when
	// sentence is set.
	say      string
	sentence bool
}

// suggest writes the suggestion of the remedy for the code of a check,
// after lead unless the remedy says a sentence of its own.
func (r errRemedy) suggest(lead, code string) string {
	if r.sentence {
		return fmt.Sprintf(r.say, code)
	}
	return lead + fmt.Sprintf(r.say, code)
}

// enclosingFunc returns the type of the innermost function on the stack
// (a literal, or the declaration fd), and the literal (nil for fd).
func enclosingFunc(stack []ast.Node, fd *ast.FuncDecl) (*ast.FuncType, *ast.FuncLit) {
	for i := len(stack) - 1; i >= 0; i-- {
		if fl, ok := stack[i].(*ast.FuncLit); ok {
			return fl.Type, fl
		}
	}
	return fd.Type, nil
}

// remedy decides how the error of the call named name is handled in the
// innermost function on the stack.
func (c *ignoredErrorCheck) remedy(name string, stack []ast.Node) errRemedy {
	r := c.remedyIn(name, stack)
	for n, p := range r.imports {
		if c.typer.isVar(n) || c.imports[n] != "" && c.imports[n] != p {
			// A variable of the function, or another package, has the
			// name the handling would use.
			return errRemedy{stmt: "...", say: "return it wrapped, or handle it: %s."}
		}
	}
	return r
}

func (c *ignoredErrorCheck) remedyIn(name string, stack []ast.Node) errRemedy {
	ft, lit := enclosingFunc(stack, c.fd)
	op := operation(name)
	r := errRemedy{imports: map[string]string{}, fix: true}
	wrapped := func() string { return fmt.Sprintf("%s.Errorf(%q, err)", c.importName(r.imports, "fmt"), op+": %w") }
	if returnsError(ft) {
		var values []string
		for _, res := range ft.Results.List[:len(ft.Results.List)-1] {
			zero, ok := c.zeroValue(res.Type)
			if !ok {
				zero, r.fix = "...", false
			}
			for range max(1, len(res.Names)) {
				values = append(values, zero)
			}
		}
		r.stmt = "return " + strings.Join(append(values, wrapped()), ", ")
		r.say = "return it wrapped: %s."
		if !r.fix {
			r.say = "return it wrapped, with the zero values of the other results: %s."
		}
		return r
	}
	if t := testingParam(ft, c.imports); t != "" {
		r.stmt, r.say = fmt.Sprintf("%s.Fatalf(%q, err)", t, op+": %v"), "stop the test: %s."
		return r
	}
	if lit != nil {
		return errRemedy{stmt: "...", sentence: true, say: "The function literal returns no error: check it (%s) and report the failure where the literal's work is awaited " +
			"(return it from a `func() error` run by an errgroup, send it on a channel), or handle it there."}
	}
	fd := c.fd
	if fd.Recv == nil && fd.Name.Name == "main" && c.g.File.Name.Name == "main" {
		r.stmt, r.say = fmt.Sprintf("%s.Fatalf(%q, err)", c.importName(r.imports, "log"), op+": %v"), "exit with it: %s."
		return r
	}
	fn := syntax.GoFuncName(fd)
	r.stmt = "return " + wrapped()
	lead := fn + " returns no error, so its caller cannot learn that this call failed: give it an error result and return the error wrapped, "
	added, known := lens.AddedSymbols(c.p.File)
	r.sentence = true
	switch {
	case ft.Results != nil && len(ft.Results.List) > 0:
		r.fix, r.say = false, fn+" returns no error, so its caller cannot learn that this call failed: add an error result and return the error wrapped (%s), or handle the failure here."
	case fd.Name.Name == "init" || !known || !added[fn] || !onlyCalled(c.g.File, fd):
		r.fix, r.say = false, lead+"%s (no quick fix: the new result changes its callers), or handle the failure here."
	default:
		r.addResult, r.say = fd, lead+"%s (the quick fix does both)."
	}
	return r
}

// operation names the operation of a callee for an error's context, in
// lower-case words: "f.WriteString" gives "write string",
// "json.NewDecoder(...).Decode" gives "decode".
func operation(name string) string {
	name = name[strings.LastIndexByte(name, '.')+1:]
	var words []string
	start := 0
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) && !unicode.IsUpper(rune(name[i-1])) {
			words = append(words, name[start:i])
			start = i
		}
	}
	return strings.ToLower(strings.Join(append(words, name[start:]), " "))
}

// testingParam returns the name of a *testing.T, *testing.B, *testing.F
// or testing.TB parameter of ft, or "".
func testingParam(ft *ast.FuncType, imports map[string]string) string {
	for _, f := range ft.Params.List {
		t := f.Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		sel, ok := t.(*ast.SelectorExpr)
		if !ok || len(f.Names) == 0 || f.Names[0].Name == "_" {
			continue
		}
		if x, ok := sel.X.(*ast.Ident); ok && imports[x.Name] == "testing" && strings.Contains(" T B F TB ", " "+sel.Sel.Name+" ") {
			return f.Names[0].Name
		}
	}
	return ""
}

// importName returns the name the file imports path under (its last
// element when it does not import it yet), and records it in uses.
func (c *ignoredErrorCheck) importName(uses map[string]string, path string) string {
	name := path[strings.LastIndexByte(path, '/')+1:]
	for n, p := range c.imports {
		if p == path && n != "_" && n != "." {
			name = n
		}
	}
	uses[name] = path
	return name
}

// onlyCalled reports whether every use of fd's name in file calls it as a
// statement: giving it a result then breaks no use in the file.
func onlyCalled(file *ast.File, fd *ast.FuncDecl) bool {
	ok := true
	lens.GoInspectStack(file, func(n ast.Node, stack []ast.Node) bool {
		id, isIdent := n.(*ast.Ident)
		if !ok || !isIdent || id.Name != fd.Name.Name || id == fd.Name {
			return ok
		}
		// The identifier, or the selector it ends, is the function of a
		// call that is a statement of its own (or deferred, or run by go).
		var fun ast.Expr = id
		i := len(stack) - 2
		if sel, isSel := stack[i].(*ast.SelectorExpr); isSel && sel.Sel == id {
			fun, i = sel, i-1
		}
		call, isCall := stack[i].(*ast.CallExpr)
		if !isCall || call.Fun != fun || i == 0 {
			ok = false
			return false
		}
		switch stack[i-1].(type) {
		case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// zeroValue returns the zero value of a result type as Go source, when
// the type's kind is known: from its form, the predeclared types, and the
// declarations of the package, the module and the standard library.
func (c *ignoredErrorCheck) zeroValue(t ast.Expr) (string, bool) {
	text := lens.GoText(c.p.File, t)
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X // an instance of a generic type: the zero of its kind
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok && typeParam(c.fd, id.Name) {
		return "", false
	}
	z := goapi.ZeroOf(t, c.imports)
	for range 5 { // a chain of named types, not a cycle
		named, ok := strings.CutPrefix(z, "=")
		if !ok {
			break
		}
		z = ""
		if i := strings.LastIndexByte(named, '.'); i < 0 {
			z = c.pkg.Zeros[named]
		} else if z = c.std.Zeros[named]; z == "" && c.module != nil {
			if api := c.module(named[:i]); api != nil {
				z = api.Zeros[named[i+1:]]
			}
		}
	}
	switch z {
	case "", "=":
		return "", false
	case "{}":
		return text + "{}", true
	}
	return z, !strings.HasPrefix(z, "=")
}

// typeParam reports whether name is a type parameter of fd or of its
// receiver's type.
func typeParam(fd *ast.FuncDecl, name string) bool {
	lists := []*ast.FieldList{fd.Type.TypeParams}
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		t := fd.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		switch x := t.(type) {
		case *ast.IndexExpr:
			lists = append(lists, &ast.FieldList{List: []*ast.Field{{Type: x.Index}}})
		case *ast.IndexListExpr:
			for _, ix := range x.Indices {
				lists = append(lists, &ast.FieldList{List: []*ast.Field{{Type: ix}}})
			}
		}
	}
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, f := range l.List {
			if id, ok := f.Type.(*ast.Ident); ok && id.Name == name && len(f.Names) == 0 {
				return true // a receiver's type argument
			}
			for _, n := range f.Names {
				if n.Name == name {
					return true
				}
			}
		}
	}
	return false
}

// errorFix builds the fix of a dropped error and its suggestion. stmt is
// the statement that drops it (a call, `_ = call`, `_, _ = call`), call
// its call, name the callee and results the callee's result types (nil
// when unknown).
func (c *ignoredErrorCheck) errorFix(stmt ast.Stmt, call *ast.CallExpr, name string, results []string, stack []ast.Node) (*review.Fix, string) {
	if len(results) == 0 {
		if as, ok := stmt.(*ast.AssignStmt); ok {
			results = make([]string, len(as.Lhs)) // `_, _ = f()`: as many as there are blanks
		}
	}
	if len(results) == 0 {
		return nil, "Check the error it returns and return it wrapped, or handle it."
	}
	code := lens.GoText(c.p.File, call)
	if len(code) > 60 || strings.Contains(code, "\n") {
		code = name + "(...)"
	}
	lhs := strings.Repeat("_, ", len(results)-1) + "err"
	r := c.remedy(name, stack)
	suggested := r.suggest("Check the error and ", fmt.Sprintf("`if %s := %s; err != nil { %s }`", lhs, code, r.stmt))
	if !r.fix {
		return nil, suggested
	}
	indent := lens.GoIndent(c.p.Line(c.g.Line(stmt.Pos())))
	edits := []review.TextEdit{{
		Span:    c.g.Span(c.p.File.Path, stmt),
		NewText: fmt.Sprintf("if %s := %s; err != nil {\n%s\t%s\n%s}", lhs, lens.GoText(c.p.File, call), indent, r.stmt, indent),
	}}
	return c.fixOf(name, r, edits), suggested
}

// fixOf completes the edits of a check of the error of name with those the
// remedy needs: the function's new result, the imports.
func (c *ignoredErrorCheck) fixOf(name string, r errRemedy, edits []review.TextEdit) *review.Fix {
	if r.addResult != nil {
		edits = append(edits, c.addErrorResult(r.addResult)...)
	}
	edits = append(edits, c.addImports(r.imports)...)
	return &review.Fix{Title: "Check the error of " + name, Edits: edits}
}

// blankFix builds the fix of `v, _ := f()` that drops f's error, and its
// suggestion: the blank becomes err, checked on the next line.
func (c *ignoredErrorCheck) blankFix(as *ast.AssignStmt, name string, stack []ast.Node) (*review.Fix, string) {
	var kept []string
	for _, e := range as.Lhs[:len(as.Lhs)-1] {
		kept = append(kept, lens.GoText(c.p.File, e))
	}
	v := strings.Join(kept, ", ")
	r := c.remedy(name, stack)
	suggested := r.suggest(fmt.Sprintf("Name the error, check it before using %s and ", v), fmt.Sprintf("`%s, err := ...` then `if err != nil { %s }`", v, r.stmt))
	if r.sentence {
		suggested = fmt.Sprintf("Name the error and check it before using %s. %s", v, suggested)
	}
	if !r.fix || as.Tok != token.DEFINE {
		return nil, suggested // `v, _ = f()`: err may not be declared
	}
	end := c.g.Line(as.End())
	indent := lens.GoIndent(c.p.Line(c.g.Line(as.Pos())))
	edits := []review.TextEdit{
		{Span: c.g.Span(c.p.File.Path, as.Lhs[len(as.Lhs)-1]), NewText: "err"},
		{Span: review.Span{Path: c.p.File.Path, StartLine: end + 1, StartCol: 1, EndLine: end + 1, EndCol: 1},
			NewText: fmt.Sprintf("%sif err != nil {\n%s\t%s\n%s}\n", indent, indent, r.stmt, indent)},
	}
	return c.fixOf(name, r, edits), suggested
}

// addErrorResult gives fd an error result: `error` after its parameters,
// a value for each bare return of its own (not of a function literal) —
// the error an `if err != nil` around it tests, else nil — and `return
// nil` at its end unless it ends in a return or a panic.
func (c *ignoredErrorCheck) addErrorResult(fd *ast.FuncDecl) []review.TextEdit {
	at := func(pos token.Pos) review.Span {
		return review.Span{Path: c.p.File.Path, StartLine: c.g.Line(pos), StartCol: c.g.Col(pos), EndLine: c.g.Line(pos), EndCol: c.g.Col(pos)}
	}
	edits := []review.TextEdit{{Span: at(fd.Type.Params.End()), NewText: " error"}}
	lens.GoInspectStack(fd.Body, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			edits = append(edits, review.TextEdit{Span: at(n.End()), NewText: " " + c.failedErr(stack)})
		}
		return true
	})
	list := fd.Body.List
	if len(list) > 0 && terminates(list[len(list)-1]) {
		return edits
	}
	closing := c.g.Line(fd.Body.Rbrace)
	indent := lens.GoIndent(c.p.Line(c.g.Line(fd.Pos())))
	edits = append(edits, review.TextEdit{
		Span:    review.Span{Path: c.p.File.Path, StartLine: closing, StartCol: c.g.Col(fd.Body.Rbrace), EndLine: closing, EndCol: c.g.Col(fd.Body.Rbrace)},
		NewText: indent + "\treturn nil\n" + indent,
	})
	return edits
}

// failedErr returns the error variable that the if statement around the
// return on top of stack tests against nil (`if err != nil { return }`),
// or "nil".
func (c *ignoredErrorCheck) failedErr(stack []ast.Node) string {
	if len(stack) < 3 {
		return "nil"
	}
	ifs, ok := stack[len(stack)-3].(*ast.IfStmt)
	if !ok || ifs.Body != stack[len(stack)-2] {
		return "nil"
	}
	cond, ok := ifs.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ {
		return "nil"
	}
	x, isIdent := cond.X.(*ast.Ident)
	if y, isNil := cond.Y.(*ast.Ident); !isIdent || !isNil || y.Name != "nil" || c.typer.vars[x.Name] != "error" && x.Name != "err" {
		return "nil"
	}
	return x.Name
}

// terminates reports a statement after which a function needs no return:
// a return, or a call of panic.
func terminates(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			id, isIdent := call.Fun.(*ast.Ident)
			return isIdent && id.Name == "panic"
		}
	}
	return false
}

// addImports adds the packages of uses (name -> path) that the file does
// not import: into its first import declaration, in path order, or as a
// new declaration after the package clause.
func (c *ignoredErrorCheck) addImports(uses map[string]string) []review.TextEdit {
	var edits []review.TextEdit
	for _, name := range slices.Sorted(maps.Keys(uses)) {
		path := uses[name]
		if c.imports[name] == path {
			continue
		}
		spec := strconv.Quote(path)
		var decl *ast.GenDecl
		for _, d := range c.g.File.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				decl = gd
				break
			}
		}
		switch {
		case decl == nil:
			end := c.g.Line(c.g.File.Name.End())
			edits = append(edits, review.TextEdit{
				Span:    review.Span{Path: c.p.File.Path, StartLine: end + 1, StartCol: 1, EndLine: end + 1, EndCol: 1},
				NewText: "\nimport " + spec + "\n",
			})
		case !decl.Lparen.IsValid():
			// `import "os"` becomes a group of the two.
			old := decl.Specs[0].(*ast.ImportSpec)
			specs := []string{spec, lens.GoText(c.p.File, old)}
			if p, _ := strconv.Unquote(old.Path.Value); p < path {
				specs[0], specs[1] = specs[1], specs[0]
			}
			edits = append(edits, review.TextEdit{Span: c.g.Span(c.p.File.Path, decl), NewText: "import (\n\t" + strings.Join(specs, "\n\t") + "\n)"})
		default:
			// Before the first spec that sorts after it in the first
			// group (a blank line ends a group), else after the group.
			line := c.g.Line(decl.Rparen)
			for i, s := range decl.Specs {
				l := c.g.Line(s.Pos())
				if i > 0 && l > c.g.Line(decl.Specs[i-1].End())+1 {
					line = c.g.Line(decl.Specs[i-1].End()) + 1
					break
				}
				if p, _ := strconv.Unquote(s.(*ast.ImportSpec).Path.Value); p > path {
					line = l
					break
				}
			}
			edits = append(edits, review.TextEdit{
				Span:    review.Span{Path: c.p.File.Path, StartLine: line, StartCol: 1, EndLine: line, EndCol: 1},
				NewText: "\t" + spec + "\n",
			})
		}
	}
	return edits
}
