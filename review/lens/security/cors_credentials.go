package security

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

// CORSCredentials finds CORS setups that let any site make credentialed
// requests.
var CORSCredentials = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/cors-credentials",
		Perspective: review.Security,
		Category:    CatAuth,
		Severity:    review.SeverityHigh,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthBasic,
		Skill:       "CWE-942",
		Summary:     "CORS allows any origin with credentials",
		Doc: "`Access-Control-Allow-Credentials: true` lets a page of another origin send the user's cookies and read " +
			"the response. Combined with an `Access-Control-Allow-Origin` copied from the request's Origin header, or " +
			"with a CORS middleware that allows every origin and reflects it (rs/cors and go-chi/cors with " +
			"`AllowedOrigins: []string{\"*\"}` and AllowCredentials, an AllowOriginFunc that always returns true), any " +
			"web site the user visits can call the API as the user and read their data (High). A literal `*` with " +
			"credentials (set by hand, or gin-contrib/cors and echo with AllowAllOrigins or `\"*\"`) is refused by " +
			"browsers, so credentialed calls fail and the usual \"fix\" is to reflect the origin (Medium). Check the " +
			"origin against an allow-list before echoing it, or drop credentials for public endpoints. Headers are " +
			"matched within one function; a reflected origin that the function checks (a map lookup, slices.Contains, " +
			"strings.HasSuffix, a comparison with a configured value, a call of any validator) is not reported, nor " +
			"are test files.",
		Bad:  "w.Header().Set(\"Access-Control-Allow-Origin\", r.Header.Get(\"Origin\"))\nw.Header().Set(\"Access-Control-Allow-Credentials\", \"true\")",
		Good: "if origin := r.Header.Get(\"Origin\"); allowedOrigins[origin] {\n\tw.Header().Set(\"Access-Control-Allow-Origin\", origin)\n\tw.Header().Set(\"Access-Control-Allow-Credentials\", \"true\")\n}",
	},
	Run: runCORSCredentials,
}

// corsPackages are the CORS middlewares whose options the rule reads, by
// whether an allow-all origin list is reflected with credentials (true)
// or answered with a literal "*" (false).
var corsPackages = map[string]bool{
	"github.com/rs/cors":                     true,
	"github.com/go-chi/cors":                 true,
	"github.com/gin-contrib/cors":            false,
	"github.com/labstack/echo/v4/middleware": false,
	"github.com/labstack/echo/middleware":    false,
}

// originGetRE matches a read of the request's Origin header.
var originGetRE = regexp.MustCompile(`(?i)(?:\.Get|\.GetHeader|\.Header|\.Peek)\(\s*"origin"\s*\)|\.Header\[\s*"Origin"\s*\]`)

func runCORSCredentials(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) || !p.Contains("Credentials") {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	if p.Contains("Access-Control-Allow-Credentials") {
		corsHeaders(p, g)
	}
	if p.Contains("AllowCredentials") {
		corsOptions(p, g)
	}
}

// corsHeader is one header set in a function.
type corsHeader struct {
	call  *ast.CallExpr
	value ast.Expr
}

// corsHeaders checks the Access-Control-Allow-* headers each function sets.
func corsHeaders(p *lens.Pass, g *syntax.GoFile) {
	decls := lens.GoChangedDecls(p.File)
	for _, d := range decls {
		// Each function, closures included, on its own: headers set in one
		// handler.
		ast.Inspect(d.Decl, func(n ast.Node) bool {
			_, body := lens.GoFuncBody(n)
			if body == nil {
				return true
			}
			var origin, creds []corsHeader
			ast.Inspect(body, func(m ast.Node) bool {
				if _, inner := lens.GoFuncBody(m); inner != nil {
					return false // a closure is its own function
				}
				call, ok := m.(*ast.CallExpr)
				if !ok || len(call.Args) != 2 {
					return true
				}
				_, name, _ := lens.GoCallee(call)
				if name != "Set" && name != "Add" && name != "Header" && name != "SetHeader" {
					return true
				}
				key, ok := goStringLit(call.Args[0])
				switch {
				case !ok:
				case strings.EqualFold(key, "Access-Control-Allow-Origin"):
					origin = append(origin, corsHeader{call, call.Args[1]})
				case strings.EqualFold(key, "Access-Control-Allow-Credentials"):
					if v, ok := goStringLit(call.Args[1]); ok && strings.EqualFold(v, "true") {
						creds = append(creds, corsHeader{call, call.Args[1]})
					}
				}
				return true
			})
			if len(origin) == 0 || len(creds) == 0 {
				return true
			}
			for _, o := range origin {
				checkCORSOrigin(p, g, body, o, creds[0])
			}
			return true
		})
	}
}

