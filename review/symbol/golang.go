package symbol

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

var goSyntax = review.LangGo.Info().Tokens

// goFile is a parsed Go file.
type goFile struct {
	src    []byte // the original content
	file   *ast.File
	base   int
	starts []int32
	// cuts maps offsets of the parsed source, from which function bodies
	// were cut, back to the content; see [syntax.GoCut].
	cuts []syntax.GoCut
}

// parseGo parses content, keeping the partial tree of a file with syntax
// errors. It returns nil when not even the package clause parses. With
// bodies set, function bodies are parsed too; without, the contents of
// top-level function bodies are cut out first ("{}" is left), which more
// than halves the work on a typical file when only declarations matter.
func parseGo(content []byte, bodies bool) *goFile {
	g, _ := parseGoErr(content, bodies)
	return g
}

// parseGoErr is parseGo that also returns the syntax error.
func parseGoErr(content []byte, bodies bool) (*goFile, error) {
	g := &goFile{src: content, starts: syntax.LineStarts(content)}
	src := content
	if !bodies {
		src, g.cuts = syntax.GoCutBodies(content)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		return nil, err
	}
	tf := fset.File(f.Package)
	if tf == nil {
		return nil, err
	}
	g.file, g.base = f, tf.Base()
	return g, err
}

// off returns the byte offset in the content of pos, clamped to it.
func (g *goFile) off(pos token.Pos) int {
	off := int(pos) - g.base
	lo, hi := 0, len(g.cuts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if g.cuts[m].At <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo > 0 {
		off += g.cuts[lo-1].Shift
	}
	return min(max(off, 0), len(g.src))
}

// line returns the 1-based line of pos.
func (g *goFile) line(pos token.Pos) int { return syntax.OffsetLine(g.starts, g.off(pos)) }

// col returns the 1-based byte column of pos.
func (g *goFile) col(pos token.Pos) int {
	off := g.off(pos)
	return off - int(g.starts[syntax.OffsetLine(g.starts, off)-1]) + 1
}

// endLine returns the line of the last byte of a node ending at end.
func (g *goFile) endLine(end token.Pos) int {
	return syntax.OffsetLine(g.starts, max(g.off(end)-1, 0))
}

// text renders the source between from and to on one line (see
// [lexed.join]); whole tells whether a long multi-line value is kept whole
// or cut after its first line.
func (g *goFile) text(from, to token.Pos, whole bool) string {
	a, b := g.off(from), g.off(to)
	if a >= b {
		return ""
	}
	text := bytes.TrimSpace(g.src[a:b])
	// Most signatures are one line without comments or literals, where
	// join would only collapse runs of white space (gofmt's alignment).
	if bytes.IndexByte(text, '\n') < 0 && bytes.IndexAny(text, "/\"'`") < 0 {
		if bytes.IndexByte(text, '\t') < 0 && !bytes.Contains(text, []byte("  ")) {
			return string(text)
		}
		return strings.Join(strings.Fields(string(text)), " ")
	}
	lx := lex(text, goSyntax)
	if whole {
		return lx.Join(0, len(lx.Toks))
	}
	return lx.Head(0, len(lx.Toks))
}

func docText(groups ...*ast.CommentGroup) string {
	for _, cg := range groups {
		if cg != nil && unterminated(cg.List[len(cg.List)-1].Text) {
			// A comment left open at the end of the file; Text would
			// panic on it.
			continue
		}
		if t := strings.TrimSpace(cg.Text()); t != "" {
			return t
		}
	}
	return ""
}

func extractGo(content []byte) ([]Symbol, []int32) {
	g := parseGo(content, false)
	if g == nil {
		return nil, nil
	}
	return g.symbols(), g.starts
}

// symbols reads the symbols of the file's declarations, unsorted.
func (g *goFile) symbols() []Symbol {
	out := make([]Symbol, 0, 2*len(g.file.Decls))
	for _, d := range g.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			out = append(out, g.funcDecl(d))
		case *ast.GenDecl:
			out = g.genDecl(out, d)
		}
	}
	return out
}

