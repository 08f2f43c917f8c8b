package goapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// maxSiblings bounds how many files of a package directory are read for
// its declarations.
const maxSiblings = 300

var packageOf review.Memo[*API]

// Package returns the declarations of the package f belongs to: those of
// f (from the shared parse) and of the other non-test .go files of its
// directory with the same package clause, as the change set has them or
// else as they are on disk under cs.Root.
func Package(cs *review.ChangeSet, f *review.File) *API {
	return packageOf.Of(f, func() *API {
		a := newAPI()
		g := syntax.Go(f)
		if g.File == nil {
			return a
		}
		dirDecls(cs, path.Dir(f.Path), g.File.Name.Name, f.Path).mergeInto(a)
		declsOf(g.File).mergeInto(a) // the file's own declarations win
		return a
	})
}

// dirCache holds the declarations of the directories a review asked for.
type dirCache struct {
	mu sync.Mutex
	m  map[string]*API
}

var dirsOf review.Memo[*dirCache]

// Dir returns the declarations of the package in the repository
// directory dir (slash-separated, relative to cs.Root): its non-test .go
// files, from the change set or the work tree, memoised on cs.
func Dir(cs *review.ChangeSet, dir string) *API {
	c := dirsOf.OfSet(cs, func() *dirCache { return &dirCache{m: map[string]*API{}} })
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.m[dir]; ok {
		return a
	}
	a := dirDecls(cs, dir, "", "")
	c.m[dir] = a
	return a
}

// builtinTypes are the predeclared types, which a local type name is not.
var builtinTypes = map[string]bool{"error": true, "string": true, "bool": true, "byte": true, "rune": true, "any": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true, "uint": true, "uint8": true, "uint16": true,
	"uint32": true, "uint64": true, "uintptr": true, "float32": true, "float64": true, "complex64": true, "complex128": true}

// Qualify returns t with a type declared in the package at importPath
// (spelled without a path there) named with it: "*Cmd" -> "*p.Cmd".
func Qualify(t, importPath string) string {
	star := strings.HasPrefix(t, "*")
	n := strings.TrimPrefix(t, "*")
	if n == "" || Named(n) == "" || strings.Contains(n, ".") || builtinTypes[n] {
		return t
	}
	if star {
		return "*" + importPath + "." + n
	}
	return importPath + "." + n
}

// dirDecls merges the declarations of dir's non-test .go files of package
// pkg ("" for any), but skip.
func dirDecls(cs *review.ChangeSet, dir, pkg, skip string) *API {
	a := newAPI()
	if cs == nil {
		return a
	}
	seen := map[string]bool{skip: true}
	add := func(d *fileDecls) {
		if d != nil && (pkg == "" || d.pkg == pkg) {
			d.api.mergeInto(a)
		}
	}
	// Files the change adds are not on disk when they are staged only.
	for _, o := range cs.Files {
		if path.Dir(o.Path) == dir && !seen[o.Path] && o.Language == review.LangGo && !review.IsTestPath(o.Path) && o.Content != nil {
			seen[o.Path] = true
			if og := syntax.Go(o); og.File != nil {
				add(&fileDecls{pkg: og.File.Name.Name, api: declsOf(og.File)})
			}
		}
	}
	if cs.Root == "" {
		return a
	}
	entries, _ := os.ReadDir(filepath.Join(cs.Root, filepath.FromSlash(dir)))
	n := 0
	for _, e := range entries {
		name := e.Name()
		p := path.Join(dir, name)
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || seen[p] {
			continue
		}
		if n++; n > maxSiblings {
			break
		}
		add(siblingDecls(cs, p))
	}
	return a
}

func (a *API) mergeInto(b *API) {
	for k, v := range a.Funcs {
		b.Funcs[k] = v
	}
	for k, v := range a.Vars {
		b.Vars[k] = v
	}
	for t, ms := range a.Methods {
		for k, v := range ms {
			b.addMethod(t, k, v)
		}
	}
	for t, fs := range a.Fields {
		for k, v := range fs {
			b.addField(t, k, v)
		}
	}
	for k, v := range a.Zeros {
		b.Zeros[k] = v
	}
}

// fileDecls are the declarations of one sibling file.
type fileDecls struct {
	pkg string
	api *API
}

// siblingEntry is a cached file's declarations and the size and
// modification time they were read at.
type siblingEntry struct {
	size  int64
	mtime time.Time
	decls *fileDecls
}

// siblings caches the declarations of files read from disk, by path,
// across reviews: a save re-reads only what changed, and a file's entry
// is replaced rather than joined by each version a long session saves.
var siblings sync.Map // absolute path -> siblingEntry

