package lsp_test

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/lsp/lsptest"
)

// TestDiagnosticIDStableWhenLinesShift inserts 50 lines above a finding in
// the editor: the diagnostic moves down and keeps its data.id.
func TestDiagnosticIDStableWhenLinesShift(t *testing.T) {
	dir := repo(t, map[string]string{"a.py": "def f():\n    return 1\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("a.py")
	body := "def f():\n    x = load()  # TODO: handle a missing file\n    return x\n"
	v := env.EditFile("a.py", body)
	env.Await(lsptest.DiagnosticsAt("a.py", uint32(v), lsptest.OnLines(2), lsptest.WithCode("readiness/todo-added")))
	id := env.Client.Diagnostics(env.URI("a.py"))[0].Data.(map[string]any)["id"].(string)
	if !strings.HasPrefix(id, "rv-") {
		t.Fatalf("data.id = %q", id)
	}
	v = env.EditFile("a.py", strings.Repeat("# filler\n", 50)+body)
	env.Await(lsptest.DiagnosticsAt("a.py", uint32(v), lsptest.OnLines(52), lsptest.WithData("id", id)))
	env.Shutdown()
}

// TestPreexistingHasNoDiagnostic: a pattern the committed file already has
// gets no diagnostic when an edit touches its line (here, re-indents it);
// a new copy of it does.
func TestPreexistingHasNoDiagnostic(t *testing.T) {
	const line = "x = load()  # TODO: handle a missing file"
	dir := repo(t, map[string]string{"a.py": "def f():\n    " + line + "\n    return x\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("a.py")
	v := env.EditFile("a.py", "def f(flag):\n    if flag:\n        "+line+"\n    return x\n")
	env.Await(lsptest.DiagnosticsAt("a.py", uint32(v), lsptest.Count(0)))
	v = env.EditFile("a.py", "def f(flag):\n    if flag:\n        "+line+"\n        "+line+"\n    return x\n")
	env.Await(lsptest.DiagnosticsAt("a.py", uint32(v), lsptest.Count(1), lsptest.WithCode("readiness/todo-added")))
	env.Shutdown()
}
