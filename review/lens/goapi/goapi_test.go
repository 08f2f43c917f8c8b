package goapi

import (
	"go/parser"
	"go/token"
	"slices"
	"testing"
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
