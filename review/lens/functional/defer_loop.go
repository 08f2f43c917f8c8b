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

// DeferInLoop finds defer statements directly inside a loop body.
var DeferInLoop = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/defer-in-loop",
		Perspective: review.Functional,
		Category:    CatLogic,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthStandard,
		Summary:     "defer inside a loop",
		Doc: "A deferred call runs when the surrounding function returns, not at the end of the loop iteration. " +
			"A defer in a loop body therefore holds every iteration's resource (open files, rows, connections) " +
			"until the function ends, which exhausts file descriptors on long loops; a deferred Unlock leaves the " +
			"mutex locked, so the next iteration's Lock deadlocks. Move the body into a function (or a function " +
			"literal called per iteration) so the defer runs each time, or release the resource explicitly. A " +
			"defer inside a function literal in the loop is fine and not reported, nor is a defer followed in the " +
			"same block by a return, panic or labelled break, since the loop then ends after that iteration, nor are " +
			"test files, whose loops run over a few cases (except for a deferred Unlock). An Unlock of a mutex " +
			"reached through the loop variable (a chain of parents locked in turn) is reported as a held " +
			"resource, not a deadlock.",
		Bad:  "for _, p := range paths {\n\tf, err := os.Open(p)\n\tif err != nil {\n\t\treturn err\n\t}\n\tdefer f.Close()\n}",
		Good: "for _, p := range paths {\n\tif err := process(p); err != nil { // process defers f.Close()\n\t\treturn err\n\t}\n}",
	},
	Run: runDeferInLoop,
}

func runDeferInLoop(p *lens.Pass) {
	if !p.Contains("defer") || !p.Contains("for") || !hasLoop(p.Lines()) {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	decls := lens.GoDeclsWithChangedLine(p.File, func(line string) bool {
		return strings.HasPrefix(strings.TrimSpace(line), "defer")
	})
	for _, d := range decls {
		lens.GoInspectStack(d, func(n ast.Node, stack []ast.Node) bool {
			if ds, ok := n.(*ast.DeferStmt); ok && p.Changed(g.Line(ds.Pos())) {
				checkDeferInLoop(p, g, ds, stack)
			}
			return true
		})
	}
}

// hasLoop reports whether a line of the file starts a for statement: the
// cheap pre-filter of the rule.
func hasLoop(lines []string) bool {
	for _, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "for ") || strings.HasPrefix(t, "for{") {
			return true
		}
		if i := strings.Index(t, ": for "); i > 0 && !strings.Contains(t[:i], " ") {
			return true // a labelled loop
		}
	}
	return false
}

func checkDeferInLoop(p *lens.Pass, g *syntax.GoFile, ds *ast.DeferStmt, stack []ast.Node) {
	// stack ends with ds; its parent holds the statement list.
	var loop ast.Node
	switched := false // a switch or select lies between the defer and the loop
	for i := len(stack) - 2; i >= 0 && loop == nil; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return
		case *ast.ForStmt, *ast.RangeStmt:
			loop = n
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			switched = true
		}
	}
	if loop == nil || endsIteration(stmtsAfter(stack[len(stack)-2], ds), switched) {
		return
	}
	qual, name, _ := lens.GoCallee(ds.Call)
	// A deferred Unlock deadlocks the next iteration only when that locks
	// the same mutex, not one reached through the loop variable (a chain
	// of parents locked in turn).
	unlock := (name == "Unlock" || name == "RUnlock") && !loopVarRoot(loop, qual)
	if review.IsTestPath(p.File.Path) && !unlock {
		return // loops over a few test cases hold a few resources
	}
	line := g.Line(ds.Pos())
	call := lens.GoText(p.File, ds.Call)
	fn := "the function"
	if s := g.EnclosingFunc(line); s != "" {
		fn = s
	}
	r := lens.Report{
		Line:   line,
		Symbol: g.EnclosingFunc(line),
		Message: fmt.Sprintf("`defer %s` in a loop runs only when %s returns, not at the end of each iteration: every "+
			"iteration's resource stays held until then, so a long loop can exhaust file descriptors or connections.", call, fn),
		Suggested: "Move the loop body into a function (or a function literal called once per iteration) so the defer " +
			"runs each time, or release the resource explicitly at the end of the iteration.",
	}
	if unlock {
		r.Severity = review.SeverityHigh
		r.Message = fmt.Sprintf("`defer %s` in a loop runs only when %s returns: the lock taken in the first iteration is "+
			"still held when the next iteration locks again, which deadlocks.", call, fn)
		r.Suggested = "Unlock explicitly at the end of the iteration, or move the locked section into a function that defers the unlock."
	}
	p.Report(r)
}

// loopVarRoot reports whether the receiver chain qual ("parent.mu")
// starts from a variable the loop declares or updates.
func loopVarRoot(loop ast.Node, qual string) bool {
	root, _, _ := strings.Cut(qual, ".")
	if root == "" {
		return false
	}
	vars, _ := loopVars(loop)
	for _, v := range vars {
		if v.Name == root {
			return true
		}
	}
	if fs, ok := loop.(*ast.ForStmt); ok && fs.Post != nil {
		return mentions(fs.Post, root)
	}
	return false
}

// stmtList returns the statements of a block or of a case or select
// clause, or nil for any other node.
func stmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}

// stmtsAfter returns the statements that follow s in its list.
func stmtsAfter(parent ast.Node, s ast.Stmt) []ast.Stmt {
	list := stmtList(parent)
	for i, x := range list {
		if x == s {
			return list[i+1:]
		}
	}
	return nil
}

// endsIteration reports whether one of stmts leaves the loop for good: a
// return, a panic, a goto, or a break that targets the loop.
func endsIteration(stmts []ast.Stmt, switched bool) bool {
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.BranchStmt:
			if s.Tok == token.GOTO || s.Tok == token.BREAK && (s.Label != nil || !switched) {
				return true
			}
		case *ast.ExprStmt:
			if isPanic(s) {
				return true
			}
		}
	}
	return false
}

// isPanic reports a statement that calls the panic builtin.
func isPanic(s *ast.ExprStmt) bool {
	call, ok := s.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := call.Fun.(*ast.Ident)
	return ok && id.Name == "panic"
}
