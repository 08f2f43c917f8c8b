package lens

import (
	"go/ast"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestContainsMatchesBytesContains checks the trigram pre-filter never
// answers differently from a plain search.
func TestContainsMatchesBytesContains(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab(){}.|&\"' \nXYZ"
	for range 200 {
		var b strings.Builder
		for range r.IntN(300) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		content := b.String()
		f := &review.File{Content: []byte(content)}
		for range 50 {
			var n strings.Builder
			for range 1 + r.IntN(5) {
				n.WriteByte(alphabet[r.IntN(len(alphabet))])
			}
			needle := n.String()
			if got, want := Contains(f, needle), strings.Contains(content, needle); got != want {
				t.Fatalf("Contains(%q, %q) = %v, want %v", content, needle, got, want)
			}
		}
	}
	if !Contains(&review.File{}, "") {
		t.Error("every content contains the empty string")
	}
}

// TestGoSyntaxLineCol checks the fast position mapping against go/token.
func TestGoSyntaxLineCol(t *testing.T) {
	src := "package a\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n\nvar y = \"é\" + `\nraw`\n"
	g := GoFile(&review.File{Path: "a.go", Content: []byte(src)})
	tf := g.Fset.File(g.File.Pos())
	for off := 0; off < len(src); off++ {
		pos := tf.Pos(off)
		want := g.Fset.Position(pos)
		if g.Line(pos) != want.Line || g.Col(pos) != want.Column {
			t.Fatalf("offset %d: got %d:%d, want %d:%d", off, g.Line(pos), g.Col(pos), want.Line, want.Column)
		}
	}
}

// TestGoSyntaxPastEnd: go/parser ends a call left open at the end of the
// file one byte past it; positions there map to the end of the last line,
// as does Span (found by fuzzing the catalog: a finding's end column was
// past its line).
func TestGoSyntaxPastEnd(t *testing.T) {
	src := "package a\nfunc f() { g(h()"
	g := GoFile(&review.File{Path: "a.go", Content: []byte(src)})
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

// TestGoSyntaxSpanIgnoresLineDirectives: spans are lines of the reviewed
// file, whatever //line comments say.
func TestGoSyntaxSpanIgnoresLineDirectives(t *testing.T) {
	src := "package a\n\n//line gen.y:100\nvar x = f()\n"
	g := GoFile(&review.File{Path: "a.go", Content: []byte(src)})
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
