package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// codeActionReviewNow is the kind of the "Review now" source action.
const codeActionReviewNow protocol.CodeActionKind = "source.reviewls.review"

// actionTitle names a code action of reviewls's: editors list the actions
// of every server (and their own, such as VS Code's "Explain" of Copilot)
// in one menu, where "reviewls: Explain Get" says whose it is.
func actionTitle(title string) string { return "reviewls: " + title }

// CodeAction offers, for findings under the range: the rule's quick fix,
// and an action that inserts an ignore comment; and for the document, the
// "Review now" source action. The ignore actions of secrets and Critical
// findings come last, after every other action: one keystroke on the
// first action must never silence them.
func (s *server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	ss, rel := s.sessionForURI(params.TextDocument.URI)
	if ss == nil {
		return nil, nil
	}
	var actions, last []protocol.CodeAction
	if wants(params.Context.Only, protocol.QuickFix) {
		actions, last = s.quickFixes(ss, rel, params)
	}
	for _, a := range s.loopActions(ss, rel, params) {
		if wants(params.Context.Only, a.Kind) {
			actions = append(actions, a)
		}
	}
	if wants(params.Context.Only, codeActionReviewNow) {
		actions = append(actions, protocol.CodeAction{
			Title:   actionTitle("Review now"),
			Kind:    codeActionReviewNow,
			Command: &protocol.Command{Title: actionTitle("Review now"), Command: cmdReview, Arguments: []any{map[string]any{"uri": params.TextDocument.URI}}},
		})
	}
	return append(actions, last...), nil
}

// wants reports whether kind passes the client's "only" filter.
func wants(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if o == kind || strings.HasPrefix(string(kind), string(o)+".") {
			return true
		}
	}
	return false
}

// quickFixes returns the fix and ignore actions of the findings whose
// ranges meet the requested range, every fix before every ignore action,
// and apart (last) the ignore actions to list after every other action:
// those of secrets and Critical findings. A fix is the preferred action;
// an ignore action never is. Languages
// without comments (JSON, plain text) get no ignore action. Edits are only
// offered when the document still holds the text the review saw, so their
// positions are right.
func (s *server) quickFixes(ss *session, rel string, params *protocol.CodeActionParams) (actions, last []protocol.CodeAction) {
	res, versions, file := ss.reviewedFile(rel)
	if file == nil {
		return nil, nil
	}
	if doc, open := s.document(params.TextDocument.URI); open {
		if v, ok := versions[rel]; !ok || v != doc.version || string(doc.text) != string(file.Content) {
			return nil, nil
		}
	}
	m := newMapper(file.Content)
	syn := engine.CommentSyntaxOf(file.Language)
	commentable := syn.Line != "" || syn.BlockStart != ""
	var ignores []protocol.CodeAction
	for _, f := range res.Findings {
		if f.Span.Path != rel {
			continue
		}
		r := findingRange(file, m, f)
		if !overlaps(r, params.Range) {
			continue
		}
		diag := diagnostic(res, file, m, f)
		if f.Fix != nil {
			if edit, err := workspaceEdit(params.TextDocument.URI, m, f.Fix.Edits); err == nil {
				title := f.Fix.Title
				if title == "" {
					title = "Fix: " + strings.TrimPrefix(f.Title, "["+f.Perspective.Title()+"] ")
				}
				actions = append(actions, protocol.CodeAction{
					Title: actionTitle(title), Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{diag},
					IsPreferred: true, Edit: edit,
				})
			} else {
				s.logger.Warn("fix edits do not map", "rule", f.RuleID, "err", err)
			}
		}
		if !commentable {
			continue
		}
		ignore := protocol.CodeAction{
			Title:       ignoreTitle(f),
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{diag},
			Edit:        ignoreEdit(params.TextDocument.URI, file, m, f),
		}
		if f.IsSecret() || f.Severity == review.SeverityCritical {
			last = append(last, ignore)
		} else {
			ignores = append(ignores, ignore)
		}
	}
	return append(actions, ignores...), last
}

// ignoreTitle says what the ignore action of f does. A secret's says that
// the ignore does not let it into a commit: only allow-secrets does.
func ignoreTitle(f *review.Finding) string {
	switch {
	case f.IsSecret():
		return actionTitle("Ignore this secret on this line (still blocks commits)")
	case f.Severity == review.SeverityCritical:
		return actionTitle(fmt.Sprintf("Ignore this Critical finding (%s) on this line", f.RuleID))
	}
	return actionTitle(fmt.Sprintf("Ignore %s on this line", f.RuleID))
}

// overlaps reports whether two ranges share a position (touching counts,
// so a cursor at a range's end still gets its actions).
func overlaps(a, b protocol.Range) bool {
	return !less(a.End, b.Start) && !less(b.End, a.Start)
}

func less(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// workspaceEdit converts engine text edits to an LSP workspace edit.
func workspaceEdit(u protocol.DocumentURI, m *mapper, edits []review.TextEdit) (*protocol.WorkspaceEdit, error) {
	var out []protocol.TextEdit
	for _, e := range edits {
		s := e.Span
		var r protocol.Range
		if s.StartCol == 0 {
			// Whole lines, terminators included: up to the start of the
			// line after the last.
			r = protocol.Range{Start: m.position(s.StartLine, 1), End: protocol.Position{Line: uint32(s.Last()), Character: 0}}
			if s.Last() >= len(m.starts) {
				r.End = m.position(s.Last(), 1<<30)
			}
		} else {
			r = protocol.Range{Start: m.position(s.StartLine, s.StartCol), End: m.position(s.Last(), s.EndCol)}
		}
		out = append(out, protocol.TextEdit{Range: r, NewText: e.NewText})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("fix has no edits")
	}
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{u: out}}, nil
}

// ignoreReasonPlaceholder is inserted for the user to replace: until they
// do, the directive suppresses nothing.
const ignoreReasonPlaceholder = review.IgnorePlaceholder

// ignoreEdit inserts an ignore comment for f on its own line above the
// finding, indented like it, in the file's comment syntax (JSX markup gets
// {/* */}).
func ignoreEdit(u protocol.DocumentURI, file *review.File, m *mapper, f *review.Finding) *protocol.WorkspaceEdit {
	line := f.Span.StartLine
	text := string(m.lineText(line - 1))
	indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
	comment := engine.IgnoreComment(file.Language, f.RuleID, ignoreReasonPlaceholder)
	trimmed := strings.TrimSpace(text)
	if (file.Language == review.LangJSX || file.Language == review.LangTSX) && strings.HasPrefix(trimmed, "<") {
		comment = "{/* reviewls:ignore " + f.RuleID + " " + ignoreReasonPlaceholder + " */}"
	}
	at := protocol.Position{Line: uint32(line - 1), Character: 0}
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		u: {{Range: protocol.Range{Start: at, End: at}, NewText: indent + comment + "\n"}},
	}}
}
