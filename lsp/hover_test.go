package lsp_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/lsp/lsptest"
)

// TestHoverLeadsWithRationale checks the hover over a finding: the
// rationale first, then the fix and its quick fix, then "More", the rule's
// documentation. The headline and the rule id are the diagnostic's own
// (VS Code shows them in the same box), and the rule's long documentation
// is behind the link, so the hover fits the editor's box.
func TestHoverLeadsWithRationale(t *testing.T) {
	dir := repo(t, map[string]string{"job.py": "def run(items):\n    return items\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("job.py")
	v := env.EditFile("job.py", "def run(items):\n    try:\n        return items\n    except:\n        return []\n")
	env.Await(lsptest.DiagnosticsAt("job.py", uint32(v), lsptest.OnLines(4), lsptest.WithCode("functional/bare-except")))
	h := env.Hover("job.py", protocol.Position{Line: 3, Character: 6})
	if h == nil {
		t.Fatal("no hover over the bare except")
	}
	want := "The bare `except:` on line 4 catches every exception, KeyboardInterrupt and SystemExit included: " +
		"Ctrl-C and sys.exit() stop working inside the try block and unexpected bugs are hidden.\n" +
		"\n**Fix:** Catch the specific exceptions the block raises, or at least `except Exception:`, and log or re-raise the error.\n" +
		"\n**Quick fix:** Catch Exception instead of everything\n" +
		"\n[More](https://github.com/reviewls/reviewls/blob/main/docs/rules.md#functional-bare-except)\n"
	if diff := cmp.Diff(want, h.Contents.Value); diff != "" {
		t.Errorf("hover (-want +got):\n%s", diff)
	}
	if h.Range == nil || h.Range.Start != (protocol.Position{Line: 3, Character: 4}) {
		t.Errorf("hover range %+v, want the finding's, from the except", h.Range)
	}
	env.Shutdown()
}
