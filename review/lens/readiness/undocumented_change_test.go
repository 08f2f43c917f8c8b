package readiness

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// storeOld and storeNew are a library package whose change alters the
// signature of Get, removes Delete, and touches an unexported helper.
const storeOld = `package store

// Get returns a record.
func Get(key string) (string, error) { return "", nil }

// Delete removes a record.
func Delete(key string) {}

func helper() {}
`

const storeNew = `package store

// Get returns a record.
func Get(ctx context.Context, key string) (string, error) { return "", nil }

func helper(n int) {}
`

const clientPy = `import os


def base_url():
    return os.environ.get("CLIENT_BASE_URL", "https://example.com")
`

const indexJS = `const fallback = 'x';
module.exports = function load() {
  return process.env.LOADER_PATH || fallback;
};
`

const packageJSON = `{
  "name": "tool",
  "version": "1.2.0",
  "bin": {
    "tool": "bin/tool.js"
  },
  "scripts": {
    "test": "vitest"
  }
}
`

// undocumented returns the change set of files, each changed from old to
// new ("" old: an untracked file), with onDisk committed around them.
func undocumented(t *testing.T, files map[string][2]string, onDisk map[string]string) *review.ChangeSet {
	t.Helper()
	cs := &review.ChangeSet{Root: t.TempDir()}
	for p, c := range onDisk {
		scriptWrite(t, cs.Root, p, c)
	}
	for p, c := range files {
		scriptWrite(t, cs.Root, p, c[1])
		if c[0] == "" {
			cs.Files = append(cs.Files, lenstest.NewFile(p, []byte(c[1])))
		} else {
			cs.Files = append(cs.Files, lenstest.Modified(p, c[0], c[1]))
		}
	}
	cs.Sort()
	return cs
}

