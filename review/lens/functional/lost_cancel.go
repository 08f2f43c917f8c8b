package functional

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// LostCancel finds context cancel functions that are discarded or never
// used.
var LostCancel = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/lost-cancel",
		Perspective: review.Functional,
		Category:    CatConcurrency,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthStandard,
		Fixable:     true,
		Summary:     "Context cancel function never called",
		Doc: "context.WithCancel, WithTimeout and WithDeadline return a cancel function that releases the " +
			"context's resources: its goroutine, its timer and its place in the parent's children. Discarding it " +
			"(`ctx, _ := ...`) or never calling it keeps all of that alive until the parent is cancelled or the " +
			"timer fires, which leaks memory on every call of a hot path. Call it, normally with `defer cancel()` " +
			"right after the call. A cancel function that is called, deferred, returned, stored or passed on " +
			"anywhere in the function (or is a named result) is considered used; the rule does not check that every " +
			"path calls it " +
			"(go vet's lostcancel does, at depth comprehensive).",
		Bad:  "ctx, _ := context.WithTimeout(ctx, 5*time.Second)\nreturn s.db.PingContext(ctx)",
		Good: "ctx, cancel := context.WithTimeout(ctx, 5*time.Second)\ndefer cancel()\nreturn s.db.PingContext(ctx)",
	},
	Run: runLostCancel,
}

func runLostCancel(p *lens.Pass) {
	g := syntax.Go(p.File)
	names, decls := lens.GoUses(p.File, []string{"context"}, "With")
	pkg := lens.NameOf(names, "context")
	for _, d := range decls {
		lens.GoInspectStack(d, func(n ast.Node, stack []ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 2 && len(as.Rhs) == 1 {
				if call, ok := as.Rhs[0].(*ast.CallExpr); ok && lens.IsGoPkgCall(call, pkg,
					"WithCancel", "WithTimeout", "WithDeadline", "WithCancelCause", "WithTimeoutCause", "WithDeadlineCause") {
					checkLostCancel(p, g, pkg, as, call, stack)
				}
			}
			return true
		})
	}
}

func checkLostCancel(p *lens.Pass, g *syntax.GoFile, pkg string, as *ast.AssignStmt, call *ast.CallExpr, stack []ast.Node) {
	line := g.Line(as.Pos())
	if !p.Changed(line) {
		return
	}
	cancel, ok := as.Lhs[1].(*ast.Ident)
	if !ok {
		return // stored in a field or elsewhere: used
	}
	var body ast.Node
	var ft *ast.FuncType
	for i := len(stack) - 2; i >= 0 && body == nil; i-- {
		t, b := lens.GoFuncBody(stack[i])
		if b != nil {
			ft, body = t, b
		}
	}
	if body == nil || declares(ft.Results, cancel.Name) {
		return // a named result is returned
	}
	_, fn, _ := lens.GoCallee(call)
	discarded := cancel.Name == "_"
	if !discarded && usedElsewhere(body, cancel) {
		return
	}
	r := lens.Report{
		Line:   line,
		Symbol: g.EnclosingFunc(line),
		Message: fmt.Sprintf("The cancel function returned by %s.%s is never called: the context, its goroutine and timer "+
			"stay alive until the parent is cancelled or the deadline passes, leaking resources on every call.", pkg, fn),
		Suggested: "Keep the cancel function and call it when the work is done, normally with `defer cancel()` right after this line.",
		Fix:       lostCancelFix(p, g, as, cancel, body, stack),
	}
	if discarded {
		r.Message = fmt.Sprintf("The cancel function returned by %s.%s is discarded with `_`: the context, its goroutine and "+
			"timer stay alive until the parent is cancelled or the deadline passes, leaking resources on every call.", pkg, fn)
	}
	p.Report(r)
}

// usedElsewhere reports whether body mentions the identifier's name
// anywhere but at id itself.
func usedElsewhere(body ast.Node, id *ast.Ident) bool {
	used := false
	ast.Inspect(body, func(n ast.Node) bool {
		if x, ok := n.(*ast.Ident); ok && x != id && x.Name == id.Name {
			used = true
		}
		return !used
	})
	return used
}

// lostCancelFix names the cancel function if needed and defers it on the
// next line. It offers nothing when the statement is in a loop (a defer
// there is its own bug) or when the context escapes the function (returned,
// stored or used by a goroutine), since cancelling on return would then
// break the code that uses it later.
func lostCancelFix(p *lens.Pass, g *syntax.GoFile, as *ast.AssignStmt, cancel *ast.Ident, body ast.Node, stack []ast.Node) *review.Fix {
	switch stack[len(stack)-2].(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return nil // an if or switch initialiser
	}
	for i := len(stack) - 2; i >= 0; i-- {
		if _, ok := stack[i].(*ast.FuncLit); ok {
			break
		}
		switch stack[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return nil
		}
	}
	ctx, ok := as.Lhs[0].(*ast.Ident)
	if !ok || ctx.Name == "_" || escapes(body, ctx.Name) {
		return nil
	}
	end := g.Line(as.End())
	name := cancel.Name
	var edits []review.TextEdit
	if name == "_" {
		name = "cancel"
		if mentions(body, name) {
			return nil
		}
		edits = append(edits, review.TextEdit{
			Span:    review.Span{Path: p.File.Path, StartLine: g.Line(cancel.Pos()), StartCol: g.Col(cancel.Pos()), EndLine: g.Line(cancel.Pos()), EndCol: g.Col(cancel.End())},
			NewText: name,
		})
		if as.Tok == token.ASSIGN {
			return nil // `ctx, _ = ...` would need a declaration of cancel
		}
	}
	edits = append(edits, review.TextEdit{
		Span:    review.Span{Path: p.File.Path, StartLine: end + 1, StartCol: 1, EndLine: end + 1, EndCol: 1},
		NewText: lens.GoIndent(p.Line(g.Line(as.Pos()))) + "defer " + name + "()\n",
	})
	return &review.Fix{Title: "Defer " + name + "()", Edits: edits}
}

// escapes reports whether the context variable leaves the function: it is
// returned, assigned to something else, sent, or used in a goroutine.
func escapes(body ast.Node, name string) bool {
	esc := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				esc = esc || mentions(r, name)
			}
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				if id, ok := r.(*ast.Ident); ok && id.Name == name {
					esc = true
				}
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Value.(*ast.Ident); ok && id.Name == name {
				esc = true
			}
		case *ast.SendStmt:
			esc = esc || mentions(n.Value, name)
		case *ast.GoStmt:
			esc = esc || mentions(n, name)
		}
		return !esc
	})
	return esc
}

// mentions reports whether n contains an identifier called name.
func mentions(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}
