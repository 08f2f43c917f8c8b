package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/lsp/lsptest"
)

const secretAWS = "AKIAZ7Q2R5T6W3X4Y6B2"

// lineRange selects 0-based line n.
func lineRange(n uint32) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: n}, End: protocol.Position{Line: n, Character: 200}}
}

// without holds when no diagnostic has the rule's code.
func without(rule string) lsptest.DiagnosticFilter {
	return func(ds []protocol.Diagnostic) (bool, string) {
		for _, d := range ds {
			if d.Code == rule {
				return false, "no " + rule
			}
		}
		return true, ""
	}
}

func titles(actions []protocol.CodeAction) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.Title)
	}
	return out
}

func find(actions []protocol.CodeAction, title string) (int, *protocol.CodeAction) {
	for i := range actions {
		if actions[i].Title == title {
			return i, &actions[i]
		}
	}
	return -1, nil
}

// TestSecretCodeActions checks the actions on a hardcoded secret: the
// real fix (read it from the environment) comes first and is preferred;
// the ignore action is never preferred, comes after every other action,
// and says that it still blocks commits. Applying the fix through the
// server clears the finding; applying the ignore as inserted (with its
// placeholder) clears nothing, and a real reason hides the diagnostic.
func TestSecretCodeActions(t *testing.T) {
	dir := repo(t, map[string]string{"creds.go": "package a\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("creds.go")
	src := "package a\n\nvar apiKey = \"" + secretAWS + "\"\n"
	v := env.EditFile("creds.go", src)
	env.Await(lsptest.DiagnosticsAt("creds.go", uint32(v), lsptest.OnLines(3), lsptest.WithCode("security/hardcoded-secret")))

	actions := env.CodeActions("creds.go", lineRange(2))
	if len(actions) < 3 {
		t.Fatalf("actions = %q, want the fix, the others and the ignore", titles(actions))
	}
	fix := actions[0]
	if fix.Title != "reviewls: Read the secret from the environment (API_KEY)" || !fix.IsPreferred || fix.Kind != protocol.QuickFix {
		t.Errorf("first action = %q (preferred %v), want the preferred environment fix; all: %q", fix.Title, fix.IsPreferred, titles(actions))
	}
	const ignoreTitle = "reviewls: Ignore this secret on this line (still blocks commits)"
	i, ignore := find(actions, ignoreTitle)
	if ignore == nil || i != len(actions)-1 || ignore.IsPreferred {
		t.Fatalf("actions = %q, want %q last and not preferred", titles(actions), ignoreTitle)
	}
	for _, a := range actions[1:] {
		if a.IsPreferred {
			t.Errorf("%q is preferred; only the fix may be", a.Title)
		}
	}
	// Asking for quick fixes only keeps the order: the fix first.
	if quick := env.CodeActions("creds.go", lineRange(2), protocol.QuickFix); len(quick) != 2 || quick[0].Title != fix.Title || quick[1].Title != ignoreTitle {
		t.Errorf("quick fixes = %q, want the fix then the ignore", titles(quick))
	}
	if data, err := json.Marshal(actions); err != nil || strings.Contains(string(data), secretAWS) {
		t.Errorf("the code actions carry the secret (or do not marshal: %v)", err)
	}

	// The ignore as inserted carries the placeholder: no reason, so the
	// secret stays and the directive itself is reported.
	ignored := applyEdit(t, src, ignore.Edit.Changes[env.URI("creds.go")])
	if want := "// reviewls:ignore security/hardcoded-secret <why this finding does not apply>\nvar apiKey"; !strings.Contains(ignored, want) {
		t.Fatalf("ignore inserted:\n%s", ignored)
	}
	v = env.EditFile("creds.go", ignored)
	env.Await(lsptest.DiagnosticsAt("creds.go", uint32(v), lsptest.Count(2)))
	for _, d := range env.Client.Diagnostics(env.URI("creds.go")) {
		switch {
		case d.Code == "security/hardcoded-secret" && d.Range.Start.Line == 3:
		case d.Code == "standards/ignore-without-reason" && d.Message == "Suppression without a reason":
		default:
			t.Errorf("diagnostic %v %q at line %d", d.Code, d.Message, d.Range.Start.Line)
		}
	}
	// A real reason hides it in the editor (the gate still holds it).
	v = env.EditFile("creds.go", strings.Replace(ignored, "<why this finding does not apply>", "revoked key kept for the replay test", 1))
	env.Await(lsptest.DiagnosticsAt("creds.go", uint32(v), lsptest.Count(0)))

	// The fix applied through the server: the finding is gone and the
	// file imports os (the new environment variable is a documentation
	// matter: readiness/undocumented-change may say so).
	v = env.EditFile("creds.go", src)
	env.Await(lsptest.DiagnosticsAt("creds.go", uint32(v), lsptest.WithCode("security/hardcoded-secret")))
	actions = env.CodeActions("creds.go", lineRange(2), protocol.QuickFix)
	if len(actions) == 0 || !actions[0].IsPreferred {
		t.Fatalf("actions = %q", titles(actions))
	}
	fixed := applyEdit(t, src, actions[0].Edit.Changes[env.URI("creds.go")])
	if want := "package a\n\nimport \"os\"\n\nvar apiKey = os.Getenv(\"API_KEY\")\n"; fixed != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", fixed, want)
	}
	v = env.EditFile("creds.go", fixed)
	env.Await(lsptest.DiagnosticsAt("creds.go", uint32(v), without("security/hardcoded-secret")))
	env.Shutdown()
}

// TestSecretWithoutFixCodeActions checks a secret in YAML, which has no
// code fix: the ignore action still comes after every other action.
func TestSecretWithoutFixCodeActions(t *testing.T) {
	dir := repo(t, map[string]string{"deploy.yaml": "name: app\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("deploy.yaml")
	v := env.EditFile("deploy.yaml", "name: app\naws_key: "+secretAWS+"\n")
	env.Await(lsptest.DiagnosticsAt("deploy.yaml", uint32(v), lsptest.WithCode("security/hardcoded-secret")))
	actions := env.CodeActions("deploy.yaml", lineRange(1))
	i, ignore := find(actions, "reviewls: Ignore this secret on this line (still blocks commits)")
	if ignore == nil || i == 0 || i != len(actions)-1 || ignore.IsPreferred {
		t.Fatalf("actions = %q, want the ignore last, not first, not preferred", titles(actions))
	}
	for _, a := range actions {
		if a.IsPreferred {
			t.Errorf("%q is preferred, want no preferred action without a fix", a.Title)
		}
	}
	if got := applyEdit(t, "name: app\naws_key: "+secretAWS+"\n", ignore.Edit.Changes[env.URI("deploy.yaml")]); !strings.Contains(got, "\n# reviewls:ignore security/hardcoded-secret <why this finding does not apply>\naws_key") {
		t.Errorf("ignore inserted:\n%s", got)
	}
	env.Shutdown()
}

// TestCriticalAndCommentlessCodeActions checks a Critical finding that is
// no secret (a conflict marker): its ignore action says it ignores a
// Critical finding and comes last. A JSON file has no comments, so it
// gets no ignore action at all.
func TestCriticalAndCommentlessCodeActions(t *testing.T) {
	dir := repo(t, map[string]string{"a.py": "x = 1\n", "pkg.json": "{\"name\": \"a\"}\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("a.py")
	v := env.EditFile("a.py", "x = 1\n<<<<<<< HEAD\ny = 1\n=======\ny = 2\n>>>>>>> other\n")
	env.Await(lsptest.DiagnosticsAt("a.py", uint32(v), lsptest.WithCode("functional/merge-conflict-marker")))
	actions := env.CodeActions("a.py", lineRange(1))
	title := "reviewls: Ignore this Critical finding (functional/merge-conflict-marker) on this line"
	if i, a := find(actions, title); a == nil || i == 0 || i != len(actions)-1 || a.IsPreferred {
		t.Errorf("actions = %q, want %q last, not first, not preferred", titles(actions), title)
	}

	env.OpenFile("pkg.json")
	v = env.EditFile("pkg.json", "{\"name\": \"a\", \"token\": \""+secretAWS+"\"}\n")
	env.Await(lsptest.DiagnosticsAt("pkg.json", uint32(v), lsptest.WithCode("security/hardcoded-secret")))
	for _, a := range env.CodeActions("pkg.json", lineRange(0), protocol.QuickFix) {
		if strings.HasPrefix(a.Title, "Ignore") {
			t.Errorf("JSON got %q: it has no comment to put a directive in", a.Title)
		}
	}
	env.Shutdown()
}
