package functional

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// LoopVarCapture finds closures that outlive a loop iteration and capture
// the loop variable, in code compiled with the pre-Go 1.22 loop semantics.
var LoopVarCapture = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/loop-var-capture",
		Perspective: review.Functional,
		Category:    CatConcurrency,
		Severity:    review.SeverityHigh,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthStandard,
		// The finding depends on the go directive of the module's go.mod.
		CrossFile: true,
		Inputs:    []string{"go.mod"},
		Fixable:   true,
		Summary:   "Loop variable captured by a goroutine or deferred closure",
		Doc: "Before Go 1.22 a for or range loop has one variable for all its iterations. A goroutine, deferred " +
			"closure, errgroup.Go callback or parallel subtest that refers to it runs after the loop has moved on " +
			"and usually sees the last value, so work is done on the wrong element, several times over. Copy the " +
			"variable at the top of the body (`v := v`), pass it as an argument, or raise the go directive to 1.22 " +
			"or later. The rule runs only when the nearest go.mod above the file declares a go version below 1.22 " +
			"(or the file's //go:build line selects one); without a go.mod it assumes the modern semantics and " +
			"reports nothing. Only closures that can outlive the iteration count: a go statement, a defer of the " +
			"loop's own function (a defer inside a function literal of the body, such as a serial subtest, runs " +
			"when that literal returns), a g.Go(...) callback and a t.Run subtest that calls t.Parallel. A " +
			"goroutine or g.Go callback that the iteration waits for (a later statement of its block calls Wait) " +
			"does not, and neither does a closure stored and called later, which the rule does not follow. " +
			"Closures that take the variable as a parameter, and loops that already copy it, are not reported.",
		Bad:  "for _, job := range jobs {\n\tgo func() {\n\t\trun(job)\n\t}()\n}",
		Good: "for _, job := range jobs {\n\tjob := job\n\tgo func() {\n\t\trun(job)\n\t}()\n}",
	},
	Run: runLoopVarCapture,
}

// legacyLoopVars reports whether the file compiles with per-loop (pre-Go
// 1.22) loop variables, and the version that decides it.
func legacyLoopVars(p *lens.Pass, file *ast.File) (bool, string) {
	// A //go:build line sets the file's version, never below go1.21 (as
	// go/types does).
	if v, ok := strings.CutPrefix(file.GoVersion, "go1."); ok {
		minor, err := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
		if err == nil {
			return max(minor, 21) < 22, "go1." + strconv.Itoa(max(minor, 21)) + " (//go:build)"
		}
	}
	mod := lens.GoModuleOf(p.ChangeSet, p.File.Path)
	if minor := mod.GoMinor(); minor >= 0 && minor < 22 {
		return true, "go " + mod.GoVersion + " (" + pathJoin(mod.Dir, "go.mod") + ")"
	}
	return false, ""
}

func pathJoin(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

func runLoopVarCapture(p *lens.Pass) {
	if !p.Contains("for") || !p.Contains("func(") {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	decls := lens.GoChangedDecls(p.File)
	if len(decls) == 0 {
		return
	}
	legacy, version := legacyLoopVars(p, g.File)
	if !legacy {
		return
	}
	for _, d := range decls {
		ast.Inspect(d.Decl, func(n ast.Node) bool {
			vars, body := loopVars(n)
			if len(vars) > 0 {
				checkLoopCapture(p, g, n, vars, body, version)
			}
			return true
		})
	}
}

// loopVars returns the variables a loop declares and its body.
func loopVars(n ast.Node) ([]*ast.Ident, *ast.BlockStmt) {
	var vars []*ast.Ident
	add := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			vars = append(vars, id)
		}
	}
	switch n := n.(type) {
	case *ast.RangeStmt:
		if n.Tok == token.DEFINE {
			add(n.Key)
			if n.Value != nil {
				add(n.Value)
			}
		}
		return vars, n.Body
	case *ast.ForStmt:
		if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, e := range as.Lhs {
				add(e)
			}
		}
		return vars, n.Body
	}
	return nil, nil
}

// closureCapture is a closure of a loop body that outlives the iteration.
type closureCapture struct {
	lit  *ast.FuncLit
	kind string // "goroutine", "deferred closure", ...
}