func checkCORSOrigin(p *lens.Pass, g *syntax.GoFile, body *ast.BlockStmt, o, cred corsHeader) {
	line := g.Line(o.call.Pos())
	if !p.Changed(line) {
		if line = g.Line(cred.call.Pos()); !p.Changed(line) {
			return
		}
	}
	r := lens.Report{Line: line, Symbol: g.EnclosingFunc(line),
		Suggested: "Echo the Origin only after checking it against an allow-list (a map or slices.Contains), and send " +
			"Vary: Origin; or drop Access-Control-Allow-Credentials for endpoints that do not need cookies."}
	if v, ok := goStringLit(o.value); ok {
		if v != "*" {
			return // a fixed origin
		}
		r.Severity = review.SeverityMedium
		r.Message = "Access-Control-Allow-Origin: * is sent together with Access-Control-Allow-Credentials: true: browsers " +
			"refuse credentialed responses with a wildcard origin, so these calls fail, and the common fix, echoing the " +
			"request's Origin, lets any site call the API with the user's cookies."
		p.Report(r)
		return
	}
	names := originVars(body)
	if !isOriginRead(p.File, o.value, names) || originChecked(p.File, body, names, o.call) {
		return
	}
	r.Message = fmt.Sprintf("Access-Control-Allow-Origin is set to the request's own Origin (%s) together with "+
		"Access-Control-Allow-Credentials: true, without checking it: any web site the user visits can send "+
		"requests with the user's cookies and read the responses (their data, CSRF tokens).", lens.Snippet(lens.GoText(p.File, o.value)))
	p.Report(r)
}

// originVars returns the locals of body assigned from the Origin header.
func originVars(body *ast.BlockStmt) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		var lhs, rhs []ast.Expr
		switch s := n.(type) {
		case *ast.AssignStmt:
			lhs, rhs = s.Lhs, s.Rhs
		case *ast.ValueSpec:
			for _, id := range s.Names {
				lhs = append(lhs, id)
			}
			rhs = s.Values
		}
		if len(lhs) != len(rhs) {
			return true
		}
		for i, r := range rhs {
			if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && originCall(call) {
				if id, ok := lhs[i].(*ast.Ident); ok {
					names[id.Name] = true
				}
			}
		}
		return true
	})
	return names
}

// originCall reports X.Get("Origin"), c.GetHeader("Origin") and similar.
func originCall(call *ast.CallExpr) bool {
	_, name, _ := lens.GoCallee(call)
	if len(call.Args) != 1 || name != "Get" && name != "GetHeader" && name != "Peek" {
		return false
	}
	v, ok := goStringLit(call.Args[0])
	return ok && strings.EqualFold(v, "Origin")
}

// isOriginRead reports whether e is the Origin header or a local holding it.
func isOriginRead(f *review.File, e ast.Expr, names map[string]bool) bool {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		return names[id.Name]
	}
	if call, ok := e.(*ast.CallExpr); ok && originCall(call) {
		return true
	}
	return originGetRE.MatchString(lens.GoText(f, e)) && !strings.ContainsAny(lens.GoText(f, e), "+")
}

// originChecked reports whether body looks at the origin before trusting
// it: passes it to a function other than the header setter (a validator,
// slices.Contains, strings.HasSuffix), indexes a map with it, compares it
// with something other than "" or "null", or switches on it.
func originChecked(f *review.File, body *ast.BlockStmt, names map[string]bool, set *ast.CallExpr) bool {
	isOrigin := func(e ast.Expr) bool { return isOriginRead(f, e, names) }
	checked := false
	ast.Inspect(body, func(n ast.Node) bool {
		if checked {
			return false
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			if x == set || originCall(x) {
				return true
			}
			_, name, _ := lens.GoCallee(x)
			switch name {
			case "len", "Set", "Add", "Header", "SetHeader", "Printf", "Println", "Debugf", "Infof", "Debug", "Info":
				return true
			}
			for _, a := range x.Args {
				checked = checked || isOrigin(a)
			}
		case *ast.IndexExpr:
			checked = isOrigin(x.Index)
		case *ast.BinaryExpr:
			if x.Op != token.EQL && x.Op != token.NEQ {
				return true
			}
			other := x.Y
			if !isOrigin(x.X) {
				if !isOrigin(x.Y) {
					return true
				}
				other = x.X
			}
			if v, ok := goStringLit(other); ok && (v == "" || v == "null") {
				return true
			}
			checked = true
		case *ast.SwitchStmt:
			checked = x.Tag != nil && isOrigin(x.Tag)
		}
		return !checked
	})
	return checked
}