// unterminated reports a block comment without its closing "*/".
func unterminated(c string) bool {
	return strings.HasPrefix(c, "/*") && (len(c) < 4 || !strings.HasSuffix(c, "*/"))
}

func (g *goFile) funcDecl(fd *ast.FuncDecl) Symbol {
	s := Symbol{
		Name:     fd.Name.Name,
		Kind:     KindFunction,
		Doc:      docText(fd.Doc),
		Line:     g.line(fd.Pos()),
		EndLine:  g.endLine(fd.End()),
		NameCol:  g.col(fd.Name.Pos()),
		Exported: ast.IsExported(fd.Name.Name),
	}
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		s.Kind = KindMethod
		s.Container = syntax.GoRecvName(fd.Recv.List[0].Type)
	}
	end := fd.End()
	if fd.Body != nil {
		end = fd.Body.Lbrace
	}
	s.Signature = g.text(fd.Pos(), end, true)
	return s
}

func (g *goFile) genDecl(out []Symbol, d *ast.GenDecl) []Symbol {
	grouped := d.Lparen.IsValid()
	for _, spec := range d.Specs {
		// An ungrouped declaration starts at its keyword, with the doc of
		// the whole declaration.
		start, doc := spec.Pos(), (*ast.CommentGroup)(nil)
		if !grouped {
			start, doc = d.Pos(), d.Doc
		}
		switch spec := spec.(type) {
		case *ast.TypeSpec:
			out = g.typeSpec(out, spec, start, docText(spec.Doc, doc, spec.Comment))
		case *ast.ValueSpec:
			kind, kw := KindVar, "var "
			if d.Tok == token.CONST {
				kind, kw = KindConst, "const "
			}
			sig := g.text(start, spec.End(), false)
			if grouped {
				sig = kw + sig
			}
			for _, name := range spec.Names {
				if name.Name == "_" {
					continue
				}
				out = append(out, Symbol{
					Name:      name.Name,
					Kind:      kind,
					Signature: sig,
					Doc:       docText(spec.Doc, doc, spec.Comment),
					Line:      g.line(start),
					EndLine:   g.endLine(spec.End()),
					NameCol:   g.col(name.Pos()),
					Exported:  ast.IsExported(name.Name),
				})
			}
		}
	}
	return out
}

func (g *goFile) typeSpec(out []Symbol, ts *ast.TypeSpec, start token.Pos, doc string) []Symbol {
	s := Symbol{
		Name:     ts.Name.Name,
		Kind:     KindType,
		Doc:      doc,
		Line:     g.line(start),
		EndLine:  g.endLine(ts.End()),
		NameCol:  g.col(ts.Name.Pos()),
		Exported: ast.IsExported(ts.Name.Name),
	}
	header := func(kwEnd token.Pos) string {
		return "type " + g.text(ts.Name.Pos(), kwEnd, true)
	}
	var members []Symbol
	switch t := ts.Type.(type) {
	case *ast.StructType:
		s.Kind = KindStruct
		s.Signature = header(t.Struct + token.Pos(len("struct")))
		for _, f := range t.Fields.List {
			typ := g.text(f.Type.Pos(), f.Type.End(), true)
			fdoc := docText(f.Doc, f.Comment)
			if len(f.Names) == 0 { // an embedded field
				s.Fields = append(s.Fields, typ)
				name := syntax.GoTypeName(f.Type)
				if name == nil {
					continue
				}
				members = append(members, g.member(f, name, KindField, ts.Name.Name, typ, fdoc))
				continue
			}
			for _, name := range f.Names {
				s.Fields = append(s.Fields, name.Name+" "+typ)
				members = append(members, g.member(f, name, KindField, ts.Name.Name, name.Name+" "+typ, fdoc))
			}
		}
	case *ast.InterfaceType:
		s.Kind = KindInterface
		s.Signature = header(t.Interface + token.Pos(len("interface")))
		for _, f := range t.Methods.List {
			if len(f.Names) == 0 { // an embedded interface or a type union
				s.Fields = append(s.Fields, g.text(f.Type.Pos(), f.Type.End(), true))
				continue
			}
			sig := g.text(f.Pos(), f.End(), true)
			members = append(members, g.member(f, f.Names[0], KindMethod, ts.Name.Name, sig, docText(f.Doc, f.Comment)))
		}
	default:
		s.Signature = "type " + g.text(ts.Pos(), ts.End(), false)
	}
	out = append(out, s)
	return append(out, members...)
}

