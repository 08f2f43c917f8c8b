package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// repo builds a repository whose first commit holds the given files.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	ar := &txtar.Archive{}
	for p, c := range files {
		ar.Files = append(ar.Files, txtar.File{Name: "base/" + p, Data: []byte(c)})
	}
	return reviewtest.RepoFromArchive(t, ar).Dir
}

func TestEditThenRevert(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n\nfunc f() {}\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("a.go")
	v := env.EditFile("a.go", "package a\n\nfunc f() {}\n\n// TODO: handle errors\n")
	env.Await(lsptest.DiagnosticsAt("a.go", uint32(v), lsptest.OnLines(5), lsptest.WithCode("readiness/todo-added"),
		lsptest.WithData("lineState", "unstaged")))
	d := env.Client.Diagnostics(env.URI("a.go"))[0]
	if d.Source != "reviewls" || d.Severity != protocol.DiagnosticSeverityInformation || d.CodeDescription == nil ||
		!strings.Contains(string(d.CodeDescription.Href), "docs/rules.md#readiness-todo-added") {
		t.Errorf("diagnostic = %+v", d)
	}
	v = env.EditFile("a.go", "package a\n\nfunc f() {}\n")
	env.Await(lsptest.DiagnosticsAt("a.go", uint32(v), lsptest.Count(0)))
	env.Shutdown()
}

