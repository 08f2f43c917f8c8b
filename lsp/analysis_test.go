package lsp_test

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/lsp"
	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review/engine"
)

const (
	showBase = "package creds\n\nimport \"fmt\"\n\n// Show prints a name.\nfunc Show(name string) {\n\tfmt.Println(name)\n}\n"
	// showPrintf adds a TODO (a pattern finding) and a Printf verb of
	// the wrong type (a type-aware finding).
	showPrintf = "package creds\n\nimport \"fmt\"\n\n// Show prints a name.\nfunc Show(name string) {\n\t// TODO: count\n\tfmt.Println(name)\n\tfmt.Printf(\"%d items\\n\", name)\n}\n"
)

// TestAnalysisSecondPublish checks that the server publishes the pattern
// findings first and the type-aware ones in a second publication, from
// the background analysis, which runs at the recommended comprehensive
// depth (creds/ is a secrets hotspot without a test) in a repository the
// user trusts.
func TestAnalysisSecondPublish(t *testing.T) {
	dir := repo(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "creds/creds.go": showBase})
	env := lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: trusting(t, dir)}})
	env.WriteFile("creds/creds.go", showPrintf)
	env.Await(lsptest.DiagnosticsAt("creds/creds.go", 0, lsptest.WithCode("functional/go-analysis"), lsptest.WithCode("readiness/todo-added")))
	// The first publication held the pattern findings alone: a run that
	// waited for the analysis would have published them all at once.
	if n := env.Client.Publications(env.URI("creds/creds.go")); n < 2 {
		t.Errorf("%d publications, want the pattern findings first and the type-aware ones second", n)
	}
	env.Shutdown()
}

// TestAnalysisTimeoutTold checks that a background analysis that runs out
// of its budget is told in the log, and the other findings stay.
func TestAnalysisTimeoutTold(t *testing.T) {
	dir := repo(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "creds/creds.go": showBase,
		".reviewls.yaml": "analysis: {budget: 1ns}\n"})
	env := lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: trusting(t, dir)}})
	env.WriteFile("creds/creds.go", showPrintf)
	env.Await(lsptest.LogContaining("reviewls: type-aware analysis timed out after 1ns"),
		lsptest.DiagnosticsAt("creds/creds.go", 0, lsptest.WithCode("readiness/todo-added")))
	for _, d := range env.Client.Diagnostics(env.URI("creds/creds.go")) {
		if d.Code == "functional/go-analysis" {
			t.Errorf("a type-aware diagnostic after the analysis timed out: %+v", d)
		}
	}
	env.Shutdown()
}

// trusting returns a user folder in which the user trusts the repository
// at dir, with its configuration as it is.
func trusting(t *testing.T, dir string) string {
	t.Helper()
	user := t.TempDir()
	if _, _, err := engine.Trust(user, dir); err != nil {
		t.Fatal(err)
	}
	return user
}

// TestUntrustedRepositoryTold checks that the server does not honour the
// depth: comprehensive of an untrusted repository's .reviewls.yaml, says
// so once however many reviews run, does not run the analysis at the
// recommended comprehensive depth either (and logs why), and that the
// editor's own depth setting does run it.
func TestUntrustedRepositoryTold(t *testing.T) {
	dir := repo(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "creds/creds.go": showBase,
		".reviewls.yaml": "depth: comprehensive\n"})
	const told = "reviewls: .reviewls.yaml asks for depth: comprehensive (runs the Go toolchain); not done: this repository is not trusted (run `reviewls trust` to allow it)"
	env := lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: t.TempDir()}})
	env.WriteFile("creds/creds.go", showPrintf)
	env.Await(lsptest.MessageContaining(told), lsptest.LogContaining("type-aware analysis skipped: not requested, and this repository is not trusted"),
		lsptest.DiagnosticsAt("creds/creds.go", 0, lsptest.WithCode("readiness/todo-added")))
	env.WriteFile("creds/creds.go", showPrintf+"\n// TODO: again\n")
	env.Await(lsptest.DiagnosticsAt("creds/creds.go", 0, lsptest.WithCode("readiness/todo-added"), lsptest.Count(3)))
	n := 0
	for _, m := range env.Client.Messages() {
		if strings.Contains(m.Message, "not trusted") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("told %d times, want once: %+v", n, env.Client.Messages())
	}
	for _, d := range env.Client.Diagnostics(env.URI("creds/creds.go")) {
		if d.Code == "functional/go-analysis" {
			t.Errorf("a type-aware diagnostic in an untrusted repository: %+v", d)
		}
	}
	env.Shutdown()

	// The editor's setting is the user's: the analysis runs.
	env = lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: t.TempDir()}, InitializationOptions: map[string]any{"depth": "comprehensive"}})
	env.WriteFile("creds/creds.go", showPrintf)
	env.Await(lsptest.DiagnosticsAt("creds/creds.go", 0, lsptest.WithCode("functional/go-analysis")))
	env.Shutdown()
}
