package lsp_test

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/lsp/lsptest"
)

// TestFindingCapsLogged checks that the server publishes only the findings
// the caps keep and says in its log how many it left out.
func TestFindingCapsLogged(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n", ".reviewls.yaml": "max-findings: {per-file: 2}\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.WriteFile("flood.js", strings.Repeat("console.log(\"x\"); // TODO\n", 5))
	env.Await(lsptest.LogContaining("6 findings not shown: 6 past the per-file cap of 2 findings of one rule in one file"),
		lsptest.DiagnosticsAt("flood.js", 0, lsptest.Count(4)))
	env.Shutdown()
}
