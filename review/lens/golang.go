package lens

import (
	"go/ast"
	"go/token"
	"sort"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
)

// GoSyntax is a parsed Go file.
type GoSyntax struct {
	Fset *token.FileSet
	File *ast.File
	// Err is the parse error, if any; File may still hold a partial tree.
	Err error

	// base and starts map positions to lines without token.File's lock;
	// rules ask for lines thousands of times per file. size is the
	// file's length: the parser ends a node left open at the end of the
	// file past it.
	base, size int
	starts     []int
}

var goSyntaxOf review.Memo[*GoSyntax]

// GoFile returns the parsed syntax of a Go file (with comments), memoised
// on f so every rule of every perspective shares one parse. File is nil
// when the content is not Go at all.
func GoFile(f *review.File) *GoSyntax {
	return goSyntaxOf.Of(f, func() *GoSyntax {
		p := symbol.ParseGo(f)
		fset, file := p.Fset, p.File
		g := &GoSyntax{Fset: fset, File: file, Err: p.Err}
		if file != nil {
			if tf := fset.File(file.Pos()); tf != nil {
				g.base, g.size, g.starts = tf.Base(), tf.Size(), tf.Lines()
			}
		}
		return g
	})
}

// Line returns the 1-based line of pos.
func (g *GoSyntax) Line(pos token.Pos) int {
	if g.starts == nil || !pos.IsValid() {
		return g.Fset.Position(pos).Line
	}
	off := min(int(pos)-g.base, g.size)
	// The line is the number of line starts at or before off.
	return sort.SearchInts(g.starts, off+1)
}

// Col returns the 1-based byte column of pos.
func (g *GoSyntax) Col(pos token.Pos) int {
	if g.starts == nil || !pos.IsValid() {
		return g.Fset.Position(pos).Column
	}
	off := min(int(pos)-g.base, g.size)
	return off - g.starts[g.Line(pos)-1] + 1
}

// Span returns the review span of a node in file path, in lines of the
// file as it is (//line directives do not move it).
func (g *GoSyntax) Span(path string, n ast.Node) review.Span {
	return review.Span{Path: path, StartLine: g.Line(n.Pos()), StartCol: g.Col(n.Pos()), EndLine: g.Line(n.End()), EndCol: g.Col(n.End())}
}

// EnclosingFunc returns the name of the top-level function or method that
// contains line n ("Type.Method" for methods), or "".
func (g *GoSyntax) EnclosingFunc(n int) string {
	if g.File == nil {
		return ""
	}
	for _, d := range g.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || g.Line(fd.Pos()) > n || g.Line(fd.End()) < n {
			continue
		}
		return FuncName(fd)
	}
	return ""
}

// FuncName returns "Name" or "Recv.Name" for a function declaration.
func FuncName(fd *ast.FuncDecl) string {
	if recv := GoRecvType(fd); recv != "" {
		return recv + "." + fd.Name.Name
	}
	return fd.Name.Name
}
