package goapi

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/reviewls/reviewls/review"
)

func TestStd(t *testing.T) {
	std := Std()
	for name, want := range map[string][]string{
		"os.Chmod":            {"error"},
		"net/http.NewRequest": {"*net/http.Request", "error"},
		"io.ReadAll":          {"[]byte", "error"},
	} {
		if got := std.Funcs[name]; !slices.Equal(got, want) {
			t.Errorf("Funcs[%s] = %q, want %q", name, got, want)
		}
	}
	if got := std.Methods["os.File"]["Close"]; !slices.Equal(got, []string{"error"}) {
		t.Errorf("(*os.File).Close = %q", got)
	}
	if got := std.Methods["io.ReadCloser"]["Close"]; !slices.Equal(got, []string{"error"}) {
		t.Errorf("io.ReadCloser.Close (embedded) = %q", got)
	}
	if got := std.Fields["net/http.Response"]["Body"]; got != "io.ReadCloser" {
		t.Errorf("http.Response.Body = %q", got)
	}
	if got := std.Vars["net/http.DefaultClient"]; got != "*net/http.Client" {
		t.Errorf("http.DefaultClient = %q", got)
	}
}

func TestDeclsOf(t *testing.T) {
	src := `package p

import (
	h "net/http"
	"example.com/mod/v2"
)

type T struct {
	Resp *h.Response
	M    map[string][]mod.Item
}

func New() (*T, error) { return nil, nil }
func (t *T) Close() (n int, err error) { return 0, nil }
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	a := declsOf(f)
	if got := a.Funcs["New"]; !slices.Equal(got, []string{"*T", "error"}) {
		t.Errorf("New = %q", got)
	}
	if got := a.Methods["T"]["Close"]; !slices.Equal(got, []string{"int", "error"}) {
		t.Errorf("T.Close = %q", got)
	}
	if got := a.Fields["T"]["Resp"]; got != "*net/http.Response" {
		t.Errorf("T.Resp = %q", got)
	}
	if got := a.Fields["T"]["M"]; got != "map[string][]example.com/mod/v2.Item" {
		t.Errorf("T.M = %q", got)
	}
	if Named("*os.File") != "os.File" || Named("[]byte") != "" || Named("map[string]int") != "" {
		t.Error("Named")
	}
}

// TestSiblingCache checks the cache of sibling files read from disk: an
// edit is read again (size or time changed) and replaces the file's
// entry, so a long session holds one entry per file.
func TestSiblingCache(t *testing.T) {
	root := t.TempDir()
	abs := filepath.Join(root, "a.go")
	write := func(src string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(abs, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	cs := &review.ChangeSet{Root: root}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write("package a\n\nfunc Old() error { return nil }\n", t0)
	if d := siblingDecls(cs, "a.go"); d == nil || d.api.Funcs["Old"] == nil {
		t.Fatalf("first read: %+v", d)
	}
	write("package a\n\nfunc New() (int, error) { return 0, nil }\n", t0.Add(time.Second))
	d := siblingDecls(cs, "a.go")
	if d == nil || d.api.Funcs["New"] == nil || d.api.Funcs["Old"] != nil {
		t.Fatalf("after the edit: %+v", d)
	}
	n := 0
	siblings.Range(func(k, _ any) bool {
		if k == abs {
			n++
		}
		return true
	})
	if n != 1 {
		t.Errorf("%d cache entries for %s, want 1", n, abs)
	}
	if again := siblingDecls(cs, "a.go"); again != d {
		t.Error("an unchanged file was read again")
	}
}
