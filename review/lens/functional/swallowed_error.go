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

// SwallowedError finds `if err != nil { return nil }`: the failure is
// reported as success.
var SwallowedError = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/swallowed-error",
		Perspective: review.Functional,
		Category:    CatErrors,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthBasic,
		Summary:     "Error checked, then success returned",
		Doc: "`if err != nil { return nil }` in a function that returns an error tells the caller all went well " +
			"when it did not: the work is silently skipped or half done, and the cause is gone. Return the error, " +
			"wrapped with context (`return fmt.Errorf(\"load config: %w\", err)`). Reported only when the block " +
			"does nothing with err (no log, no wrap, no errors.Is/As, no assignment) and its return gives nil as " +
			"the error; conditions that single out an error (`errors.Is(err, fs.ErrNotExist)`, `err == io.EOF`), " +
			"blocks with a comment line (a deliberate choice is usually explained), and tests are left alone.",
		Bad:  "cfg, err := load(path)\nif err != nil {\n\treturn nil\n}",
		Good: "cfg, err := load(path)\nif err != nil {\n\treturn fmt.Errorf(\"load %s: %w\", path, err)\n}",
	},
	Run: runSwallowedError,
}

func runSwallowedError(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) || !p.Contains("!= nil") {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	for _, d := range lens.GoDeclsWithChangedLine(p.File, func(line string) bool {
		return strings.Contains(line, "return") && strings.Contains(line, "nil")
	}) {
		// Functions, and function literals of package variables (tables
		// of migrations or handlers), for which fd is nil.
		fd, _ := d.(*ast.FuncDecl)
		var root ast.Node = d
		if fd != nil {
			if fd.Body == nil {
				continue
			}
			root = fd.Body
		}
		lens.GoInspectStack(root, func(n ast.Node, stack []ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok && len(stack) >= 2 {
				if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && call.Fun != lit {
					return false // callbacks (walk functions) return nil to go on
				}
			}
			is, ok := n.(*ast.IfStmt)
			if !ok || !inErrorFunc(stack[:len(stack)-1], fd) {
				return true
			}
			errName := errNotNil(is.Cond)
			if errName == "" || len(is.Body.List) == 0 || uses(is.Body, errName) || commented(p, g, is.Body) ||
				logs(is.Body) || existenceCheck(is, stack) {
				return true
			}
			ret, ok := is.Body.List[len(is.Body.List)-1].(*ast.ReturnStmt)
			if !ok || len(ret.Results) == 0 {
				return true
			}
			if last, ok := ret.Results[len(ret.Results)-1].(*ast.Ident); !ok || last.Name != "nil" {
				return true
			}
			line := g.Line(ret.Pos())
			if !p.Changed(line) {
				return true
			}
			p.Report(lens.Report{
				Line: line, Symbol: g.EnclosingFunc(line),
				Message: fmt.Sprintf("The function returns a nil error right after `if %s != nil` (line %d): the caller is "+
					"told the call succeeded, and the failure and its cause are lost.", errName, g.Line(is.Pos())),
				Suggested: fmt.Sprintf("Return the error with context: `return fmt.Errorf(\"...: %%w\", %s)`.", errName),
			})
			return true
		})
	}
}

// errNotNil returns x for a condition `x != nil` where x is named like an
// error (err, lookupErr), or "".
func errNotNil(cond ast.Expr) string {
	b, ok := cond.(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return ""
	}
	x, ok := b.X.(*ast.Ident)
	if y, isNil := b.Y.(*ast.Ident); !ok || !isNil || y.Name != "nil" {
		return ""
	}
	if x.Name == "err" || strings.HasSuffix(x.Name, "Err") {
		return x.Name
	}
	return ""
}

// logs reports a block that logs or prints: the failure is reported,
// only not to the caller, which is a choice.
func logs(block *ast.BlockStmt) bool {
	found := false
	ast.Inspect(block, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			name := strings.ToLower(sel.Sel.Name)
			for _, w := range []string{"log", "print", "warn", "error", "info", "debug", "fatal", "panic", "report", "record", "emit"} {
				if strings.HasPrefix(name, w) {
					found = true
				}
			}
			if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "log" || x.Name == "slog" || strings.Contains(strings.ToLower(x.Name), "log")) {
				found = true
			}
		}
		return !found
	})
	return found
}

// existenceCheck reports `if _, err := os.Stat(p); err != nil`: a missing
// file is often nothing to do.
func existenceCheck(is *ast.IfStmt, stack []ast.Node) bool {
	as, ok := is.Init.(*ast.AssignStmt)
	if !ok && len(stack) >= 2 {
		// err from the statement before the if.
		list := stmtList(stack[len(stack)-2])
		for i, s := range list {
			if s == is && i > 0 {
				as, ok = list[i-1].(*ast.AssignStmt)
			}
		}
	}
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok {
		return false
	}
	_, name, _ := lens.GoCallee(call)
	return name == "Stat" || name == "Lstat"
}

// uses reports whether name appears in node.
func uses(node ast.Node, name string) bool {
	found := false
	ast.Inspect(node, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// commented reports a comment on a line of its own inside block: the
// explanation of a deliberate choice.
func commented(p *lens.Pass, g *syntax.GoFile, block *ast.BlockStmt) bool {
	for _, cg := range g.File.Comments {
		if cg.Pos() > block.Lbrace && cg.End() < block.Rbrace {
			line := p.Line(g.Line(cg.Pos()))
			if strings.HasPrefix(strings.TrimSpace(line), "//") || strings.HasPrefix(strings.TrimSpace(line), "/*") {
				return true
			}
		}
	}
	return false
}
