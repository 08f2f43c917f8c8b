package lens

import (
	"go/ast"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// GoImportName returns the name under which file imports the package at
// importPath: the explicit alias, or the conventional name (the last path
// element without a major-version suffix such as "/v2" or a gopkg.in ".v3").
// It returns "" when the file does not import the package, and "_" or "."
// for blank and dot imports.
func GoImportName(file *ast.File, importPath string) string {
	if file == nil {
		return ""
	}
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || p != importPath {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return goPackageName(p)
	}
	return ""
}

// goPackageName guesses the package name of an import path.
func goPackageName(p string) string {
	base := path.Base(p)
	if len(base) >= 2 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" && p != base {
		base = path.Base(path.Dir(p))
	}
	if i := strings.Index(base, ".v"); i > 0 && strings.Trim(base[i+2:], "0123456789") == "" {
		base = base[:i]
	}
	return base
}

// GoCallee splits the function of a call into its qualifier and name:
// "os.Remove(x)" gives ("os", "Remove"), "s.db.Exec(q)" gives ("s.db",
// "Exec"), "run()" gives ("", "run"). The qualifier is "" when it is not a
// chain of identifiers (a call result, an index expression, ...); ok is
// false when the function is neither an identifier nor a selector.
func GoCallee(call *ast.CallExpr) (qual, name string, ok bool) {
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return "", fn.Name, true
	case *ast.SelectorExpr:
		return syntax.GoChain(fn.X), fn.Sel.Name, true
	}
	return "", "", false
}

// IsGoPkgCall reports whether call is pkg.name(...) for the local package
// name pkg (as returned by [GoImportName]) and one of names.
func IsGoPkgCall(call *ast.CallExpr, pkg string, names ...string) bool {
	if pkg == "" || pkg == "_" || pkg == "." {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok || id.Name != pkg {
		return false
	}
	for _, n := range names {
		if sel.Sel.Name == n {
			return true
		}
	}
	return len(names) == 0
}

// GoInspectStack walks root like [ast.Inspect], passing fn each node with
// its ancestors: stack runs from root to n, n last (unlike
// [ast.PreorderStack], whose stack stops at n's parent). When fn returns
// false, n's children are skipped.
func GoInspectStack(root ast.Node, fn func(n ast.Node, stack []ast.Node) bool) {
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if !fn(n, stack) {
			stack = stack[:len(stack)-1] // no pop call follows
			return false
		}
		return true
	})
}

// GoIdentByte reports whether c may appear in a Go identifier, counting
// ASCII letters, digits and '_' only.
func GoIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// GoDecl is a top-level declaration with its line range.
type GoDecl struct {
	Decl       ast.Decl
	Start, End int
}

var goDeclsOf review.Memo[[]GoDecl]

// GoDecls returns the top-level declarations of a Go file with their line
// ranges (doc comments excluded), in source order, memoised on f. It
// returns nil when the file does not parse at all.
func GoDecls(f *review.File) []GoDecl {
	return goDeclsOf.Of(f, func() []GoDecl {
		g := syntax.Go(f)
		if g.File == nil {
			return []GoDecl(nil)
		}
		tf := g.Fset.File(g.File.Pos())
		out := make([]GoDecl, len(g.File.Decls))
		for i, d := range g.File.Decls {
			out[i] = GoDecl{Decl: d, Start: tf.Line(d.Pos()), End: tf.Line(d.End())}
		}
		return out
	})
}

// GoDeclAt returns the top-level declaration that spans line n, or nil.
func GoDeclAt(f *review.File, n int) ast.Decl {
	decls := GoDecls(f)
	i := sort.Search(len(decls), func(i int) bool { return decls[i].End >= n })
	if i < len(decls) && decls[i].Start <= n {
		return decls[i].Decl
	}
	return nil
}

