package layers

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/reviewls/reviewls"

// rule denies imports with one of the prefixes to files under dirs.
type rule struct {
	name    string
	applies func(dir string) bool
	deny    []string
	// allow are exceptions to deny.
	allow []string
	// prodOnly leaves test files out (they may build fixtures with the
	// layer below).
	prodOnly bool
}

func under(prefixes ...string) func(string) bool {
	return func(dir string) bool {
		for _, p := range prefixes {
			if dir == p || strings.HasPrefix(dir, p+"/") {
				return true
			}
		}
		return false
	}
}

var rules = []rule{
	{
		name:    "the engine, artifacts and schemas know nothing of LSP or the watcher",
		applies: under("review", "artifacts", "schemas"),
		deny:    []string{"go.lsp.dev/", "github.com/fsnotify/", module + "/lsp", module + "/cmd"},
	},
	{
		name:    "go-git stays behind review/gitdiff (and the test-only review/reviewtest)",
		applies: func(dir string) bool { return !under("review/gitdiff", "review/reviewtest")(dir) },
		deny:    []string{"github.com/go-git/"},
	},
	{
		name:     "the front ends use only the engine, the model and artifacts",
		applies:  under("lsp", "cmd"),
		deny:     []string{module + "/review/"},
		allow:    []string{module + "/review/engine"},
		prodOnly: true,
	},
	{
		name:    "the rules never read the repository",
		applies: under("review/lens"),
		deny:    []string{module + "/review/gitdiff"},
	},
	{
		name:    "review/syntax sits on the model alone: every stage reads it",
		applies: under("review/syntax"),
		deny: []string{module + "/review/lens", module + "/review/symbol", module + "/review/risk", module + "/review/orient",
			module + "/review/engine", module + "/review/process", module + "/review/gitdiff", module + "/review/config",
			module + "/artifacts", module + "/schemas"},
	},
	{
		name:    "review/secret sits on the model and review/syntax: the rules, the engine and artifacts share it",
		applies: under("review/secret"),
		deny: []string{module + "/review/lens", module + "/review/symbol", module + "/review/risk", module + "/review/orient",
			module + "/review/engine", module + "/review/process", module + "/review/gitdiff", module + "/review/config",
			module + "/artifacts", module + "/schemas"},
	},
	{
		name:    "review does not import artifacts",
		applies: under("review"),
		deny:    []string{module + "/artifacts"},
	},
	{
		name:    "schemas is a leaf",
		applies: under("schemas"),
		deny:    []string{module + "/"},
	},
	{
		name:    "nothing imports cmd",
		applies: func(string) bool { return true },
		deny:    []string{module + "/cmd"},
	},
	{
		name:    "production code never imports test helpers",
		applies: func(string) bool { return true },
		deny:    []string{module + "/review/reviewtest", module + "/review/lens/lenstest", module + "/lsp/lsptest", module + "/review/llm/llmtest"},
	},
}

func TestImportRules(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git", ".copilot-tracking":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		dir := filepath.ToSlash(filepath.Dir(rel))
		isTest := strings.HasSuffix(path, "_test.go")
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			ipath, _ := strconv.Unquote(imp.Path.Value)
			for _, r := range rules {
				if !r.applies(dir) || r.prodOnly && isTest {
					continue
				}
				// Tests may use the test helpers, and helper packages may
				// import each other.
				if r.name == "production code never imports test helpers" && (isTest || strings.HasSuffix(dir, "test")) {
					continue
				}
				for _, d := range r.deny {
					if slices.ContainsFunc(r.allow, func(a string) bool { return strings.HasPrefix(ipath, a) }) {
						continue
					}
					if strings.HasPrefix(ipath, d) && !(strings.HasPrefix(d, module) && strings.HasPrefix(module+"/"+dir, d)) {
						t.Errorf("%s imports %s: %s", rel, ipath, r.name)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("checked only %d files; is the walk rooted at the module?", checked)
	}
}
