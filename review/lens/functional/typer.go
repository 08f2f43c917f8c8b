package functional

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/reviewls/reviewls/review/lens/goapi"
	"github.com/reviewls/reviewls/review/syntax"
)

// typer infers the types of one function's expressions from declarations
// alone, without type-checking: the standard library's index, the
// package's declarations, the function's parameters and what its
// assignments store. It knows less than go/types and is never wrong in a
// way that matters here: an expression it cannot type is "".
type typer struct {
	std, pkg *goapi.API
	imports  map[string]string
	vars     map[string]string // local variable -> type
	// module resolves the packages of the reviewed module by import path
	// (nil: none).
	module func(importPath string) *goapi.API
}

func newTyper(std, pkg *goapi.API, imports map[string]string, module func(string) *goapi.API, fd *ast.FuncDecl) *typer {
	t := &typer{std: std, pkg: pkg, imports: imports, vars: map[string]string{}, module: module}
	for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			typ := goapi.TypeString(f.Type, imports)
			for _, n := range f.Names {
				t.vars[n.Name] = typ
			}
		}
	}
	return t
}

// isVar reports a name the function declares as a variable (or
// parameter), which shadows imports and package functions.
func (t *typer) isVar(name string) bool {
	_, ok := t.vars[name]
	return ok
}

// assign records the types an assignment gives its variables.
func (t *typer) assign(as *ast.AssignStmt) {
	set := func(e ast.Expr, typ string) {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			return
		}
		if as.Tok == token.DEFINE || t.vars[id.Name] == "" {
			t.vars[id.Name] = typ
		}
	}
	if len(as.Rhs) == 1 && len(as.Lhs) > 1 {
		if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
			_, res, _ := t.callee(call)
			for i, e := range as.Lhs {
				typ := ""
				if i < len(res) {
					typ = res[i]
				}
				set(e, typ)
			}
			return
		}
		// v, ok := m[k], x.(T), <-ch: the first is the value.
		set(as.Lhs[0], t.exprType(as.Rhs[0]))
		return
	}
	for i, e := range as.Lhs {
		if i < len(as.Rhs) {
			set(e, t.exprType(as.Rhs[i]))
		}
	}
}

// spec records the types of a var declaration.
func (t *typer) spec(vs *ast.ValueSpec) {
	for i, n := range vs.Names {
		switch {
		case vs.Type != nil:
			t.vars[n.Name] = goapi.TypeString(vs.Type, t.imports)
		case i < len(vs.Values):
			t.vars[n.Name] = t.exprType(vs.Values[i])
		}
	}
}

// exprType returns the type of e, or "".
func (t *typer) exprType(e ast.Expr) string {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return t.vars[x.Name]
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && !t.isVar(id.Name) {
			if p, ok := t.imports[id.Name]; ok {
				return t.std.Vars[p+"."+x.Sel.Name]
			}
		}
		named := goapi.Named(t.exprType(x.X))
		if typ, ok := t.std.Fields[named][x.Sel.Name]; ok {
			return typ
		}
		if api, p, typ := t.moduleType(named); api != nil {
			return goapi.Qualify(api.Fields[typ][x.Sel.Name], p)
		}
		return t.pkg.Fields[named][x.Sel.Name]
	case *ast.CallExpr:
		if _, res, ok := t.callee(x); ok && len(res) > 0 {
			return res[0]
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			if typ := t.exprType(x.X); typ != "" {
				return "*" + typ
			}
		}
	case *ast.StarExpr:
		return strings.TrimPrefix(t.exprType(x.X), "*")
	case *ast.CompositeLit:
		return goapi.TypeString(x.Type, t.imports)
	case *ast.TypeAssertExpr:
		return goapi.TypeString(x.Type, t.imports)
	case *ast.IndexExpr:
		typ := t.exprType(x.X)
		switch {
		case strings.HasPrefix(typ, "[]"):
			return typ[2:]
		case strings.HasPrefix(typ, "map["):
			if _, v, ok := cutMapType(typ); ok {
				return v
			}
		}
	}
	return ""
}

// moduleType splits a named type of another package of the reviewed
// module ("example.com/m/util.Cmd") into that package's declarations, its
// import path and the type's name.
func (t *typer) moduleType(named string) (*goapi.API, string, string) {
	i := strings.LastIndexByte(named, '.')
	if i < 0 || t.module == nil {
		return nil, "", ""
	}
	p := named[:i]
	api := t.module(p)
	if api == nil {
		return nil, "", ""
	}
	return api, p, named[i+1:]
}

func qualifyAll(ts []string, importPath string) []string {
	out := make([]string, len(ts))
	for i, typ := range ts {
		out[i] = goapi.Qualify(typ, importPath)
	}
	return out
}

// cutMapType splits "map[K]V" into K and V.
func cutMapType(typ string) (k, v string, ok bool) {
	depth := 0
	for i := len("map"); i < len(typ); i++ {
		switch typ[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return typ[len("map["):i], typ[i+1:], true
			}
		}
	}
	return "", "", false
}

// callee names the function call calls and returns its result types:
// a function of an imported standard package, of the reviewed package, or
// a method of a value whose type is known.
func (t *typer) callee(call *ast.CallExpr) (name string, results []string, ok bool) {
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if t.isVar(fn.Name) {
			return "", nil, false
		}
		res, ok := t.pkg.Funcs[fn.Name]
		return fn.Name, res, ok
	case *ast.SelectorExpr:
		if id, isIdent := fn.X.(*ast.Ident); isIdent && !t.isVar(id.Name) {
			if p, imported := t.imports[id.Name]; imported {
				res, ok := t.std.Funcs[p+"."+fn.Sel.Name]
				if !ok && t.module != nil {
					if api := t.module(p); api != nil {
						res, ok = api.Funcs[fn.Sel.Name]
						res = qualifyAll(res, p)
					}
				}
				return id.Name + "." + fn.Sel.Name, res, ok
			}
		}
		named := goapi.Named(t.exprType(fn.X))
		if named == "" {
			return "", nil, false
		}
		res, ok := t.std.Methods[named][fn.Sel.Name]
		if !ok {
			if api, p, typ := t.moduleType(named); api != nil {
				res, ok = api.Methods[typ][fn.Sel.Name]
				res = qualifyAll(res, p)
			} else {
				res, ok = t.pkg.Methods[named][fn.Sel.Name]
			}
		}
		name = syntax.GoChain(fn)
		if name == "" {
			name = "(...)." + fn.Sel.Name
		}
		return name, res, ok
	}
	return "", nil, false
}
