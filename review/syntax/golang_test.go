package syntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestGoFileLineCol checks the fast position mapping against go/token.
func TestGoFileLineCol(t *testing.T) {
	src := "package a\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n\nvar y = \"é\" + `\nraw`\n"
	g := Go(&review.File{Path: "a.go", Content: []byte(src)})
	tf := g.Fset.File(g.File.Pos())
	for off := 0; off < len(src); off++ {
		pos := tf.Pos(off)
		want := g.Fset.Position(pos)
		if g.Line(pos) != want.Line || g.Col(pos) != want.Column {
			t.Fatalf("offset %d: got %d:%d, want %d:%d", off, g.Line(pos), g.Col(pos), want.Line, want.Column)
		}
	}
}

// TestGoFilePastEnd: go/parser ends a call left open at the end of the
// file one byte past it; positions there map to the end of the last line,
// as does Span (found by fuzzing the catalog: a finding's end column was
// past its line).
func TestGoFilePastEnd(t *testing.T) {
	src := "package a\nfunc f() { g(h()"
	g := Go(&review.File{Path: "a.go", Content: []byte(src)})
	var outer *ast.CallExpr
	ast.Inspect(g.File, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && outer == nil {
			outer = c
		}
		return true
	})
	if outer == nil {
		t.Fatal("no call parsed")
	}
	want := len("func f() { g(h()") + 1
	if l, c := g.Line(outer.End()), g.Col(outer.End()); l != 2 || c != want {
		t.Errorf("end of the open call at %d:%d, want 2:%d", l, c, want)
	}
	if s := g.Span("a.go", outer); s.StartLine != 2 || s.StartCol != 12 || s.EndLine != 2 || s.EndCol != want {
		t.Errorf("Span = %+v, want 2:12-2:%d", s, want)
	}
}

// TestGoFileSpanIgnoresLineDirectives: spans are lines of the reviewed
// file, whatever //line comments say.
func TestGoFileSpanIgnoresLineDirectives(t *testing.T) {
	src := "package a\n\n//line gen.y:100\nvar x = f()\n"
	g := Go(&review.File{Path: "a.go", Content: []byte(src)})
	var call ast.Node
	ast.Inspect(g.File, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			call = c
		}
		return true
	})
	if s := g.Span("a.go", call); s.StartLine != 4 || s.StartCol != 9 || s.EndLine != 4 || s.EndCol != 12 {
		t.Errorf("Span = %+v, want 4:9-4:12", s)
	}
}

func TestGoRecvType(t *testing.T) {
	src := "package p\nfunc F() {}\nfunc (T) A() {}\nfunc (t *T) B() {}\nfunc (l *L[K, V]) C() {}\nfunc (s S[E]) D() {}\n"
	file, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range file.Decls {
		fd := d.(*ast.FuncDecl)
		got = append(got, GoRecvType(fd)+"|"+GoFuncName(fd))
	}
	if want := "|F T|T.A T|T.B L|L.C S|S.D"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}