// member returns the symbol of a struct field or an interface method.
func (g *goFile) member(f *ast.Field, name *ast.Ident, kind Kind, container, sig, doc string) Symbol {
	return Symbol{
		Name:      name.Name,
		Container: container,
		Kind:      kind,
		Signature: sig,
		Doc:       doc,
		Line:      g.line(f.Pos()),
		EndLine:   g.endLine(f.End()),
		NameCol:   g.col(name.Pos()),
		Exported:  ast.IsExported(name.Name),
	}
}

// goNode returns the syntax of symbol s in the parsed file: its function
// declaration, type or value spec, or struct field or interface method.
func (g *goFile) goNode(s Symbol) ast.Node {
	for _, d := range g.file.Decls {
		if g.line(d.Pos()) > s.EndLine || g.endLine(d.End()) < s.Line {
			continue
		}
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == s.Name && g.line(d.Pos()) == s.Line {
				return d
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					if spec.Name.Name != s.Container && spec.Name.Name != s.Name {
						continue
					}
					if s.Kind != KindField && s.Kind != KindMethod {
						return spec
					}
					if n := fieldNamed(spec.Type, s); n != nil {
						return n
					}
				case *ast.ValueSpec:
					for _, name := range spec.Names {
						if name.Name == s.Name {
							return spec
						}
					}
				}
			}
		}
	}
	return nil
}

// fieldNamed returns the struct field or interface method of a type that
// declares s.
func fieldNamed(t ast.Expr, s Symbol) *ast.Field {
	var fields *ast.FieldList
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return nil
	}
	for _, f := range fields.List {
		for _, name := range f.Names {
			if name.Name == s.Name {
				return f
			}
		}
		if len(f.Names) == 0 {
			if id := syntax.GoTypeName(f.Type); id != nil && id.Name == s.Name {
				return f
			}
		}
	}
	return nil
}

// goBuiltinFuncs are the predeclared functions, left out of [Calls].
var goBuiltinFuncs = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
}

// goBuiltinTypes are the predeclared types, left out of [TypesUsed].
var goBuiltinTypes = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true, "complex128": true,
	"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true, "uint8": true,
	"uint16": true, "uint32": true, "uint64": true, "uintptr": true,
}

// goCalls returns the callees of the calls inside node: "f", "pkg.F",
// "x.Method", "s.db.Query", or the method name alone when the receiver is
// itself a call or an index.
func goCalls(node ast.Node) []string {
	var out orderedSet
	ast.Inspect(node, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun := call.Fun
		for {
			switch x := fun.(type) {
			case *ast.IndexExpr:
				fun = x.X
				continue
			case *ast.IndexListExpr:
				fun = x.X
				continue
			case *ast.ParenExpr:
				fun = x.X
				continue
			}
			break
		}
		switch x := fun.(type) {
		case *ast.Ident:
			if !goBuiltinFuncs[x.Name] && !goBuiltinTypes[x.Name] {
				out.add(x.Name)
			}
		case *ast.SelectorExpr:
			if chain := syntax.GoChain(x); chain != "" {
				out.add(chain)
			} else {
				out.add(x.Sel.Name)
			}
		}
		return true
	})
	return out.list
}