func TestUndocumentedChange(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string][2]string
		onDisk map[string]string
		want   []string
	}{
		{"go library API", map[string][2]string{"store/store.go": {storeOld, storeNew}}, nil, []string{"store/store.go"}},
		{"python library environment", map[string][2]string{"client/config.py": {"", clientPy}}, nil, []string{"client/config.py"}},
		{"js library environment", map[string][2]string{"lib/index.js": {"", indexJS}}, map[string]string{"package.json": `{"name": "loader"}`}, []string{"lib/index.js"}},
		{"package.json entry points", map[string][2]string{"package.json": {"", packageJSON}}, nil, []string{"package.json"}},
		{"one note for the change", map[string][2]string{"store/store.go": {storeOld, storeNew}, "client/config.py": {"", clientPy}}, nil, []string{"client/config.py,store/store.go"}},
		{"documented in the changelog", map[string][2]string{"store/store.go": {storeOld, storeNew}, "CHANGELOG.md": {"", "## 1.3.0\n"}}, nil, nil},
		{"documented under docs/", map[string][2]string{"client/config.py": {"", clientPy}, "docs/config.rst": {"", "Config\n======\n"}}, nil, nil},
		{"tests are not API", map[string][2]string{"store/store_test.go": {storeOld, storeNew}, "tests/conf.py": {"", clientPy}}, nil, nil},
		// Near misses from real commits: application code and examples
		// (gh's pkg/cmd/..., cobra's examples), a CLI's main package.
		{"application and example code", map[string][2]string{
			"pkg/cmd/alias/delete/delete.go": {storeOld, storeNew},
			"cmd/gh/main.go":                 {storeOld, storeNew},
			"internal/store/store.go":        {storeOld, storeNew},
			"examples/store/store.go":        {storeOld, storeNew},
			"_examples/store/store.go":       {storeOld, storeNew},
			"store/testdata/store.go":        {storeOld, storeNew},
		}, nil, nil},
		{"go main package", map[string][2]string{"tool/main.go": {strings.Replace(storeOld, "package store", "package main", 1), strings.Replace(storeNew, "package store", "package main", 1)}}, nil, nil},
		{"python script", map[string][2]string{"client/run.py": {"", clientPy + "\n\nif __name__ == \"__main__\":\n    print(base_url())\n"}, "client/__main__.py": {"", clientPy}}, nil, nil},
		{"private npm package", map[string][2]string{"web/src/index.js": {"", indexJS}, "web/package.json": {"", strings.Replace(packageJSON, "{\n", "{\n  \"private\": true,\n", 1)}}, nil, nil},
		{"app inside a private monorepo root", map[string][2]string{"apps/site/index.js": {"", indexJS}}, map[string]string{"package.json": `{"private": true, "workspaces": ["apps/*"]}`}, nil},
		// Flags and routes are application surface, documented by their
		// help text (gh's "Add --all flag to alias delete").
		{"flags and routes", map[string][2]string{"server/server.go": {"", "package server\n\nimport (\n\t\"flag\"\n\t\"net/http\"\n)\n\nvar addr = flag.String(\"addr\", \":8080\", \"listen address\")\n\nfunc Routes() { http.HandleFunc(\"GET /healthz\", nil) }\n"}}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := notePaths(lenstest.Notes(t, UndocumentedChange, undocumented(t, tt.files, tt.onDisk)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUndocumentedChangeMessage checks the listed triggers of the note.
func TestUndocumentedChangeMessage(t *testing.T) {
	got := lenstest.Notes(t, UndocumentedChange, undocumented(t, map[string][2]string{"store/store.go": {storeOld, storeNew}}, nil))
	if len(got) != 1 {
		t.Fatalf("got %+v, want one note", got)
	}
	n := got[0]
	want := "The change alters the public API of library code (store/store.go:4 signature of exported Get changed; store/store.go:4 exported Delete removed)"
	if n.Kind != review.NoteUndocumentedAPI || n.Kind.Testing() || !strings.HasPrefix(n.Message, want) {
		t.Errorf("note = %+v, want kind %s and message prefix %q", n, review.NoteUndocumentedAPI, want)
	}
}

// TestUndocumentedChangeOnlyNewEnv checks that an environment variable the
// file already read is not new.
func TestUndocumentedChangeOnlyNewEnv(t *testing.T) {
	f := lenstest.NewFile("lib/server.js", []byte("const a = process.env.API_URL;\nconst b = process.env.API_URL + '/v2';\n"))
	f.Lines = map[int]review.LineState{2: review.LineUnstaged}
	cs := &review.ChangeSet{Files: []*review.File{f}}
	if got := lenstest.Notes(t, UndocumentedChange, cs); len(got) != 0 {
		t.Errorf("got %v, want nothing", got)
	}
}

// TestUndocumentedChangeGoAPI checks what makes a Go API change: a method
// of an unexported type is not API, a rewritten doc comment documents the
// new signature, and a new exported function is documented by its own doc
// comment.
func TestUndocumentedChangeGoAPI(t *testing.T) {
	const old = "package store\n\ntype server struct{}\n\n// Get returns a record.\nfunc (s *server) Get(key string) string { return \"\" }\n"
	const new = "package store\n\ntype server struct{}\n\n// Get returns a record.\nfunc (s *server) Get(ctx context.Context, key string) string { return \"\" }\n"
	if got := lenstest.Notes(t, UndocumentedChange, undocumented(t, map[string][2]string{"store/server.go": {old, new}}, nil)); len(got) != 0 {
		t.Errorf("method of an unexported type: got %+v", got)
	}
	exported := strings.ReplaceAll(strings.ReplaceAll(new, "server", "Server"), "// Get returns a record.", "// Get returns the record of key.")
	if got := lenstest.Notes(t, UndocumentedChange, undocumented(t, map[string][2]string{"store/server.go": {strings.ReplaceAll(old, "server", "Server"), exported}}, nil)); len(got) != 0 {
		t.Errorf("doc comment rewritten with the signature: got %+v", got)
	}
	if got := lenstest.Notes(t, UndocumentedChange, undocumented(t, map[string][2]string{"store/server.go": {strings.ReplaceAll(old, "server", "Server"), strings.ReplaceAll(new, "server", "Server")}}, nil)); len(got) != 1 {
		t.Errorf("method of an exported type: got %+v, want a note", got)
	}
	if got := lenstest.Notes(t, UndocumentedChange, undocumented(t, map[string][2]string{"store/store.go": {"", storeNew}}, nil)); len(got) != 0 {
		t.Errorf("new file: got %+v, want nothing", got)
	}
	// A one-line function whose body changed keeps its signature.
	oneLine := "package util\n\n// Twice doubles n.\nfunc Twice(n int) int { return 2 * n }\n"
	if got := lenstest.Notes(t, UndocumentedChange, undocumented(t, map[string][2]string{"util/util.go": {oneLine, strings.Replace(oneLine, "2 * n }", "n + n } // TODO: overflow", 1)}}, nil)); len(got) != 0 {
		t.Errorf("body of a one-line function: got %+v, want nothing", got)
	}
}
