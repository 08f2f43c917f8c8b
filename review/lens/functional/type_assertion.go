package functional

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/goapi"
	"github.com/reviewls/reviewls/review/syntax"
)

// UncheckedTypeAssertion finds single-value type assertions that panic
// when the dynamic type differs.
var UncheckedTypeAssertion = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/unchecked-type-assertion",
		Perspective: review.Functional,
		Category:    CatEdgeCases,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthBasic,
		Summary:     "Unchecked type assertion",
		Doc: "A single-value type assertion `x.(T)` panics when x holds another dynamic type or is nil, which " +
			"turns an unexpected input (a context value that was never set, a decoded any, an error of another " +
			"type) into a crash of the goroutine, and usually of the process. Use the comma-ok form and handle " +
			"the miss, or errors.As for errors. The rule reports assertions on values the code does not control: " +
			"context values, map values looked up by a string key (decoded JSON, claims), lookups with a key " +
			"(sync.Map.Load, cache Get), recover(), a package helper that returns any for a context it is given (GetVar(r.Context(), key)), " +
			"errors, any or interface{} parameters, and variables made from those. Assertions on the code's own " +
			"values (an AST node after a check of its kind, an analysis result) are left alone, as are the " +
			"comma-ok form, type switches, assertions guarded by a comma-ok check or the matching case of a type " +
			"switch, `n := n.(T)` redeclarations, and test files, where a panic fails the test visibly.",
		Bad:  "user := ctx.Value(userKey).(*User)",
		Good: "user, ok := ctx.Value(userKey).(*User)\nif !ok {\n\treturn errUnauthenticated\n}",
	},
	Run: runUncheckedTypeAssertion,
}

func runUncheckedTypeAssertion(p *lens.Pass) {
	if !p.Contains(".(") || review.IsTestPath(p.File.Path) {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	decls := lens.GoDeclsWithChangedLine(p.File, func(line string) bool {
		return strings.Count(line, ".(") > strings.Count(line, ".(type)")
	})
	var pkg *goapi.API // the package's declarations, read once needed
	if len(decls) > 0 {
		pkg = goapi.Package(p.ChangeSet, p.File)
	}
	for _, d := range decls {
		lens.GoInspectStack(d, func(n ast.Node, stack []ast.Node) bool {
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok || ta.Type == nil {
				return true
			}
			if off := g.Fset.Position(ta.Rparen).Offset; off >= len(p.File.Content) || p.File.Content[off] != ')' {
				return true // cut off by a syntax error: no ')' in the source
			}
			line := g.Line(ta.Lparen)
			if !p.Changed(line) || commaOK(stack) || controlledIdiom(ta) || sameName(ta, stack) || guarded(p.File, ta, stack) {
				return true
			}
			src := uncontrolled(ta.X, stack, 0, pkg)
			if src == "" {
				return true
			}
			x, typ := lens.GoText(p.File, ta.X), lens.GoText(p.File, ta.Type)
			if len(x) > 40 {
				x = "the value"
			}
			p.Report(lens.Report{
				Line: line, Col: g.Col(ta.Lparen) - 1, EndLine: g.Line(ta.Rparen), EndCol: g.Col(ta.Rparen) + 1,
				Symbol: g.EnclosingFunc(line),
				Message: fmt.Sprintf("The assertion to %s panics when %s (%s) holds another type or is nil, so an unexpected "+
					"value crashes the goroutine (and the process) instead of returning an error.", typ, x, src),
				Suggested: fmt.Sprintf("Use the comma-ok form and handle the miss: `v, ok := %s.(%s); if !ok { ... }`.", x, typ),
			})
			return true
		})
	}
}

// commaOK reports whether the assertion on top of the stack is the single
// value of a two-value assignment or declaration.
func commaOK(stack []ast.Node) bool {
	ta := stack[len(stack)-1]
	parent := stack[len(stack)-2]
	if pe, ok := parent.(*ast.ParenExpr); ok && len(stack) >= 3 {
		ta, parent = pe, stack[len(stack)-3]
	}
	switch n := parent.(type) {
	case *ast.AssignStmt:
		return len(n.Lhs) == 2 && len(n.Rhs) == 1 && n.Rhs[0] == ta
	case *ast.ValueSpec:
		return len(n.Names) == 2 && len(n.Values) == 1 && n.Values[0] == ta
	}
	return false
}

// uncontrolled says where a value comes from when the code does not
// control its dynamic type ("a context value", "a map or slice element"),
// or returns "" otherwise. Identifiers are followed to their declaration
// in the enclosing function, once.
func uncontrolled(e ast.Expr, stack []ast.Node, depth int, pkg *goapi.API) string {
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		// A string key marks decoded data (JSON objects, JWT claims);
		// other indexes are mostly the code's own tables.
		if lit, ok := x.Index.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			return "a map value"
		}
	case *ast.CallExpr:
		_, name, _ := lens.GoCallee(x)
		switch {
		case name == "recover" && len(x.Args) == 0:
			return "a recovered panic value"
		case name == "Value" && len(x.Args) == 1:
			return "a context value"
		case len(x.Args) >= 1 && (name == "Load" || name == "Get" || name == "LoadOrStore" || name == "Lookup"):
			return "a lookup by key"
		}
		// A package function that returns any for a context it is given
		// (GetVar(r.Context(), key)): a context value behind a helper.
		if id, ok := x.Fun.(*ast.Ident); ok && pkg != nil {
			if res := pkg.Funcs[id.Name]; len(res) == 1 && (res[0] == "any" || res[0] == "interface{}") && contextArg(x.Args) {
				return "a context value from " + id.Name
			}
		}
	case *ast.Ident:
		if x.Name == "err" || strings.HasSuffix(x.Name, "Err") || strings.HasSuffix(x.Name, "err") {
			return "an error"
		}
		if depth > 0 {
			return ""
		}
		return declaredSource(x.Name, stack, depth, pkg)
	}
	return ""
}

