package lsp_test

import (
	"testing"

	"github.com/reviewls/reviewls/lsp/lsptest"
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
// depth (creds/ is a secrets hotspot without a test).
func TestAnalysisSecondPublish(t *testing.T) {
	dir := repo(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "creds/creds.go": showBase})
	env := lsptest.New(t, dir, lsptest.Config{})
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
	env := lsptest.New(t, dir, lsptest.Config{})
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
