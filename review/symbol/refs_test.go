package symbol

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/internal/treetest"
	"github.com/reviewls/reviewls/review"
)

// writeTree writes files (slash paths) under a new temporary directory.
func writeTree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	root := tb.TempDir()
	treetest.Write(tb, root, files)
	return root
}

func TestReferences(t *testing.T) {
	store := `package store

// Load reads the store; see also LoadAll.
func Load(path string) error {
	return nil
}

func use() {
	_ = Load("a") // Load again
	msg := "Load is in a string"
	f := Load
	_, _ = msg, f
}
`
	root := writeTree(t, map[string]string{
		"store/store.go":      store,
		"store/store_test.go": "package store\n\nfunc TestLoad(t *testing.T) { Load(`x`) }\n",
		"web/app.ts": "import { Load } from './store';\n" +
			"const s = `Load: ${Load('x')}`; /* Load */\n" +
			"const re = /Load/;\n",
		"docs/notes.md": "Call Load(path) first; LoadAll later.\n",
		"big/data.go":   "package big\n\nvar Load = 1\n" + strings.Repeat("// padding\n", 100_000),
		"bin/blob.dat":  "Load\x00Load",
		"py/tool.py":    "def run():\n    return Load()  # Load\n",
	})
	paths := []string{"store/store.go", "store/store_test.go", "web/app.ts", "docs/notes.md", "big/data.go", "bin/blob.dat", "py/tool.py", "gone/missing.go"}
	def := &Extract("store/store.go", []byte(store), review.LangGo)[0]
	if def.Name != "Load" {
		t.Fatalf("definition = %+v", def)
	}

	got, err := References(root, paths, nil, "Load", def, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []Ref{
		{Path: "store/store.go", Line: 9, Col: 6, Text: `_ = Load("a") // Load again`, Call: true},
		{Path: "store/store.go", Line: 11, Col: 7, Text: "f := Load"},
		{Path: "store/store_test.go", Line: 3, Col: 31, Text: "func TestLoad(t *testing.T) { Load(`x`) }", InTest: true, Call: true},
		{Path: "web/app.ts", Line: 1, Col: 10, Text: "import { Load } from './store';"},
		{Path: "web/app.ts", Line: 2, Col: 20, Text: "const s = `Load: ${Load('x')}`; /* Load */", Call: true},
		{Path: "docs/notes.md", Line: 1, Col: 6, Text: "Call Load(path) first; LoadAll later.", Call: true},
		{Path: "py/tool.py", Line: 2, Col: 12, Text: "return Load()  # Load", Call: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("References (-want +got):\n%s", diff)
	}

	t.Run("without definition", func(t *testing.T) {
		got, err := References(root, paths[:1], nil, "Load", nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0].Line != 4 {
			t.Errorf("got %+v, want the definition on line 4 first", got)
		}
	})
	t.Run("maxRefs", func(t *testing.T) {
		got, err := References(root, paths, nil, "Load", def, 3)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[:3], got); diff != "" {
			t.Errorf("References (-want +got):\n%s", diff)
		}
	})
	t.Run("overlay", func(t *testing.T) {
		overlay := map[string][]byte{
			"store/store.go":  []byte("package store\n\n// Load is gone.\nvar x = 1\n"),
			"gone/missing.go": []byte("package gone\n\nvar y = store.Load\n"),
		}
		got, err := References(root, []string{"store/store.go", "gone/missing.go"}, overlay, "store.Load", nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := []Ref{{Path: "gone/missing.go", Line: 3, Col: 15, Text: "var y = store.Load"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("References (-want +got):\n%s", diff)
		}
	})
	t.Run("not an identifier", func(t *testing.T) {
		if got, err := References(root, paths, nil, "a b", nil, 0); got != nil || err != nil {
			t.Errorf("got %v, %v", got, err)
		}
	})
	t.Run("unreadable", func(t *testing.T) {
		// A directory cannot be read as a file: the error names it, and
		// the other results still come back.
		got, err := References(root, []string{"store", "py/tool.py"}, nil, "Load", nil, 0)
		if err == nil || !strings.Contains(err.Error(), "read store") {
			t.Errorf("err = %v, want a read error for store", err)
		}
		if len(got) != 1 {
			t.Errorf("got %+v, want the use in py/tool.py", got)
		}
	})
}

// BenchmarkReferences searches 5,000 small generated files, one in ten of
// which mentions the name.
func BenchmarkReferences(b *testing.B) {
	files := map[string]string{}
	var paths []string
	for i := range 5000 {
		var sb bytes.Buffer
		fmt.Fprintf(&sb, "package p%d\n\nimport \"fmt\"\n\n", i%50)
		for j := range 8 {
			fmt.Fprintf(&sb, "// helper%d formats a value.\nfunc helper%d_%d(v int) string {\n\treturn fmt.Sprint(v + %d)\n}\n\n", j, i, j, j)
		}
		if i%10 == 0 {
			sb.WriteString("func use() { _ = LoadConfig(\"x\") }\n")
		}
		p := fmt.Sprintf("pkg%d/file%d.go", i%50, i)
		files[p] = sb.String()
		paths = append(paths, p)
	}
	root := writeTree(b, files)
	b.ResetTimer()
	for b.Loop() {
		refs, err := References(root, paths, nil, "LoadConfig", nil, 0)
		if err != nil || len(refs) != 500 {
			b.Fatalf("got %d refs, %v", len(refs), err)
		}
	}
}
