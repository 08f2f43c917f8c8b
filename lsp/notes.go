package lsp

import (
	"context"
	"encoding/json"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/review"
)

// cmdNotes lists the review-level notes of the current review.
const cmdNotes = "reviewls.notes"

// Review-level notes (missing tests, an undocumented library API) are not
// line findings, so they are never diagnostics: each note shows as one
// code lens on the first line of every file it names, whose command
// (reviewls.notes with the note's kind) shows the note's text.

// noteTitles are the code lens titles of the note kinds: short, and
// marked as notes so they never read as findings.
var noteTitles = map[review.NoteKind]string{
	review.NoteMissingTests:    "reviewls note: no test changed with this code",
	review.NoteUndocumentedAPI: "reviewls note: library API changed without docs",
}

// noteLenses returns the code lenses of the notes that name rel.
func noteLenses(res *review.Result, rel string, u protocol.DocumentURI) []protocol.CodeLens {
	var out []protocol.CodeLens
	for _, n := range res.Notes {
		if !slices.Contains(n.Paths, rel) {
			continue
		}
		title, ok := noteTitles[n.Kind]
		if !ok {
			title = "reviewls note: " + string(n.Kind)
		}
		out = append(out, protocol.CodeLens{Command: &protocol.Command{
			Title: title, Command: cmdNotes, Arguments: []any{map[string]any{"uri": u, "kind": n.Kind}},
		}})
	}
	return out
}

type notesArgs struct {
	URI  string          `json:"uri,omitempty"`
	Kind review.NoteKind `json:"kind,omitempty"`
}

func (a *notesArgs) check() error {
	if a.Kind != "" && !a.Kind.Valid() {
		return invalidParams("unknown note kind %q (want missing-tests or undocumented-api)", a.Kind)
	}
	return nil
}

// noteJSON is one note of the reviewls.notes result.
type noteJSON struct {
	Kind       review.NoteKind `json:"kind"`
	Rule       string          `json:"rule"`
	Message    string          `json:"message"`
	Suggestion string          `json:"suggestion,omitempty"`
	Paths      []string        `json:"paths"`
}

// runNotesCommand returns the notes of the current review (of kind, when
// given) and, for a kind, shows their text to the user: a note's code lens
// runs it.
func runNotesCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	var a notesArgs
	_, res, err := s.sessionOf(ctx, args, &a)
	if err != nil {
		return nil, err
	}
	out := struct {
		Notes []noteJSON `json:"notes"`
	}{Notes: []noteJSON{}}
	for _, n := range res.Notes {
		if a.Kind != "" && n.Kind != a.Kind {
			continue
		}
		out.Notes = append(out.Notes, noteJSON{Kind: n.Kind, Rule: n.Rule, Message: res.Redactor.String(n.Message),
			Suggestion: res.Redactor.String(n.Suggested), Paths: n.Paths})
		if a.Kind != "" {
			s.showMessage(ctx, protocol.MessageTypeInfo, res.Redactor.String(n.Text()))
		}
	}
	return out, nil
}
