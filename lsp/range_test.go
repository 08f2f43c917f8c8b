package lsp_test

import (
	"testing"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/lsp/lsptest"
)

// TestWholeLineRangeStartsAtCode checks that a finding about whole lines
// (no column of its own) is underlined from its line's first non-blank
// character to the line's end, not under the indentation: the column the
// CLI prints (store.go:3:2, job.py:4:5), in UTF-16 units.
func TestWholeLineRangeStartsAtCode(t *testing.T) {
	dir := repo(t, map[string]string{"store.go": "package store\n", "job.py": "x = 1\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	// f does something beside its TODO: a body with only a TODO is a stub
	// (readiness/stub), a finding of its own.
	env.WriteFile("store.go", "package store\n\nfunc f() {\n\t// TODO: report missing keys\n\tg()\n}\n\nfunc g() {}\n")
	env.WriteFile("job.py", "def run(items):\n    try:\n        return items\n    except:\n        return []\n")
	env.Await(lsptest.DiagnosticsAt("store.go", 0, lsptest.OnLines(4), lsptest.WithCode("readiness/todo-added")),
		lsptest.DiagnosticsAt("job.py", 0, lsptest.OnLines(4), lsptest.WithCode("functional/bare-except")))
	for _, tt := range []struct {
		path      string
		want      protocol.Range
		firstCode string
	}{
		{"store.go", protocol.Range{Start: protocol.Position{Line: 3, Character: 1}, End: protocol.Position{Line: 3, Character: 29}}, "//"},
		{"job.py", protocol.Range{Start: protocol.Position{Line: 3, Character: 4}, End: protocol.Position{Line: 3, Character: 11}}, "except:"},
	} {
		d := env.Client.Diagnostics(env.URI(tt.path))
		if len(d) != 1 {
			t.Fatalf("%s: %d diagnostics, want 1: %+v", tt.path, len(d), d)
		}
		if d[0].Range != tt.want {
			t.Errorf("%s: range %+v, want %+v (from %q to the end of the line)", tt.path, d[0].Range, tt.want, tt.firstCode)
		}
	}
	env.Shutdown()
}