func checkLoopCapture(p *lens.Pass, g *syntax.GoFile, loop ast.Node, vars []*ast.Ident, body *ast.BlockStmt, version string) {
	// Variables copied in the body (v := v) before a closure are safe from
	// there on.
	type copyAt struct {
		name string
		pos  token.Pos
	}
	var copies []copyAt
	var closures []closureCapture
	lits, joined := syncClosures(body)
	ast.Inspect(body, func(n ast.Node) bool {
		if joined[n] {
			return true // waited for within the iteration
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						copies = append(copies, copyAt{id.Name, id.Pos()})
					}
				}
			}
		case *ast.GoStmt:
			if lit, ok := n.Call.Fun.(*ast.FuncLit); ok {
				closures = append(closures, closureCapture{lit, "goroutine"})
			}
		case *ast.DeferStmt:
			// A defer inside a function literal of the body runs when that
			// function returns, not after the loop.
			if lit, ok := n.Call.Fun.(*ast.FuncLit); ok && !insideAny(lits, n.Pos()) {
				closures = append(closures, closureCapture{lit, "deferred closure"})
			}
		case *ast.CallExpr:
			if lit := asyncCallback(n); lit != nil {
				_, name, _ := lens.GoCallee(n)
				kind := "errgroup callback"
				if name == "Run" {
					kind = "parallel subtest"
				}
				closures = append(closures, closureCapture{lit, kind})
			}
		}
		return true
	})
	type capture struct {
		closureCapture
		names []string
	}
	var found []capture
	for _, c := range closures {
		var names []string
		for _, v := range vars {
			copied := false
			for _, cp := range copies {
				if cp.name == v.Name && cp.pos < c.lit.Pos() {
					copied = true
				}
			}
			if !copied && !declares(c.lit.Type.Params, v.Name) && refersTo(c.lit.Body, v.Name) {
				names = append(names, v.Name)
			}
		}
		if len(names) > 0 {
			found = append(found, capture{c, names})
		}
	}
	if len(found) == 0 {
		return
	}
	// Report once per loop, on the first changed capturing closure, else
	// on the loop header.
	first := found[0]
	line := 0
	for _, c := range found {
		if l := g.Line(c.lit.Pos()); p.Changed(l) {
			first, line = c, l
			break
		}
	}
	if line == 0 {
		if l := g.Line(loop.Pos()); p.Changed(l) {
			line = l
		} else {
			return
		}
	}
	var all []string
	for _, c := range found {
		for _, n := range c.names {
			if !contains(all, n) {
				all = append(all, n)
			}
		}
	}
	list := strings.Join(all, ", ")
	more := ""
	if len(found) > 1 {
		more = fmt.Sprintf(" (%d closures of this loop do so)", len(found))
	}
	p.Report(lens.Report{
		Line:   line,
		Symbol: g.EnclosingFunc(line),
		Message: fmt.Sprintf("The %s captures the loop variable %s%s. The file compiles with %s, where all iterations share "+
			"one variable: the closure runs after the loop has moved on and usually sees the last value, so it works on "+
			"the wrong element.", first.kind, list, more, version),
		Suggested: fmt.Sprintf("Copy the variable at the top of the loop body (`%s := %s`), pass it to the closure as an "+
			"argument, or raise the go directive to 1.22 or later.", list, list),
		Fix: loopCopyFix(p, g, body, all),
	})
}

// syncClosures returns the ranges of the function literals of a loop body,
// and the goroutines and g.Go(...) calls that the iteration waits for: a
// later statement of the same block calls Wait (a sync.WaitGroup, an
// errgroup), so they end before the next iteration.
func syncClosures(body *ast.BlockStmt) (lits [][2]token.Pos, joined map[ast.Node]bool) {
	joined = map[ast.Node]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			lits = append(lits, [2]token.Pos{n.Pos(), n.End()})
		case *ast.BlockStmt:
			for i, st := range n.List {
				var async ast.Node
				switch st := st.(type) {
				case *ast.GoStmt:
					async = st
				case *ast.ExprStmt:
					if call, ok := st.X.(*ast.CallExpr); ok && asyncCallback(call) != nil {
						async = call
					}
				}
				if async != nil && waits(n.List[i+1:]) {
					joined[async] = true
				}
			}
		}
		return true
	})
	return lits, joined
}

// waits reports whether one of stmts calls a Wait method.
func waits(stmts []ast.Stmt) bool {
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 0 {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// insideAny reports whether pos lies strictly inside one of the ranges.
func insideAny(ranges [][2]token.Pos, pos token.Pos) bool {
	for _, r := range ranges {
		if pos > r[0] && pos < r[1] {
			return true
		}
	}
	return false
}

// asyncCallback returns the function literal passed to g.Go(...) or to
// t.Run(name, ...) when the subtest calls t.Parallel.
func asyncCallback(call *ast.CallExpr) *ast.FuncLit {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	lit, ok := call.Args[len(call.Args)-1].(*ast.FuncLit)
	if !ok {
		return nil
	}
	switch sel.Sel.Name {
	case "Go":
		return lit
	case "Run":
		if len(call.Args) == 2 && callsParallel(lit.Body) {
			return lit
		}
	}
	return nil
}

func callsParallel(body *ast.BlockStmt) bool {
	for _, s := range body.List {
		if es, ok := s.(*ast.ExprStmt); ok {
			if call, ok := es.X.(*ast.CallExpr); ok {
				if _, name, _ := lens.GoCallee(call); name == "Parallel" {
					return true
				}
			}
		}
	}
	return false
}

// declares reports whether a field list (parameters) declares name.
func declares(fl *ast.FieldList, name string) bool {
	if fl == nil {
		return false
	}
	for _, f := range fl.List {
		for _, n := range f.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}

// refersTo reports whether n uses the variable name: an identifier that is
// neither a selected field nor a composite-literal key.
func refersTo(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(x ast.Node) bool {
				if id, ok := x.(*ast.Ident); ok && id.Name == name {
					found = true
				}
				return !found
			})
			return false
		case *ast.KeyValueExpr:
			if _, ok := n.Key.(*ast.Ident); ok {
				found = found || refersTo(n.Value, name)
				return false
			}
		case *ast.Ident:
			found = n.Name == name
		}
		return !found
	})
	return found
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// loopCopyFix inserts `v := v` as the first statement of the loop body,
// when the body's first statement starts on its own line.
func loopCopyFix(p *lens.Pass, g *syntax.GoFile, body *ast.BlockStmt, names []string) *review.Fix {
	if len(body.List) == 0 {
		return nil
	}
	open, first := g.Line(body.Lbrace), g.Line(body.List[0].Pos())
	if first <= open {
		return nil
	}
	list := strings.Join(names, ", ")
	at := open + 1
	return &review.Fix{
		Title: fmt.Sprintf("Copy %s at the top of the loop body", list),
		Edits: []review.TextEdit{{
			Span:    review.Span{Path: p.File.Path, StartLine: at, StartCol: 1, EndLine: at, EndCol: 1},
			NewText: lens.GoIndent(p.Line(first)) + list + " := " + list + "\n",
		}},
	}
}
