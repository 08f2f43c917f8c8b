package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// notesRepo is a library whose change alters an exported signature and
// its logic, with no test and no documentation change: a missing-tests
// note and an undocumented-api note on store/store.go, and one finding
// (a TODO) so the review publishes something.
const notesRepo = `-- base/go.mod --
module example.com/lib

go 1.22
-- base/store/store.go --
// Package store keeps records.
package store

// Get returns a record.
func Get(m map[string]string, key string) string {
	return m[key]
}
-- base/store/store_test.go --
package store
-- base/util/util.go --
// Package util helps.
package util

// Twice doubles n.
func Twice(n int) int { return 2 * n }
-- work/store/store.go --
// Package store keeps records.
package store

// Get returns a record.
func Get(m map[string]string, key, fallback string) string {
	v, ok := m[key]
	if !ok {
		return fallback
	}
	return v
}
-- work/util/util.go --
// Package util helps.
package util

// Twice doubles n.
func Twice(n int) int { return 2 * n } // TODO: overflow
`

// TestNotesAsCodeLenses checks that review-level notes are code lenses on
// the first line of the files they name, never diagnostics, and that a
// lens's command shows the note.
func TestNotesAsCodeLenses(t *testing.T) {
	fx := reviewtest.RepoFromArchive(t, txtar.Parse([]byte(notesRepo)))
	env := lsptest.New(t, fx.Dir, lsptest.Config{})
	env.Await(lsptest.DiagnosticsAt("util/util.go", 0, lsptest.WithCode("readiness/todo-added")))
	for _, s := range []string{"store/store.go", "util/util.go"} {
		for _, d := range env.Client.Diagnostics(env.URI(s)) {
			if code, _ := d.Code.(string); strings.HasPrefix(code, "readiness/missing-test") || strings.HasPrefix(code, "readiness/undocumented") {
				t.Errorf("%s: a note became a diagnostic: %+v", s, d)
			}
		}
	}

	lenses, err := env.Server.CodeLens(env.Ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: env.URI("store/store.go")}})
	if err != nil {
		t.Fatal(err)
	}
	var notes []protocol.CodeLens
	for _, l := range lenses {
		if l.Command.Command == "reviewls.notes" {
			notes = append(notes, l)
		}
	}
	if len(notes) != 2 || notes[0].Range.Start != (protocol.Position{}) ||
		notes[0].Command.Title != "reviewls note: no test changed with this code" ||
		notes[1].Command.Title != "reviewls note: library API changed without docs" {
		t.Fatalf("note lenses = %+v, want the two notes on line 0", notes)
	}
	var got struct {
		Notes []struct {
			Kind, Rule, Message string
			Paths               []string
		}
	}
	if err := env.ExecuteCommand(notes[1].Command.Command, &got, notes[1].Command.Arguments...); err != nil {
		t.Fatal(err)
	}
	if len(got.Notes) != 1 || got.Notes[0].Kind != "undocumented-api" || !strings.Contains(got.Notes[0].Message, "signature of exported Get changed") {
		t.Errorf("reviewls.notes = %+v", got)
	}
	env.Await(lsptest.MessageContaining("public API of library code"))

	// util/util.go is named by no note: it has no note lens.
	lenses, err = env.Server.CodeLens(env.Ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: env.URI("util/util.go")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lenses {
		if l.Command.Command == "reviewls.notes" {
			t.Errorf("util/util.go has a note lens: %s %+v", l.Command.Title, l.Command.Arguments)
		}
	}
	if err := env.ExecuteCommand("reviewls.notes", nil, map[string]any{"kind": "style"}); err == nil || !strings.Contains(err.Error(), "style") {
		t.Errorf("unknown kind: err = %v", err)
	}
	env.Shutdown()
}