// goStringLit returns the value of a Go string literal.
func goStringLit(e ast.Expr) (string, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// corsOptions checks the option structs of CORS middlewares: composite
// literals, and fields of one variable set in the same function.
func corsOptions(p *lens.Pass, g *syntax.GoFile) {
	pkgs := map[string]bool{} // local name -> reflects
	for path, reflects := range corsPackages {
		if n := lens.GoImportName(g.File, path); n != "" && n != "_" && n != "." {
			pkgs[n] = reflects
		}
	}
	if len(pkgs) == 0 {
		return
	}
	for _, d := range lens.GoChangedDecls(p.File) {
		ast.Inspect(d.Decl, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CompositeLit:
				sel, ok := x.Type.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				reflects, ok := pkgs[pkg.Name]
				if !ok {
					return true
				}
				fields := map[string]corsField{}
				for _, e := range x.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok {
							fields[k.Name] = corsField{kv.Value, kv}
						}
					}
				}
				checkCORSFields(p, g, pkg.Name, reflects, fields)
			case *ast.BlockStmt:
				corsFieldAssignments(p, g, pkgs, x)
			}
			return true
		})
	}
}

// corsField is one option: its value and the node to report on.
type corsField struct {
	value ast.Expr
	at    ast.Node
}

// corsFieldAssignments checks `cfg.AllowCredentials = true` and
// `cfg.AllowAllOrigins = true` on one variable in a block (gin-contrib's
// DefaultConfig idiom).
func corsFieldAssignments(p *lens.Pass, g *syntax.GoFile, pkgs map[string]bool, b *ast.BlockStmt) {
	byVar := map[string]map[string]corsField{}
	for _, s := range b.List {
		as, ok := s.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		sel, ok := as.Lhs[0].(*ast.SelectorExpr)
		if !ok {
			continue
		}
		v := syntax.GoChain(sel.X)
		if v == "" {
			continue
		}
		if byVar[v] == nil {
			byVar[v] = map[string]corsField{}
		}
		byVar[v][sel.Sel.Name] = corsField{as.Rhs[0], as}
	}
	for _, fields := range byVar {
		if _, ok := fields["AllowCredentials"]; !ok {
			continue
		}
		// The variable's package is not known: take the one imported
		// middleware, if there is only one.
		if len(pkgs) != 1 {
			continue
		}
		for name, reflects := range pkgs {
			checkCORSFields(p, g, name, reflects, fields)
		}
	}
}

func checkCORSFields(p *lens.Pass, g *syntax.GoFile, pkg string, reflects bool, fields map[string]corsField) {
	cred, ok := fields["AllowCredentials"]
	if id, isID := ast.Unparen(cred.value).(*ast.Ident); !ok || !isID || id.Name != "true" {
		return
	}
	var at ast.Node
	var what string
	high := false
	for _, name := range []string{"AllowOriginFunc", "AllowOriginRequestFunc", "AllowOriginVaryRequestFunc"} {
		if f, ok := fields[name]; ok && alwaysTrue(f.value) {
			at, what, high = f.at, name+" that always returns true", true
		}
	}
	if at == nil {
		if f, ok := fields["AllowAllOrigins"]; ok {
			if id, isID := ast.Unparen(f.value).(*ast.Ident); isID && id.Name == "true" {
				at, what, high = f.at, "AllowAllOrigins: true", reflects
			}
		}
	}
	if at == nil {
		for _, name := range []string{"AllowedOrigins", "AllowOrigins"} {
			if f, ok := fields[name]; ok && listHasStar(f.value) {
				at, what, high = f.at, name+` containing "*"`, reflects
			}
		}
	}
	if at == nil {
		return
	}
	line := p.FirstChanged(g.Line(at.Pos()), g.Line(at.End()))
	if line == 0 {
		if line = p.FirstChanged(g.Line(cred.at.Pos()), g.Line(cred.at.End())); line == 0 {
			return
		}
	}
	r := lens.Report{Line: line, Symbol: g.EnclosingFunc(line),
		Suggested: "List the origins that may call the API with credentials (AllowedOrigins: []string{\"https://app.example.com\"}), " +
			"or set AllowCredentials: false for a public API."}
	if high {
		r.Message = fmt.Sprintf("%s options with %s and AllowCredentials: true answer every request with its own Origin "+
			"and Access-Control-Allow-Credentials: true: any web site the user visits can call the API with the user's "+
			"cookies and read the responses.", pkg, what)
	} else {
		r.Severity = review.SeverityMedium
		r.Message = fmt.Sprintf("%s options with %s and AllowCredentials: true send Access-Control-Allow-Origin: * with "+
			"credentials, which browsers refuse: credentialed calls fail, and switching to a reflected origin to fix "+
			"that would let any site call the API as the user.", pkg, what)
	}
	p.Report(r)
}

// alwaysTrue reports a function literal whose body is `return true` (or
// `return true, nil`).
func alwaysTrue(e ast.Expr) bool {
	fl, ok := ast.Unparen(e).(*ast.FuncLit)
	if !ok || len(fl.Body.List) != 1 {
		return false
	}
	ret, ok := fl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	id, ok := ret.Results[0].(*ast.Ident)
	return ok && id.Name == "true"
}

// listHasStar reports a []string literal holding "*".
func listHasStar(e ast.Expr) bool {
	cl, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, el := range cl.Elts {
		if v, ok := goStringLit(el); ok && v == "*" {
			return true
		}
	}
	return false
}
