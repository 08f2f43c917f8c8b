package risk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// benchSource is a 200-line Go file with a realistic mix of calls.
func benchSource(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p%d\n\nimport (\n\t\"context\"\n\t\"encoding/json\"\n\t\"net/http\"\n)\n\n", i)
	for n := 0; b.Len() < 200*40; n++ {
		fmt.Fprintf(&b, "// Handle%d serves one request of kind %d.\n", n, n)
		fmt.Fprintf(&b, "func (s *Server) Handle%d(ctx context.Context, w http.ResponseWriter, r *http.Request) error {\n", n)
		b.WriteString("\tvar req struct{ Name string `json:\"name\"` }\n")
		b.WriteString("\tif err := json.NewDecoder(r.Body).Decode(&req); err != nil {\n\t\treturn err\n\t}\n")
		b.WriteString("\tfor _, item := range s.items {\n\t\tif item.Name == req.Name {\n\t\t\ts.log.Info(\"found\", \"name\", item.Name)\n\t\t}\n\t}\n")
		b.WriteString("\treturn nil\n}\n\n")
	}
	return b.String()
}

// BenchmarkAssess measures a 20-file change (16 Go files of ~200 lines with
// 30 changed lines each, two tests, a go.mod and a Markdown file) in a
// work tree with sibling tests and a coverage profile.
func BenchmarkAssess(b *testing.B) {
	root := b.TempDir()
	var profile strings.Builder
	profile.WriteString("mode: set\n")
	writeFile(b, root, "go.mod", "module example.com/m\n", past)
	var mk []func() *review.File
	for i := range 16 {
		p := fmt.Sprintf("svc%d/handler%d.go", i%4, i)
		src := benchSource(i)
		writeFile(b, root, p, src, past)
		if i%2 == 0 {
			writeFile(b, root, fmt.Sprintf("svc%d/handler%d_test.go", i%4, i), "x\n", past)
		}
		for l := 10; l < 200; l += 10 {
			fmt.Fprintf(&profile, "example.com/m/%s:%d.2,%d.10 3 %d\n", p, l, l+5, l%20/10)
		}
		mk = append(mk, func() *review.File {
			changed := make([]int, 0, 30)
			for l := 20; l < 50; l++ {
				changed = append(changed, l)
			}
			return file(p, review.StatusModified, src, changed...)
		})
	}
	writeFile(b, root, "coverage.out", profile.String(), future)
	mk = append(mk,
		func() *review.File {
			return file("svc0/handler0_test.go", review.StatusModified, benchSource(99), 5, 6, 7)
		},
		func() *review.File { return file("svc1/extra_test.go", review.StatusAdded, benchSource(98)) },
		func() *review.File {
			return file("go.mod", review.StatusModified, "module example.com/m\n\nrequire x v1\n", 3)
		},
		func() *review.File { return file("docs/api.md", review.StatusModified, "# API\n\nSome text.\n", 3) },
	)
	hist := &review.History{Available: true, Limit: 200}
	for i := range 200 {
		hist.Commits = append(hist.Commits, review.Commit{Hash: fmt.Sprint(i),
			Paths: []string{fmt.Sprintf("svc%d/handler%d.go", i%4, i%16), fmt.Sprintf("other/%d.go", i%7)}})
	}
	css := make([]*review.ChangeSet, b.N)
	for i := range css {
		files := make([]*review.File, len(mk))
		for j, f := range mk {
			files[j] = f()
		}
		css[i] = changeSet(root, files...)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		r := Assess(css[i], hist, Options{})
		if len(r.Evidence) != 6 {
			b.Fatal("want six entries")
		}
	}
}