// GoChangedDecls returns the top-level declarations that hold at least one
// changed line of f, in source order.
func GoChangedDecls(f *review.File) []GoDecl {
	var out []GoDecl
	for _, d := range GoDecls(f) {
		if FirstChangedIn(f, d.Start, d.End) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// FirstChangedIn returns the first changed line of f in [from, to], or 0.
func FirstChangedIn(f *review.File, from, to int) int {
	if len(f.Lines) == 0 {
		return 0
	}
	if to-from+1 > len(f.Lines) {
		// Fewer changed lines than lines in the range: scan the changes.
		first := 0
		for n := range f.Lines {
			if n >= from && n <= to && (first == 0 || n < first) {
				first = n
			}
		}
		return first
	}
	for n := from; n <= to; n++ {
		if f.Changed(n) {
			return n
		}
	}
	return 0
}

// FirstChanged returns the first changed line of the pass's file in
// [from, to], or 0. Function-level rules use it to anchor a finding to a
// changed line of the function.
func (p *Pass) FirstChanged(from, to int) int { return FirstChangedIn(p.File, from, to) }

// GoText returns the source text of node n in f.
func GoText(f *review.File, n ast.Node) string {
	g := syntax.Go(f)
	tf := g.Fset.File(n.Pos())
	if tf == nil {
		return ""
	}
	start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
	if start < 0 || end > len(f.Content) || start > end {
		return ""
	}
	return string(f.Content[start:end])
}

// GoFuncBody returns the type and body of a function declaration or
// literal, or nils for any other node.
func GoFuncBody(n ast.Node) (*ast.FuncType, *ast.BlockStmt) {
	switch fn := n.(type) {
	case *ast.FuncDecl:
		return fn.Type, fn.Body
	case *ast.FuncLit:
		return fn.Type, fn.Body
	}
	return nil, nil
}

// GoIndent returns the leading whitespace of line.
func GoIndent(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// changedKey identifies the memoised changed-line index of a file by the
// identity and size of its Lines map, so a test that swaps the map gets a
// fresh index.
type changedKey struct {
	lines uintptr
	n     int
}

var changedOn review.MemoBy[changedKey, *changedIndex]

// changedIndex holds a file's changed lines sorted and as a dense set.
type changedIndex struct {
	sorted []int
	has    []bool // has[n] reports whether line n changed
}

func changedOf(f *review.File) *changedIndex {
	key := changedKey{reflect.ValueOf(f.Lines).Pointer(), len(f.Lines)}
	return changedOn.Of(f, key, func() *changedIndex {
		x := &changedIndex{sorted: f.ChangedLines()}
		if n := len(x.sorted); n > 0 {
			x.has = make([]bool, x.sorted[n-1]+1)
			for _, l := range x.sorted {
				if l > 0 {
					x.has[l] = true
				}
			}
		}
		return x
	})
}

// ChangedLines returns the changed line numbers of f in increasing order,
// memoised on f (File.ChangedLines sorts on every call). Callers must not
// modify the slice.
func ChangedLines(f *review.File) []int { return changedOf(f).sorted }

// IsChanged reports whether line n of f changed, in constant time.
func IsChanged(f *review.File, n int) bool {
	x := changedOf(f)
	return n >= 0 && n < len(x.has) && x.has[n]
}

// EachChangedLine calls fn for each changed line of f in increasing order,
// like [Pass.EachChanged] but with the order memoised on f.
func EachChangedLine(f *review.File, fn func(n int, line string)) {
	lines := Lines(f)
	for _, n := range ChangedLines(f) {
		if n >= 1 && n <= len(lines) {
			fn(n, lines[n-1])
		}
	}
}

// GoDeclsWithChangedLine returns, in source order and without repeats,
// the top-level declarations that hold a changed line for which match
// returns true. Rules use it to parse-walk only the declarations their
// cheap line pre-filter selects.
func GoDeclsWithChangedLine(f *review.File, match func(line string) bool) []ast.Decl {
	var out []ast.Decl
	EachChangedLine(f, func(n int, line string) {
		if !match(line) {
			return
		}
		if d := GoDeclAt(f, n); d != nil && (len(out) == 0 || out[len(out)-1] != d) {
			out = append(out, d)
		}
	})
	return out
}

// GoUses finds where a changed Go file uses imported packages: it returns
// the local names of those of importPaths the file imports by a usable
// name (not "_" or "."), mapped to their import paths, and the top-level
// declarations holding a changed line that mentions one of them followed
// by a selector (`name.` plus one of the optional selectors, or any
// selector when none is given). Both are empty when none is imported or
// none is used on a changed line.
func GoUses(f *review.File, importPaths []string, selectors ...string) (map[string]string, []ast.Decl) {
	g := syntax.Go(f)
	if g.File == nil {
		return nil, nil
	}
	names := map[string]string{}
	for _, path := range importPaths {
		if n := GoImportName(g.File, path); n != "" && n != "_" && n != "." {
			names[n] = path
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	var needles []string
	for n := range names {
		if len(selectors) == 0 {
			needles = append(needles, n+".")
		}
		for _, s := range selectors {
			needles = append(needles, n+"."+s)
		}
	}
	present := false
	for _, s := range needles {
		if Contains(f, s) {
			present = true
			break
		}
	}
	if !present {
		return names, nil
	}
	return names, GoDeclsWithChangedLine(f, func(line string) bool {
		for _, s := range needles {
			if strings.Contains(line, s) {
				return true
			}
		}
		return false
	})
}

// NameOf returns the local name under which names (as returned by GoUses)
// holds importPath, or "".
func NameOf(names map[string]string, importPath string) string {
	for n, p := range names {
		if p == importPath {
			return n
		}
	}
	return ""
}
