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

// NilMapWrite finds writes to a map variable that is declared nil and never
// initialised in the function.
var NilMapWrite = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/nil-map-write",
		Perspective: review.Functional,
		Category:    CatLogic,
		Severity:    review.SeverityHigh,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthStandard,
		Fixable:     true,
		Summary:     "Write to a nil map",
		Doc: "A map declared with `var m map[K]V` (or converted from nil) is nil until it is made; reading it " +
			"works, but the first write panics with \"assignment to entry in nil map\", so the path crashes the " +
			"first time it runs. Initialise the map with make or a literal before writing. The rule is " +
			"flow-insensitive on purpose: any assignment to the variable in the function (m = make(...), " +
			"m = other, m, err = load()), taking its address (json.Unmarshal(b, &m)) or redeclaring it " +
			"silences it, so maps initialised on some path are never reported. Fields of structs are not followed, " +
			"and test files are left alone (tests assert such panics on purpose).",
		Bad:  "var counts map[string]int\nfor _, w := range words {\n\tcounts[w]++\n}",
		Good: "counts := make(map[string]int)\nfor _, w := range words {\n\tcounts[w]++\n}",
	},
	Run: runNilMapWrite,
}

func runNilMapWrite(p *lens.Pass) {
	if !p.Contains("map[") || review.IsTestPath(p.File.Path) {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	for _, d := range lens.GoChangedDecls(p.File) {
		if fd, ok := d.Decl.(*ast.FuncDecl); ok && fd.Body != nil && declaresNilMap(p.File, d) {
			checkNilMaps(p, g, fd)
		}
	}
}

// declaresNilMap is the textual pre-filter: the declaration holds a
// `var x map[` or a `map[...](nil)` conversion.
func declaresNilMap(f *review.File, d lens.GoDecl) bool {
	lines := lens.Lines(f)
	for n := d.Start; n <= d.End && n <= len(lines); n++ {
		l := lines[n-1]
		if i := strings.Index(l, "map["); i >= 0 && (strings.Contains(l[:i], "var ") || strings.Contains(l[i:], "(nil)")) {
			return true
		}
	}
	return false
}

type nilMap struct {
	decl   ast.Node // the DeclStmt or AssignStmt
	spec   *ast.ValueSpec
	typ    ast.Expr
	inits  int
	writes []ast.Node
}

func checkNilMaps(p *lens.Pass, g *syntax.GoFile, fd *ast.FuncDecl) {
	maps := map[string]*nilMap{}
	var order []string
	declare := func(name string, m *nilMap) {
		if old, ok := maps[name]; ok {
			old.inits++ // declared twice: scopes differ, stay silent
			return
		}
		maps[name] = m
		order = append(order, name)
	}
	// First pass: nil map declarations.
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeclStmt:
			gd, ok := n.Decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				return true
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if _, ok := vs.Type.(*ast.MapType); !ok || !(len(vs.Values) == 0 || len(vs.Values) == 1 && isNil(vs.Values[0])) {
					continue
				}
				for _, id := range vs.Names {
					declare(id.Name, &nilMap{decl: n, spec: vs, typ: vs.Type})
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					if typ := nilMapConversion(n.Rhs[0]); typ != nil {
						declare(id.Name, &nilMap{decl: n, typ: typ})
					}
				}
			}
		}
		return true
	})
	if len(maps) == 0 {
		return
	}
	// Second pass: writes and anything that may initialise the variable.
	init := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok && maps[id.Name] != nil {
			maps[id.Name].inits++
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if m := maps[firstName(n.Lhs)]; m != nil && m.decl == n {
				return true
			}
			for _, e := range n.Lhs {
				if ix, ok := e.(*ast.IndexExpr); ok {
					if id, ok := ix.X.(*ast.Ident); ok && maps[id.Name] != nil {
						maps[id.Name].writes = append(maps[id.Name].writes, n)
					}
					continue
				}
				init(e)
			}
		case *ast.IncDecStmt:
			if ix, ok := n.X.(*ast.IndexExpr); ok {
				if id, ok := ix.X.(*ast.Ident); ok && maps[id.Name] != nil {
					maps[id.Name].writes = append(maps[id.Name].writes, n)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				init(n.X)
			}
		case *ast.RangeStmt:
			init(n.Key)
			if n.Value != nil {
				init(n.Value)
			}
		case *ast.FuncLit:
			for _, f := range n.Type.Params.List {
				for _, id := range f.Names {
					init(id)
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if m := maps[id.Name]; m != nil && m.spec != n {
					m.inits++
				}
			}
		}
		return true
	})
	for _, name := range order {
		m := maps[name]
		if m.inits > 0 || len(m.writes) == 0 {
			continue
		}
		declLine := g.Line(m.decl.Pos())
		line := 0
		for _, w := range m.writes {
			if l := g.Line(w.Pos()); p.Changed(l) {
				line = l
				break
			}
		}
		if line == 0 {
			if !p.Changed(declLine) {
				continue
			}
			line = declLine
		}
		typ := lens.GoText(p.File, m.typ)
		p.Report(lens.Report{
			Line:   line,
			Symbol: syntax.GoFuncName(fd),
			Message: fmt.Sprintf("%s is declared as a nil %s on line %d and never initialised, so the write `%s` panics with "+
				"\"assignment to entry in nil map\" the first time it runs.", name, typ, declLine, strings.TrimSpace(p.Line(g.Line(m.writes[0].Pos())))),
			Suggested: fmt.Sprintf("Make the map before writing to it: `%s := make(%s)`.", name, typ),
			Fix:       nilMapFix(p, g, name, m),
		})
	}
}

func firstName(exprs []ast.Expr) string {
	if len(exprs) == 1 {
		if id, ok := exprs[0].(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}

func isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

// nilMapConversion returns the map type of map[K]V(nil), or nil.
func nilMapConversion(e ast.Expr) ast.Expr {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !isNil(call.Args[0]) {
		return nil
	}
	if mt, ok := ast.Unparen(call.Fun).(*ast.MapType); ok {
		return mt
	}
	return nil
}

// nilMapFix replaces the declaration with a make call, when the
// declaration declares only this variable on one line.
func nilMapFix(p *lens.Pass, g *syntax.GoFile, name string, m *nilMap) *review.Fix {
	start, end := g.Line(m.decl.Pos()), g.Line(m.decl.End())
	if start != end {
		return nil
	}
	if ds, ok := m.decl.(*ast.DeclStmt); ok {
		if gd := ds.Decl.(*ast.GenDecl); gd.Lparen.IsValid() || len(m.spec.Names) != 1 {
			return nil
		}
	}
	return &review.Fix{
		Title: fmt.Sprintf("Make %s before use", name),
		Edits: []review.TextEdit{{
			Span:    review.Span{Path: p.File.Path, StartLine: start, StartCol: g.Col(m.decl.Pos()), EndLine: end, EndCol: g.Col(m.decl.End())},
			NewText: fmt.Sprintf("%s := make(%s)", name, lens.GoText(p.File, m.typ)),
		}},
	}
}
