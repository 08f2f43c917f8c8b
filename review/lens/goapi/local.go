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
		pkg := g.File.Name.Name
		dir := path.Dir(f.Path)
		if cs != nil && cs.Root != "" {
			entries, _ := os.ReadDir(filepath.Join(cs.Root, filepath.FromSlash(dir)))
			n := 0
			for _, e := range entries {
				name := e.Name()
				p := path.Join(dir, name)
				if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || p == f.Path {
					continue
				}
				if n++; n > maxSiblings {
					break
				}
				if d := siblingDecls(cs, p); d != nil && d.pkg == pkg {
					d.api.mergeInto(a)
				}
			}
			// Files the change adds are not on disk when they are staged only.
			for _, o := range cs.Files {
				if o != f && path.Dir(o.Path) == dir && o.Language == review.LangGo && !review.IsTestPath(o.Path) && o.Content != nil {
					if og := syntax.Go(o); og.File != nil && og.File.Name.Name == pkg {
						declsOf(og.File).mergeInto(a)
					}
				}
			}
		}
		declsOf(g.File).mergeInto(a) // the file's own declarations win
		return a
	})
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
}

// fileDecls are the declarations of one sibling file.
type fileDecls struct {
	pkg string
	api *API
}

type siblingKey struct {
	path  string
	size  int64
	mtime time.Time
}

// siblings caches the declarations of files read from disk, by path, size
// and modification time, across reviews: a save re-reads only what changed.
var siblings sync.Map // siblingKey -> *fileDecls

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
	key := siblingKey{abs, info.Size(), info.ModTime()}
	if d, ok := siblings.Load(key); ok {
		return d.(*fileDecls)
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
	siblings.Store(key, d)
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