// goTypes returns the named types used in type positions inside node:
// parameter, result, field, variable and composite-literal types, type
// assertions, type arguments, and the arguments of new and make.
// Predeclared types are left out.
func goTypes(node ast.Node) []string {
	// Type parameters are declared by the node itself: leave them out.
	params := map[string]bool{}
	var tparams *ast.FieldList
	switch x := node.(type) {
	case *ast.FuncDecl:
		tparams = x.Type.TypeParams
	case *ast.TypeSpec:
		tparams = x.TypeParams
	}
	if tparams != nil {
		for _, f := range tparams.List {
			for _, name := range f.Names {
				params[name.Name] = true
			}
		}
	}
	var out orderedSet
	var typ func(e ast.Expr)
	typ = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.Ident:
			if !goBuiltinTypes[x.Name] && !params[x.Name] && x.Name != "_" {
				out.add(x.Name)
			}
		case *ast.SelectorExpr:
			if chain := syntax.GoChain(x); chain != "" {
				out.add(chain)
			}
		case *ast.StarExpr:
			typ(x.X)
		case *ast.ParenExpr:
			typ(x.X)
		case *ast.ArrayType:
			typ(x.Elt)
		case *ast.MapType:
			typ(x.Key)
			typ(x.Value)
		case *ast.ChanType:
			typ(x.Value)
		case *ast.Ellipsis:
			typ(x.Elt)
		case *ast.IndexExpr:
			typ(x.X)
			typ(x.Index)
		case *ast.IndexListExpr:
			typ(x.X)
			for _, i := range x.Indices {
				typ(i)
			}
		case *ast.BinaryExpr: // a type union: A | B
			typ(x.X)
			typ(x.Y)
		case *ast.UnaryExpr: // ~T
			typ(x.X)
		}
		// Function, struct and interface types hold fields, which the
		// walk below visits.
	}
	ast.Inspect(node, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Field:
			typ(x.Type)
		case *ast.CompositeLit:
			typ(x.Type)
		case *ast.ValueSpec:
			typ(x.Type)
		case *ast.TypeAssertExpr:
			typ(x.Type)
		case *ast.TypeSpec:
			typ(x.Type)
		case *ast.CallExpr:
			switch fun := x.Fun.(type) {
			case *ast.Ident:
				if (fun.Name == "new" || fun.Name == "make") && len(x.Args) > 0 {
					typ(x.Args[0])
				}
			case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.StarExpr:
				typ(fun) // a conversion: []T(x)
			case *ast.ParenExpr:
				typ(fun.X)
			case *ast.IndexExpr:
				// Type arguments of a generic call, but not the key of
				// handlers[name](w, r): without type information only an
				// exported name or a type expression counts.
				if id, ok := fun.Index.(*ast.Ident); !ok || ast.IsExported(id.Name) {
					typ(fun.Index)
				}
			case *ast.IndexListExpr:
				for _, i := range fun.Indices {
					typ(i)
				}
			}
		}
		return true
	})
	return out.list
}

// orderedSet collects strings once each, in order of first addition.
type orderedSet struct {
	seen map[string]bool
	list []string
}

func (o *orderedSet) add(s string) {
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	if s == "" || o.seen[s] {
		return
	}
	o.seen[s] = true
	o.list = append(o.list, s)
}

// GoResults returns the result types of a Go function or method, as
// written in its signature; ok is false for another kind of symbol or
// language, or a signature that does not parse.
func (s Symbol) GoResults() (results []string, ok bool) {
	if s.Kind != KindFunction && s.Kind != KindMethod || review.DetectLanguage(s.Path, nil) != review.LangGo {
		return nil, false
	}
	src := "package p\n" + s.Signature + "\n"
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil, false
	}
	fd, isFunc := f.Decls[0].(*ast.FuncDecl)
	if !isFunc {
		return nil, false
	}
	results = []string{}
	if fd.Type.Results != nil {
		for _, r := range fd.Type.Results.List {
			t := src[r.Type.Pos()-1 : r.Type.End()-1]
			for range max(1, len(r.Names)) {
				results = append(results, t)
			}
		}
	}
	return results, true
}
