package syntax

import (
	"bytes"
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
	if id := GoTypeName(t); id != nil {
		return id.Name
	}
	return ""
}

// GoTypeName returns the identifier that names the type t refers to: T in
// T, *T, (T), pkg.T, T[P] or T[K, V]; nil for another form.
func GoTypeName(t ast.Expr) *ast.Ident {
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
		case *ast.SelectorExpr:
			return x.Sel
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// GoChain renders a chain of identifiers and selectors ("s.db.conn"), or
// returns "" for any other expression.
func GoChain(e ast.Expr) string {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		if q := GoChain(x.X); q != "" {
			return q + "." + x.Sel.Name
		}
	}
	return ""
}

var goSyntax = review.LangGo.Info().Tokens

// A GoCut is one function body GoCutBodies cut out: an offset of the cut
// source at or after At (and before the next cut) is the offset plus
// Shift in the content.
type GoCut struct{ At, Shift int }

// GoCutBodies returns Go content without the contents of its top-level
// function bodies, and the cuts made. It skims the bytes rather than
// tokenizing them: only comments, literals, brackets and the words func,
// struct and interface matter.
func GoCutBodies(content []byte) ([]byte, []GoCut) {
	var out []byte
	var cuts []GoCut
	kept := 0 // content[:kept] is in out, minus the cuts
	depth := 0
	inFunc := false // a top-level func header is open
	var last []byte // the word right before, if the previous token was one
	n := len(content)
	for i := 0; i < n; {
		c := content[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < n && (content[i+1] == '/' || content[i+1] == '*'):
			i = skipGoComment(content, i)
			continue
		case c == '"' || c == '`' || c == '\'':
			i = skipGoLiteral(content, i)
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := i + 1
			for j < n && IdentByte(&goSyntax, content[j]) {
				j++
			}
			last = content[i:j]
			if depth == 0 && string(last) == "func" {
				inFunc = true
			}
			i = j
			continue
		case c == '{' && inFunc && depth == 0 && string(last) != "struct" && string(last) != "interface":
			end := skipGoBlock(content, i)
			if end-i > 1 {
				out = append(out, content[kept:i+1]...)
				kept = end
				prev := 0
				if len(cuts) > 0 {
					prev = cuts[len(cuts)-1].Shift
				}
				cuts = append(cuts, GoCut{At: len(out), Shift: prev + end - (i + 1)})
			}
			inFunc = false
			i = end
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
			i++
		default:
			i++
		}
		last = nil
	}
	if cuts == nil {
		return content, nil
	}
	return append(out, content[kept:]...), cuts
}

// skipGoComment returns the end of the comment at i.
func skipGoComment(src []byte, i int) int {
	if src[i+1] == '/' {
		if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
			return i + k
		}
		return len(src)
	}
	if k := bytes.Index(src[i+2:], []byte("*/")); k >= 0 {
		return i + 2 + k + 2
	}
	return len(src)
}

// skipGoLiteral returns the end of the string, raw string or rune literal
// at i; an interpreted one left open ends at the line break.
func skipGoLiteral(src []byte, i int) int {
	q := src[i]
	if q == '`' {
		if k := bytes.IndexByte(src[i+1:], '`'); k >= 0 {
			return i + 1 + k + 1
		}
		return len(src)
	}
	return QuotedEnd(src, i, q, false)
}

// skipGoBlock returns the offset of the "}" that closes the "{" at i, or
// the end of src.
func skipGoBlock(src []byte, i int) int {
	depth := 0
	for i < len(src) {
		switch c := src[i]; {
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			i = skipGoComment(src, i)
			continue
		case c == '"' || c == '`' || c == '\'':
			i = skipGoLiteral(src, i)
			continue
		case c == '{':
			depth++
		case c == '}':
			if depth--; depth == 0 {
				return i
			}
		}
		i++
	}
	return len(src)
}
