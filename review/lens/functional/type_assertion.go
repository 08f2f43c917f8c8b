package functional

import (
	"fmt"
	"go/ast"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// UncheckedTypeAssertion finds single-value type assertions that panic
// when the dynamic type differs.
var UncheckedTypeAssertion = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/unchecked-type-assertion",
		Perspective: review.Functional,
		Category:    CatEdgeCases,
		Severity:    review.SeverityMedium,
		Languages:   []string{review.LangGo},
		Depth:       review.DepthBasic,
		Summary:     "Unchecked type assertion",
		Doc: "A single-value type assertion `x.(T)` panics when x holds another dynamic type or is nil, which " +
			"turns an unexpected input (a context value that was never set, a decoded any, an error of another " +
			"type) into a crash of the goroutine, and usually of the process. Use the comma-ok form and handle " +
			"the miss, or errors.As for errors. Not reported: the comma-ok form, type switches, assertions guarded " +
			"by a comma-ok check of the same expression in an enclosing if or by the matching case of a type " +
			"switch, the sync.Pool.Get() and atomic.Value.Load() idioms whose contents the code controls, and test " +
			"files, where a panic fails the test visibly.",
		Bad:  "user := ctx.Value(userKey).(*User)",
		Good: "user, ok := ctx.Value(userKey).(*User)\nif !ok {\n\treturn errUnauthenticated\n}",
	},
	Run: runUncheckedTypeAssertion,
}

func runUncheckedTypeAssertion(p *lens.Pass) {
	if !p.Contains(".(") || review.IsTestPath(p.File.Path) {
		return
	}
	g := lens.GoFile(p.File)
	if g.File == nil {
		return
	}
	var decls []ast.Decl
	lens.EachChangedLine(p.File, func(n int, line string) {
		if !strings.Contains(line, ".(") || strings.Count(line, ".(") == strings.Count(line, ".(type)") {
			return
		}
		if d := lens.GoDeclAt(p.File, n); d != nil && (len(decls) == 0 || decls[len(decls)-1] != d) {
			decls = append(decls, d)
		}
	})
	for _, d := range decls {
		var stack []ast.Node
		ast.Inspect(d, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok || ta.Type == nil {
				return true
			}
			line := g.Line(ta.Lparen)
			if !p.Changed(line) || commaOK(stack) || controlledIdiom(ta) || guarded(p.File, ta, stack) {
				return true
			}
			x, typ := lens.GoText(p.File, ta.X), lens.GoText(p.File, ta.Type)
			if len(x) > 40 {
				x = "the value"
			}
			p.Report(lens.Report{
				Line: line, Col: g.Col(ta.Lparen) - 1, EndCol: g.Col(ta.Rparen) + 1,
				Symbol: g.EnclosingFunc(line),
				Message: fmt.Sprintf("The assertion to %s panics when %s holds another type or is nil, so an unexpected "+
					"value crashes the goroutine (and the process) instead of returning an error.", typ, x),
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
			if as, ok := n.Init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
				if g, ok := as.Rhs[0].(*ast.TypeAssertExpr); ok && g.Type != nil &&
					lens.GoText(f, g.X) == x && lens.GoText(f, g.Type) == typ {
					return true
				}
			}
		case *ast.CaseClause:
			if i == 0 || len(n.List) != 1 || lens.GoText(f, n.List[0]) != typ {
				continue
			}
			// stack[i-1] is the switch's body, stack[i-2] the switch.
			if i >= 2 {
				if ts, ok := stack[i-2].(*ast.TypeSwitchStmt); ok && switchedExpr(f, ts) == x {
					return true
				}
			}
		}
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