func siblingDecls(cs *review.ChangeSet, p string) *fileDecls {
	if o := cs.File(p); o != nil && o.Content != nil {
		if g := syntax.Go(o); g.File != nil {
			return &fileDecls{pkg: g.File.Name.Name, api: declsOf(g.File)}
		}
		return nil
	}
	abs := filepath.Join(cs.Root, filepath.FromSlash(p))
	info, err := os.Stat(abs)
	if err != nil || !info.Mode().IsRegular() {
		return nil
	}
	if e, ok := siblings.Load(abs); ok {
		if e := e.(siblingEntry); e.size == info.Size() && e.mtime.Equal(info.ModTime()) {
			return e.decls
		}
	}
	src, err := regular.ReadFile(abs)
	if err != nil {
		return nil
	}
	file, err := parser.ParseFile(token.NewFileSet(), abs, src, parser.SkipObjectResolution)
	if file == nil || err != nil && file.Name == nil {
		return nil
	}
	d := &fileDecls{pkg: file.Name.Name, api: declsOf(file)}
	siblings.Store(abs, siblingEntry{info.Size(), info.ModTime(), d})
	return d
}

// declsOf returns the top-level functions, methods, typed variables and
// struct fields of file.
func declsOf(file *ast.File) *API {
	a := newAPI()
	imports := Imports(file)
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			res := Results(d.Type, imports)
			if d.Recv == nil {
				a.Funcs[d.Name.Name] = res
			} else if recv := syntax.GoRecvType(d); recv != "" {
				a.addMethod(recv, d.Name.Name, res)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if z := ZeroOf(s.Type, imports); z != "" {
						a.Zeros[s.Name.Name] = z
					}
					st, ok := s.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, f := range st.Fields.List {
						t := TypeString(f.Type, imports)
						for _, n := range f.Names {
							a.addField(s.Name.Name, n.Name, t)
						}
					}
				case *ast.ValueSpec:
					if s.Type == nil {
						continue
					}
					t := TypeString(s.Type, imports)
					for _, n := range s.Names {
						a.Vars[n.Name] = t
					}
				}
			}
		}
	}
	return a
}

// ZeroOf spells the zero value of a type written t, as [API.Zeros] does:
// a named type other than a predeclared one is "=" and its name, to be
// looked up; "" when the form does not tell (a generic instance).
func ZeroOf(t ast.Expr, imports map[string]string) string {
	switch x := t.(type) {
	case *ast.ParenExpr:
		return ZeroOf(x.X, imports)
	case *ast.StarExpr, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType:
		return "nil"
	case *ast.ArrayType:
		if x.Len == nil {
			return "nil"
		}
		return "{}"
	case *ast.StructType:
		return "{}"
	case *ast.Ident:
		if z := builtinZero(x.Name); z != "" {
			return z
		}
		return "=" + x.Name
	case *ast.SelectorExpr:
		if t := TypeString(x, imports); t != "" {
			return "=" + t
		}
	}
	return ""
}

// builtinZero spells the zero value of a predeclared type, "" for another
// name.
func builtinZero(name string) string {
	switch name {
	case "bool":
		return "false"
	case "string":
		return `""`
	case "error", "any":
		return "nil"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
		"float32", "float64", "complex64", "complex128", "byte", "rune":
		return "0"
	}
	return ""
}

// Imports maps the local names of file's imports to their paths.
func Imports(file *ast.File) map[string]string {
	m := map[string]string{}
	for _, imp := range file.Imports {
		p := strings.Trim(imp.Path.Value, "\"`")
		m[lens.GoImportName(file, p)] = p
	}
	return m
}

// Results renders the result types of a function type.
func Results(ft *ast.FuncType, imports map[string]string) []string {
	if ft.Results == nil {
		return nil
	}
	var out []string
	for _, f := range ft.Results.List {
		t := TypeString(f.Type, imports)
		for range max(1, len(f.Names)) {
			out = append(out, t)
		}
	}
	return out
}

// TypeString renders a type expression as goapi spells types: imported
// names with their package path; "" for a form it does not follow.
func TypeString(e ast.Expr, imports map[string]string) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		if t := TypeString(x.X, imports); t != "" {
			return "*" + t
		}
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if p, ok := imports[id.Name]; ok {
				return p + "." + x.Sel.Name
			}
		}
	case *ast.ArrayType:
		if t := TypeString(x.Elt, imports); t != "" && x.Len == nil {
			return "[]" + t
		}
	case *ast.MapType:
		k, v := TypeString(x.Key, imports), TypeString(x.Value, imports)
		if k != "" && v != "" {
			return "map[" + k + "]" + v
		}
	case *ast.IndexExpr: // a generic instance: its base type's methods
		return TypeString(x.X, imports)
	case *ast.IndexListExpr:
		return TypeString(x.X, imports)
	case *ast.ParenExpr:
		return TypeString(x.X, imports)
	case *ast.InterfaceType:
		if x.Methods == nil || len(x.Methods.List) == 0 {
			return "any"
		}
	}
	return ""
}