// contextArg reports an argument that is a context: ctx, or a call of a
// Context method (r.Context()).
func contextArg(args []ast.Expr) bool {
	for _, a := range args {
		switch a := ast.Unparen(a).(type) {
		case *ast.Ident:
			if a.Name == "ctx" {
				return true
			}
		case *ast.CallExpr:
			if sel, ok := a.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" && len(a.Args) == 0 {
				return true
			}
		}
	}
	return false
}

// declaredSource finds the declaration of a local name in the innermost
// function on the stack: an any or interface{} parameter, or a variable
// assigned an uncontrolled value.
func declaredSource(name string, stack []ast.Node, depth int, pkg *goapi.API) string {
	for i := len(stack) - 1; i >= 0; i-- {
		ft, body := lens.GoFuncBody(stack[i])
		if body == nil {
			continue
		}
		for _, f := range ft.Params.List {
			for _, n := range f.Names {
				if n.Name == name && isEmptyInterface(f.Type) {
					return "an " + lensTypeName(f.Type) + " parameter"
				}
			}
		}
		src := ""
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || src != "" || len(as.Lhs) != len(as.Rhs) {
				return src == ""
			}
			for j, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == name {
					src = uncontrolled(as.Rhs[j], stack, depth+1, pkg)
				}
			}
			return src == ""
		})
		return src
	}
	return ""
}

func isEmptyInterface(e ast.Expr) bool {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name == "any"
	case *ast.InterfaceType:
		return t.Methods == nil || len(t.Methods.List) == 0
	}
	return false
}

func lensTypeName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "interface{}"
}

// sameName reports `n := n.(T)`: redeclaring the name with its concrete
// type is the idiom of code that knows the type from a check just made
// (a switch on n.Op(), a Kind test).
func sameName(ta *ast.TypeAssertExpr, stack []ast.Node) bool {
	x, ok := ta.X.(*ast.Ident)
	if !ok {
		return false
	}
	as, ok := stack[len(stack)-2].(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 {
		return false
	}
	lhs, ok := as.Lhs[0].(*ast.Ident)
	return ok && lhs.Name == x.Name
}

// rootIdent returns the identifier an expression starts from: n for
// n.X.Op(), n.kind or n[i].
func rootIdent(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.SelectorExpr:
			e = x.X
		case *ast.CallExpr:
			e = x.Fun
		case *ast.IndexExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return ""
		}
	}
}

// controlledIdiom reports pool.Get().(T) and value.Load().(T): the code
// stores only values of T there.
func controlledIdiom(ta *ast.TypeAssertExpr) bool {
	call, ok := ast.Unparen(ta.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	_, name, _ := lens.GoCallee(call)
	return name == "Get" || name == "Load"
}

// guarded reports an assertion dominated by a comma-ok check of the same
// expression and type in an enclosing if, or by the matching case of a
// type switch on the same expression.
func guarded(f *review.File, ta *ast.TypeAssertExpr, stack []ast.Node) bool {
	x, typ := lens.GoText(f, ta.X), lens.GoText(f, ta.Type)
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.IfStmt:
			if commaOKOf(f, n, x, typ) {
				return true
			}
		case *ast.CaseClause:
			if i < 2 {
				continue
			}
			// stack[i-1] is the switch's body, stack[i-2] the switch. A
			// case of a switch on the same value's kind (switch n.Op())
			// tells the code which type it holds.
			if s, ok := stack[i-2].(*ast.SwitchStmt); ok && s.Tag != nil {
				if r := rootIdent(s.Tag); r != "" && r == rootIdent(ta.X) {
					return true
				}
			}
			if len(n.List) != 1 || lens.GoText(f, n.List[0]) != typ {
				continue
			}
			if ts, ok := stack[i-2].(*ast.TypeSwitchStmt); ok && switchedExpr(f, ts) == x {
				return true
			}
		case *ast.BlockStmt:
			// An earlier `if _, ok := x.(T); !ok { return }` in the block.
			for _, s := range n.List {
				if s.Pos() >= ta.Pos() {
					break
				}
				if is, ok := s.(*ast.IfStmt); ok && commaOKOf(f, is, x, typ) && leaves(is.Body) {
					return true
				}
			}
		}
	}
	return false
}

// commaOKOf reports an if statement whose initialiser is a comma-ok
// assertion of expression x to type typ.
func commaOKOf(f *review.File, is *ast.IfStmt, x, typ string) bool {
	as, ok := is.Init.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || len(as.Lhs) != 2 {
		return false
	}
	g, ok := as.Rhs[0].(*ast.TypeAssertExpr)
	return ok && g.Type != nil && lens.GoText(f, g.X) == x && lens.GoText(f, g.Type) == typ
}

// leaves reports a block that ends by leaving: return, break, continue,
// goto or panic.
func leaves(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		return isPanic(s)
	}
	return false
}

// switchedExpr returns the text of the expression a type switch examines.
func switchedExpr(f *review.File, ts *ast.TypeSwitchStmt) string {
	var e ast.Expr
	switch a := ts.Assign.(type) {
	case *ast.ExprStmt:
		e = a.X
	case *ast.AssignStmt:
		if len(a.Rhs) == 1 {
			e = a.Rhs[0]
		}
	}
	if ta, ok := e.(*ast.TypeAssertExpr); ok {
		return lens.GoText(f, ta.X)
	}
	return ""
}
