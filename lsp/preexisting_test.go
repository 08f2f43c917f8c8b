package lsp_test

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review"
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

// TestBaselineInEditor: a finding recorded in .reviewls-baseline.json gets
// no diagnostic, as in the CLI; writing the baseline (reviewls baseline
// create from another terminal) clears it without an edit, and a bad
// baseline is reported and ignored rather than hiding every finding.
func TestBaselineInEditor(t *testing.T) {
	dir := repo(t, map[string]string{"a.py": "def f():\n    return 1\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.WriteFile("a.py", "def f():\n    x = load()  # TODO: handle a missing file\n    return x\n")
	env.Await(lsptest.DiagnosticsAt("a.py", 0, lsptest.OnLines(2), lsptest.WithCode("readiness/todo-added")))
	id := env.Client.Diagnostics(env.URI("a.py"))[0].Data.(map[string]any)["id"].(string)

	b := &review.Baseline{Entries: []review.BaselineEntry{{Fingerprint: id, RuleID: "readiness/todo-added", Path: "a.py", Count: 1}}}
	if err := artifacts.WriteBaseline(dir, review.BaselineFile, b, artifacts.Options{}); err != nil {
		t.Fatal(err)
	}
	env.Await(lsptest.NoDiagnostics("a.py"))

	env.WriteFile(review.BaselineFile, "{not json")
	env.Await(lsptest.DiagnosticsAt("a.py", 0, lsptest.OnLines(2), lsptest.WithCode("readiness/todo-added")),
		lsptest.MessageContaining("reviewing without the baseline"))
	env.Shutdown()
}
