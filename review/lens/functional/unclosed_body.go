package functional

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/goapi"
	"github.com/reviewls/reviewls/review/syntax"
)

// UnclosedBody finds HTTP responses whose body is never closed.
var UnclosedBody = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/unclosed-body",
		Perspective: review.Functional,
		Category:    CatContract,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthStandard,
		Summary:     "HTTP response body never closed",
		Doc: "A response from http.Get, Post, Head, PostForm or a Client's Do holds its connection until the body " +
			"is closed: without `defer resp.Body.Close()` every call leaks a connection and its goroutines, and a " +
			"busy client runs out of file descriptors or stalls on the connection pool. Close the body once the " +
			"error is checked. The response is recognised from the call's signature (the standard library's index, " +
			"the types of the function's values), so wrappers returning *http.Response count. Not reported: a " +
			"response (or its body) that is returned, stored, sent or passed to another function (which may close " +
			"it; a body passed to io.ReadAll or json.NewDecoder is only read), and tests. A change that removes " +
			"the Close is reported on the call, whose line it did not touch.",
		Bad:  "resp, err := client.Do(req)\nif err != nil {\n\treturn err\n}\nreturn json.NewDecoder(resp.Body).Decode(&v)",
		Good: "resp, err := client.Do(req)\nif err != nil {\n\treturn err\n}\ndefer resp.Body.Close()\nreturn json.NewDecoder(resp.Body).Decode(&v)",
	},
	Run: runUnclosedBody,
}

const httpResponse = "*net/http.Response"

func runUnclosedBody(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) || !p.Contains("http") {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	imports := goapi.Imports(g.File)
	std, pkg := goapi.Std(), goapi.Package(p.ChangeSet, p.File)
	for _, d := range g.File.Decls {
		// Every function: a change may only remove a Close from one.
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		t := newTyper(std, pkg, imports, nil, fd)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				t.spec(n)
			case *ast.AssignStmt:
				if len(n.Rhs) == 1 && len(n.Lhs) >= 1 {
					if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
						name, res, ok := t.callee(call)
						line := g.Line(n.Pos())
						v := ""
						if id, ok := n.Lhs[0].(*ast.Ident); ok {
							v = id.Name
						}
						removed := 0
						if ok && len(res) > 0 && res[0] == httpResponse && !p.Changed(line) {
							removed = removedClose(p.File, v, fd, g)
						}
						if ok && len(res) > 0 && res[0] == httpResponse && (p.Changed(line) || removed > 0) {
							if v == "_" || v != "" && !closedOrHanded(fd.Body, v, n, imports, std) {
								report := "the body of the response from " + name + " is never closed"
								if v == "_" {
									report = "the response from " + name + " is discarded with `_`, so its body can never be closed"
								}
								p.Report(lens.Report{
									Line: line, Symbol: g.EnclosingFunc(line),
									Message: "In this function " + report + ": each call leaks a connection, and a busy " +
										"client runs out of file descriptors or stalls on the pool.",
									Suggested: "Close it once the error is checked: `defer resp.Body.Close()`.",
									Removed:   removed,
								})
							}
						}
					}
				}
				t.assign(n)
			}
			return true
		})
	}
}

// removedClose returns the line before which the change removed a line
// closing v's body inside function fd (the call is then what the change
// made worse, though its own line did not change), or 0.
func removedClose(f *review.File, v string, fd *ast.FuncDecl, g *syntax.GoFile) int {
	if v == "" || v == "_" {
		return 0
	}
	from, to := g.Line(fd.Pos()), g.Line(fd.End())
	at := 0
	f.EachRemoved(func(before int, text string) {
		if at == 0 && before >= from && before <= to && strings.Contains(text, v+".Body.Close()") {
			at = before
		}
	})
	return at
}

// closedOrHanded reports whether, anywhere in body, v.Body is closed or v
// or v.Body leaves the function's hands: returned, assigned, stored in a
// literal, sent, or passed to a call (v.Body to a standard library
// function is only read, not handed on).
func closedOrHanded(body *ast.BlockStmt, v string, def *ast.AssignStmt, imports map[string]string, std *goapi.API) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && id.Name == v || syntax.GoChain(e) == v+".Body"
	}
	// stdCall reports a call of a standard library function, which reads
	// a body it is given but does not close it.
	stdCall := func(call *ast.CallExpr) bool {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok {
			return false
		}
		_, known := std.Funcs[imports[x.Name]+"."+sel.Sel.Name]
		return known
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if syntax.GoChain(n.Fun) == v+".Body.Close" {
				found = true
			}
			for _, a := range n.Args {
				if is(a) && (syntax.GoChain(a) == v || !stdCall(n)) {
					found = true
				}
			}
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if is(r) {
					found = true
				}
			}
		case *ast.AssignStmt:
			if n != def {
				for _, r := range n.Rhs {
					if is(r) {
						found = true
					}
				}
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				if is(e) {
					found = true
				}
			}
		case *ast.SendStmt:
			found = is(n.Value)
		case *ast.UnaryExpr:
			found = n.Op == token.AND && is(n.X)
		}
		return !found
	})
	return found
}
