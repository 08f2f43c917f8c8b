package symbol

import (
	"reflect"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// TestOfFromSharedParse checks that the symbols read from the shared full
// parse (Of on a Go file) are those of Extract, which parses with the
// function bodies cut out: on well-formed code, generics, methods,
// groups, and code with syntax errors.
func TestOfFromSharedParse(t *testing.T) {
	for name, src := range map[string]string{
		"funcs and methods": "package a\n\n// A does.\nfunc A(x int) (int, error) {\n\tif x > 0 {\n\t\treturn x, nil\n\t}\n\treturn 0, nil\n}\n\ntype T struct{ n int }\n\nfunc (t *T) M() { t.n++ }\n",
		"generics":          "package a\n\ntype List[E any] struct{ items []E }\n\nfunc Map[T, U any](s []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, v := range s {\n\t\tout = append(out, f(v))\n\t}\n\treturn out\n}\n",
		"groups":            "package a\n\nconst (\n\tA = iota\n\tB\n)\n\nvar (\n\tx, y = 1, 2\n)\n\ntype (\n\tI interface{ M() }\n\tS = string\n)\n",
		"syntax error":      "package a\n\nfunc A() {\n\tx := \n}\n\nfunc B() int { return 1 }\n",
		"closures":          "package a\n\nvar f = func() int {\n\treturn func() int { return 1 }()\n}\n\nfunc init() { _ = f }\n",
	} {
		f := &review.File{Path: "a.go", Content: []byte(src), Language: review.LangGo}
		if got, want := Of(f), Extract(f.Path, f.Content, review.LangGo); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Of = %+v\nExtract = %+v", name, got, want)
		}
		if syntax.Go(f) != syntax.Go(f) {
			t.Errorf("%s: syntax.Go parsed twice", name)
		}
	}
}
