package functional

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// ContextBackground finds context.Background() and context.TODO() in
// functions that were given a context.
var ContextBackground = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/context-background",
		Perspective: review.Functional,
		Category:    CatContract,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthStandard,
		Fixable:     true,
		Summary:     "Fresh context instead of the one passed in",
		Doc: "A function that receives a context.Context and then calls context.Background() or context.TODO() " +
			"cuts the work it starts loose from its caller: a cancelled request, a client that went away or a " +
			"deadline no longer stops the database query or HTTP call, and request-scoped values (trace ids, " +
			"credentials) are lost. Pass the parameter on instead. Not reported: functions whose context " +
			"parameter is unnamed or `_`, goroutines and deferred closures (work that must outlive the call; " +
			"context.WithoutCancel(ctx) is the better tool there), a fresh context made after the function " +
			"waited on ctx.Done() (graceful shutdown needs one), a fresh context that replaces a nil ctx or is only " +
			"compared with it, and variables named for shutdown or cleanup.",
		Bad:  "func (s *Store) Get(ctx context.Context, id string) (*Item, error) {\n\trow := s.db.QueryRowContext(context.Background(), q, id)",
		Good: "func (s *Store) Get(ctx context.Context, id string) (*Item, error) {\n\trow := s.db.QueryRowContext(ctx, q, id)",
	},
	Run: runContextBackground,
}

func runContextBackground(p *lens.Pass) {
	g := syntax.Go(p.File)
	names, decls := lens.GoUses(p.File, []string{"context"}, "Background()", "TODO()")
	pkg := lens.NameOf(names, "context")
	for _, d := range decls {
		lens.GoInspectStack(d, func(n ast.Node, stack []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !lens.IsGoPkgCall(call, pkg, "Background", "TODO") || !p.Changed(g.Line(call.Pos())) {
				return true
			}
			checkContextBackground(p, g, pkg, call, stack)
			return true
		})
	}
}

func checkContextBackground(p *lens.Pass, g *syntax.GoFile, pkg string, call *ast.CallExpr, stack []ast.Node) {
	var param string
	var fn ast.Node
	for i := len(stack) - 2; i >= 0 && param == ""; i-- {
		ft, body := lens.GoFuncBody(stack[i])
		if body == nil {
			continue
		}
		if _, ok := stack[i].(*ast.FuncLit); ok && i >= 2 {
			switch stack[i-2].(type) {
			case *ast.GoStmt, *ast.DeferStmt:
				// Detached or cleanup work may rightly outlive ctx.
				return
			}
		}
		param, fn = contextParam(ft, pkg), stack[i]
	}
	if param == "" || detachedName(stack) || waitedOnDone(fn, param, call.Pos()) || nilGuard(p.File, stack, param) {
		return
	}
	line := g.Line(call.Pos())
	_, name, _ := lens.GoCallee(call)
	p.Report(lens.Report{
		Line: line, Col: g.Col(call.Pos()), EndLine: g.Line(call.End()), EndCol: g.Col(call.End()),
		Symbol: g.EnclosingFunc(line),
		Message: fmt.Sprintf("%s.%s() ignores the function's %s parameter: when the caller is cancelled or its deadline "+
			"passes (a client disconnects, a timeout fires), the work started here keeps running, and request-scoped "+
			"values such as trace ids are lost.", pkg, name, param),
		Suggested: fmt.Sprintf("Pass %s instead of %s.%s(); if the work must outlive the caller, use %s.WithoutCancel(%s).", param, pkg, name, pkg, param),
		Fix: &review.Fix{
			Title: fmt.Sprintf("Use %s", param),
			Edits: []review.TextEdit{{
				Span:    review.Span{Path: p.File.Path, StartLine: line, StartCol: g.Col(call.Pos()), EndLine: g.Line(call.End()), EndCol: g.Col(call.End())},
				NewText: param,
			}},
		},
	})
}

// contextParam returns the name of the first named context.Context
// parameter of a function, or "".
func contextParam(ft *ast.FuncType, pkg string) string {
	if ft == nil || ft.Params == nil {
		return ""
	}
	for _, f := range ft.Params.List {
		sel, ok := f.Type.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Context" {
			continue
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != pkg {
			continue
		}
		for _, n := range f.Names {
			if n.Name != "_" {
				return n.Name
			}
		}
	}
	return ""
}

// nilGuard reports a fresh context that replaces a nil one (`if ctx ==
// nil { ctx = context.Background() }`) or is only compared with the
// parameter.
func nilGuard(f *review.File, stack []ast.Node, param string) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.BinaryExpr:
			if i == len(stack)-2 && (n.Op == token.EQL || n.Op == token.NEQ) {
				return true
			}
		case *ast.IfStmt:
			if c := strings.ReplaceAll(lens.GoText(f, n.Cond), " ", ""); strings.Contains(c, param+"==nil") {
				return true
			}
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
	}
	return false
}

// detachedName reports a statement that assigns the fresh context to a
// variable named for shutdown or cleanup work.
func detachedName(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		as, ok := stack[i].(*ast.AssignStmt)
		if !ok {
			continue
		}
		for _, e := range as.Lhs {
			if id, ok := e.(*ast.Ident); ok {
				n := strings.ToLower(id.Name)
				for _, w := range []string{"shutdown", "cleanup", "teardown", "detach", "background", "bg"} {
					if strings.Contains(n, w) {
						return true
					}
				}
			}
		}
		return false
	}
	return false
}

// waitedOnDone reports whether fn calls param.Done() before pos: the
// context is finished by then, and shutdown work needs a fresh one.
func waitedOnDone(fn ast.Node, param string, pos token.Pos) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= pos {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Done" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == param {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
