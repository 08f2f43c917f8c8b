package syntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"

	"github.com/reviewls/reviewls/review"
)

// GoFile is the one parse of a Go file's content (with comments, without
// object resolution) that the rules, the symbol extraction and the risk
// assessment share.
type GoFile struct {
	Fset *token.FileSet
	// File is the partial tree of content with syntax errors; nil when not
	// even the package clause parses.
	File *ast.File
	// Err is the parse error, if any.
	Err error

	// base and starts map positions to lines without token.File's lock;
	// rules ask for lines thousands of times per file. size is the
	// file's length: the parser ends a node left open at the end of the
	// file past it.
	base, size int
	starts     []int
}

var goOf review.Memo[*GoFile]

// Go returns the parse of a Go file, memoised on f so every stage shares
// one parse.
func Go(f *review.File) *GoFile {
	return goOf.Of(f, func() *GoFile {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.Path, f.Content, parser.ParseComments|parser.SkipObjectResolution)
		g := &GoFile{Fset: fset, File: file, Err: err}
		if file != nil {
			if tf := fset.File(file.Pos()); tf != nil {
				g.base, g.size, g.starts = tf.Base(), tf.Size(), tf.Lines()
			}
		}
		return g
	})
}

// Base returns the base of the file's positions: pos-Base is the byte
// offset of pos.
func (g *GoFile) Base() int { return g.base }

// Line returns the 1-based line of pos.
func (g *GoFile) Line(pos token.Pos) int {
	if g.starts == nil || !pos.IsValid() {
		return g.Fset.Position(pos).Line
	}
	off := min(int(pos)-g.base, g.size)
	// The line is the number of line starts at or before off.
	return sort.SearchInts(g.starts, off+1)
}

// Col returns the 1-based byte column of pos.
func (g *GoFile) Col(pos token.Pos) int {
	if g.starts == nil || !pos.IsValid() {
		return g.Fset.Position(pos).Column
	}
	off := min(int(pos)-g.base, g.size)
	return off - g.starts[g.Line(pos)-1] + 1
}

// Span returns the review span of a node in file path, in lines of the
// file as it is (//line directives do not move it).
func (g *GoFile) Span(path string, n ast.Node) review.Span {
	return review.Span{Path: path, StartLine: g.Line(n.Pos()), StartCol: g.Col(n.Pos()), EndLine: g.Line(n.End()), EndCol: g.Col(n.End())}
}

// EnclosingFunc returns the name of the top-level function or method that
// contains line n ("Type.Method" for methods), or "".
func (g *GoFile) EnclosingFunc(n int) string {
	if g.File == nil {
		return ""
	}
	for _, d := range g.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || g.Line(fd.Pos()) > n || g.Line(fd.End()) < n {
			continue
		}
		return GoFuncName(fd)
	}
	return ""
}

// GoFuncName returns "Name" or "Recv.Name" for a function declaration.
func GoFuncName(fd *ast.FuncDecl) string {
	if recv := GoRecvType(fd); recv != "" {
		return recv + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// GoRecvType returns the base type name of a method's receiver (T for
// *T or T[K]), or "" for a function or a receiver of another form.
func GoRecvType(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	return GoRecvName(fd.Recv.List[0].Type)
}

// GoRecvName returns the base type name of a receiver type expression: T
// for *T, T[K] or (T); "" for another form.
func GoRecvName(t ast.Expr) string {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