func TestIncrementalEditsUTF16(t *testing.T) {
	// An astral-plane character and CRLF line ends before the finding.
	dir := repo(t, map[string]string{"a.py": "x = '😀'\r\ny = 1\r\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("a.py")
	// Insert a TODO comment after "y = 1" on line 2 (UTF-16 column 5).
	r := protocol.Range{Start: protocol.Position{Line: 1, Character: 5}, End: protocol.Position{Line: 1, Character: 5}}
	v := env.Edit("a.py", r, "  # TODO: check")
	env.Await(lsptest.DiagnosticsAt("a.py", uint32(v), lsptest.OnLines(2), lsptest.WithCode("readiness/todo-added")))
	// Insert at 0:0, then after the closing quote that follows the emoji
	// (character 8: the emoji is a 2-unit surrogate pair).
	v = env.Edit("a.py", protocol.Range{Start: protocol.Position{Line: 0, Character: 0}, End: protocol.Position{Line: 0, Character: 0}}, "# header\r\n")
	v = env.Edit("a.py", protocol.Range{Start: protocol.Position{Line: 1, Character: 8}, End: protocol.Position{Line: 1, Character: 8}}, "  # FIXME: emoji")
	env.Await(lsptest.DiagnosticsAt("a.py", uint32(v), lsptest.OnLines(2, 3)))
	for _, d := range env.Client.Diagnostics(env.URI("a.py")) {
		if d.Range.Start.Line == 1 && d.Range.Start.Character != 0 {
			t.Errorf("the FIXME line's diagnostic starts at character %d, want the whole line", d.Range.Start.Character)
		}
	}
	env.Shutdown()
}

// TestGitAddCommit checks that edits by another program show as unstaged,
// move to staged after git add, and clear after git commit.
func TestGitAddCommit(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.WriteFile("a.go", "package a\n\n// TODO: later\n")
	env.Await(lsptest.DiagnosticsAt("a.go", 0, lsptest.OnLines(3), lsptest.WithData("lineState", "unstaged")))
	env.Git("add", "a.go")
	env.Await(lsptest.DiagnosticsAt("a.go", 0, lsptest.OnLines(3), lsptest.WithData("lineState", "staged")))
	env.Git("commit", "-q", "-m", "todo")
	env.Await(lsptest.NoDiagnostics("a.go"), lsptest.Published("a.go", 3))
	env.Shutdown()
}

// TestStashAndCheckout checks that git stash clears the findings, and that
// checking out another branch and popping the stash brings them back on
// the new branch.
func TestStashAndCheckout(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.WriteFile("a.go", "package a\n\n// TODO: later\n")
	env.Await(lsptest.DiagnosticsAt("a.go", 0, lsptest.OnLines(3)))
	env.Git("stash")
	env.Await(lsptest.NoDiagnostics("a.go"))
	env.Git("checkout", "-q", "-b", "other")
	env.Git("stash", "pop")
	env.Await(lsptest.DiagnosticsAt("a.go", 0, lsptest.OnLines(3)))
	var sum struct{ Branch string }
	if err := env.ExecuteCommand("reviewls.review", &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Branch != "other" {
		t.Errorf("review branch = %q, want other", sum.Branch)
	}
	env.Shutdown()
}

// TestUntrackedSecretRedacted checks a new file with a secret: the
// diagnostic names it redacted, and no message carries the value.
func TestUntrackedSecretRedacted(t *testing.T) {
	const secret = "AKIAZ7Q2R5T6W3X4Y6B2"
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.WriteFile("creds.go", "package a\n\nconst key = \""+secret+"\"\n")
	env.Await(lsptest.DiagnosticsAt("creds.go", 0, lsptest.OnLines(3), lsptest.WithCode("security/hardcoded-secret"),
		lsptest.WithData("lineState", "untracked")))
	for _, d := range env.Client.Diagnostics(env.URI("creds.go")) {
		// The message is the headline, marked critical (Error is shared
		// with High); the value is in neither.
		if d.Message != "Hardcoded AWS access key ID [critical]" {
			t.Errorf("message %q, want the headline marked critical", d.Message)
		}
		if d.Severity != protocol.DiagnosticSeverityError {
			t.Errorf("severity = %v, want Error for a critical finding", d.Severity)
		}
		// The rationale rides in the data, for editors that show the
		// diagnostic alone (Neovim's float), redacted like the rest.
		const rationale = "AWS access key ID AKIA…[redacted, 20 chars] is hardcoded. Anyone who can read the repository or its history can use it until it is rotated."
		if data, _ := d.Data.(map[string]any); data["rationale"] != rationale {
			t.Errorf("data = %v, want the rationale %q", d.Data, rationale)
		}
	}
	// A hover over the finding shows the rationale and the rule's page, redacted.
	h := env.Hover("creds.go", protocol.Position{Line: 2, Character: 16})
	if h == nil || !strings.Contains(h.Contents.Value, "docs/rules.md#security-hardcoded-secret") || strings.Contains(h.Contents.Value, secret) ||
		!strings.Contains(h.Contents.Value, "AKIA…[redacted, 20 chars]") {
		t.Errorf("hover = %+v", h)
	}
	env.Shutdown()
}

// TestSkippedFileSecret checks that a secret in a file the review does
// not read (bin/ is build output) is a diagnostic too, placed on the
// value: the editor shows what the gate blocks.
func TestSkippedFileSecret(t *testing.T) {
	const secret = "ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123"
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.WriteFile("bin/deploy.sh", "#!/bin/sh\n# é\nexport GITHUB_TOKEN="+secret+"\n")
	env.Await(lsptest.DiagnosticsAt("bin/deploy.sh", 0, lsptest.OnLines(3), lsptest.WithCode("security/hardcoded-secret")))
	ds := env.Client.Diagnostics(env.URI("bin/deploy.sh"))
	if len(ds) != 1 || ds[0].Range.Start.Character != uint32(len("export GITHUB_TOKEN=")) || strings.Contains(ds[0].Message, secret) {
		t.Errorf("diagnostics = %+v, want one on the token (character 20), redacted", ds)
	}
	env.Shutdown()
}

// TestUnopenedFilesGetDiagnostics checks that every changed file is
// reviewed, open in the editor or not, and a full review reports
// progress.
func TestUnopenedFilesGetDiagnostics(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n", "b.py": "x = 1\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.WriteFile("a.go", "package a\n\n// TODO: one\n")
	env.WriteFile("b.py", "x = 1\n# FIXME: two\n")
	env.Await(lsptest.DiagnosticsAt("a.go", 0, lsptest.OnLines(3)), lsptest.DiagnosticsAt("b.py", 0, lsptest.OnLines(2)), lsptest.ProgressEnded())
	env.Shutdown()
}

func TestCodeActions(t *testing.T) {
	dir := repo(t, map[string]string{"job.py": "def run(items):\n    return items\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("job.py")
	src := "def run(items):\n    try:\n        return items\n    except:\n        return []\n"
	v := env.EditFile("job.py", src)
	env.Await(lsptest.DiagnosticsAt("job.py", uint32(v), lsptest.WithCode("functional/bare-except")))
	line := protocol.Range{Start: protocol.Position{Line: 3, Character: 4}, End: protocol.Position{Line: 3, Character: 4}}
	actions := env.CodeActions("job.py", line, protocol.QuickFix)
	var fix, ignore *protocol.CodeAction
	for i, a := range actions {
		switch {
		case a.Title == "reviewls: Ignore functional/bare-except on this line":
			ignore = &actions[i]
		case a.IsPreferred:
			fix = &actions[i]
		}
	}
	if fix == nil || ignore == nil {
		t.Fatalf("actions = %+v, want a preferred fix and an ignore action", actions)
	}
	fixed := applyEdit(t, src, fix.Edit.Changes[env.URI("job.py")])
	if !strings.Contains(fixed, "    except Exception:\n") {
		t.Errorf("fixed text:\n%s", fixed)
	}
	ignored := applyEdit(t, src, ignore.Edit.Changes[env.URI("job.py")])
	if !strings.Contains(ignored, "    # reviewls:ignore functional/bare-except <why this finding does not apply>\n    except:\n") {
		t.Errorf("ignore comment text:\n%s", ignored)
	}
	// Applying the fix clears the finding.
	v = env.EditFile("job.py", fixed)
	env.Await(lsptest.DiagnosticsAt("job.py", uint32(v), lsptest.Count(0)))

	source := env.CodeActions("job.py", line, protocol.Source)
	if len(source) != 1 || source[0].Title != "reviewls: Review now" || source[0].Command == nil || source[0].Command.Command != "reviewls.review" {
		t.Errorf("source actions = %+v", source)
	}
	env.Shutdown()
}

// applyEdit applies LSP text edits (no overlaps, any order) to text.
func applyEdit(t *testing.T, text string, edits []protocol.TextEdit) string {
	t.Helper()
	offset := func(p protocol.Position) int {
		lines := strings.SplitAfter(text, "\n")
		off := 0
		for i := 0; i < int(p.Line) && i < len(lines); i++ {
			off += len(lines[i])
		}
		return off + int(p.Character) // ASCII test inputs
	}
	for i := len(edits) - 1; i >= 0; i-- { // edits are in document order
		e := edits[i]
		text = text[:offset(e.Range.Start)] + e.NewText + text[offset(e.Range.End):]
	}
	return text
}

func TestNotARepository(t *testing.T) {
	dir := t.TempDir()
	env := lsptest.New(t, dir, lsptest.Config{Folders: []string{filepath.Join(dir)}})
	env.Await(lsptest.MessageContaining("not a git repository"))
	if n := len(env.Client.Messages()); n != 1 {
		t.Errorf("got %d messages, want exactly one", n)
	}
	env.Shutdown()
}

// TestCloseReviewsDisk checks that closing a buffer with unsaved edits
// drops them: the file on disk is reviewed again.
func TestCloseReviewsDisk(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.OpenFile("a.go")
	v := env.EditFile("a.go", "package a\n\n// TODO: unsaved\n")
	env.Await(lsptest.DiagnosticsAt("a.go", uint32(v), lsptest.OnLines(3)))
	env.CloseFile("a.go")
	env.Await(lsptest.NoDiagnostics("a.go"))
	env.Shutdown()
}

// TestUnchangedNotRepublished checks that a save of another file does not
// republish a file whose diagnostics did not change.
func TestUnchangedNotRepublished(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n", "b.go": "package a\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.WriteFile("a.go", "package a\n\n// TODO: one\n")
	env.Await(lsptest.DiagnosticsAt("a.go", 0, lsptest.OnLines(3)))
	before := env.Client.Publications(env.URI("a.go"))
	env.OpenFile("b.go")
	v := env.EditFile("b.go", "package a\n\n// FIXME: two\n")
	env.SaveFile("b.go", "package a\n\n// FIXME: two\n")
	env.Await(lsptest.DiagnosticsAt("b.go", uint32(v), lsptest.OnLines(3)))
	if after := env.Client.Publications(env.URI("a.go")); after != before {
		t.Errorf("a.go was published %d more times for a change to b.go", after-before)
	}
	env.Shutdown()
}

// TestWarningsReachTheClient checks that server warnings are forwarded
// as window/logMessage.
func TestWarningsReachTheClient(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	env := lsptest.New(t, dir, lsptest.Config{})
	env.EditFile("a.go", "package a\n") // never opened
	env.Await(lsptest.LogContaining("which is not open"))
	env.Shutdown()
}

// TestStagedScope checks the staged scope: only what the next commit
// holds is reviewed, unsaved buffers and unstaged edits are not.
func TestStagedScope(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n", "b.go": "package a\n"})
	env := lsptest.New(t, dir, lsptest.Config{InitializationOptions: map[string]any{"reviewls": map[string]any{"scope": "staged"}}})
	env.WriteFile("a.go", "package a\n\n// TODO: staged\n")
	env.Git("add", "a.go")
	env.WriteFile("b.go", "package a\n\n// TODO: unstaged\n")
	env.Await(lsptest.DiagnosticsAt("a.go", 0, lsptest.OnLines(3), lsptest.WithData("lineState", "staged")))
	env.OpenFile("a.go")
	env.EditFile("a.go", "package a\n\n// TODO: staged\n// FIXME: only in the buffer\n")
	var sum struct{ Findings int }
	if err := env.ExecuteCommand("reviewls.review", &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Findings != 1 {
		t.Errorf("staged review found %d findings, want only the staged TODO", sum.Findings)
	}
	env.Await(lsptest.NoDiagnostics("b.go"))
	env.Shutdown()
}
