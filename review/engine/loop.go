package engine

import (
	"context"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/orient"
	"github.com/reviewls/reviewls/review/symbol"
	"github.com/reviewls/reviewls/review/syntax"
)

// The review loop as the front ends drive it (LSP commands, `reviewls
// loop`): explanations, investigations and the loop state's steps. The
// steps change a loop in place; the front end keeps it with its result.

// ExplainRequest names what to explain: a board item's symbol, or a
// position in a changed file.
type ExplainRequest = orient.ExplainRequest

// Explanation is what [Engine.Explain] answers.
type Explanation = orient.Explanation

// Investigation is what [Engine.Investigate] answers.
type Investigation = orient.Investigation

// ChecklistItem is one question an investigation answers.
type ChecklistItem = orient.ChecklistItem

// ErrUnknownItem reports a board item id that the result does not have.
type ErrUnknownItem = orient.ErrUnknownItem

// ErrSymbolNotFound reports a symbol that no changed file defines.
var ErrSymbolNotFound = orient.ErrSymbolNotFound

// SymbolChange is a symbol that a file's change added, removed or changed
// (see [Engine.ChangedSymbols]).
type SymbolChange = symbol.Change

// CodeUnit reports whether c changed a function, a method or a type:
// what an editor's loop lenses stand over by default, rather than every
// constant, variable and field.
func CodeUnit(c SymbolChange) bool {
	switch c.Symbol.Kind {
	case symbol.KindFunction, symbol.KindMethod, symbol.KindType, symbol.KindStruct, symbol.KindInterface,
		symbol.KindClass, symbol.KindEnum, symbol.KindTrait:
		return true
	}
	return false
}

// SymbolRemoved is the kind of a change that removed the symbol.
const SymbolRemoved = symbol.ChangeRemoved

// CommentSyntax is how a language writes comments.
type CommentSyntax = review.CommentSyntax

// CommentSyntaxOf returns the comment syntax of language lang.
func CommentSyntaxOf(lang review.Language) CommentSyntax { return syntax.CommentSyntax(lang) }

// IgnoreComment returns the text of an inline ignore directive for rule,
// as a comment of language lang.
func IgnoreComment(lang review.Language, rule, reason string) string {
	return syntax.IgnoreComment(lang, rule, reason)
}

// Explain answers "what is this symbol" for a changed file of res.
func (e *Engine) Explain(ctx context.Context, res *review.Result, req ExplainRequest) (*Explanation, error) {
	return orient.Explain(ctx, e.Workspace(res.ChangeSet.Target), res, req)
}

// Investigate gathers the evidence for a question about a board item.
func (e *Engine) Investigate(ctx context.Context, res *review.Result, itemID, investigationID, question string) (*Investigation, error) {
	return orient.Investigate(ctx, e.Workspace(res.ChangeSet.Target), res, itemID, investigationID, question)
}

// DefinedInChange returns the identifier at line:col (1-based, byte
// column) of the changed file path when the change itself defines it, or
// "".
func DefinedInChange(res *review.Result, path string, line, col int) string {
	return orient.DefinedInChange(res, path, line, col)
}

// SyncLoop merges a fresh review with the loop state: items keep their
// id, status and records by area; new areas get new ids.
func SyncLoop(res *review.Result, l *review.Loop) *review.Loop { return orient.Sync(res, l) }

// Confirm records that the human saw the walkthrough or the board.
func Confirm(l *review.Loop) { orient.Confirm(l) }

// Bookmark marks an item for a closer look, with an optional question,
// and routes it to the explainer or the investigator.
func Bookmark(l *review.Loop, id, question string) (review.NextAction, error) {
	return orient.Bookmark(l, id, question)
}

// Explained records an explanation written for an item's symbol, and the
// symbols it suggests looking at next.
func Explained(l *review.Loop, id, symbol, artifact string, followOn []string) (review.NextAction, error) {
	return orient.Explained(l, id, symbol, artifact, followOn)
}

// NextInvestigation returns the next free investigation id of an item.
func NextInvestigation(l *review.Loop, id string) (string, error) {
	return orient.NextInvestigation(l, id)
}

// Investigated records an investigation of an item and its follow-on
// questions.
func Investigated(l *review.Loop, id, investigation, question, artifact string, followOn []string) (review.NextAction, error) {
	return orient.Investigated(l, id, investigation, question, artifact, followOn)
}

// SelectPerspectives records the human's choice of perspectives.
func SelectPerspectives(l *review.Loop, ps []review.Perspective) { orient.SelectPerspectives(l, ps) }

// SetDepth records the human's depth and why.
func SetDepth(l *review.Loop, d review.Depth, rationale string) { orient.SetDepth(l, d, rationale) }

// Sweep records that the selected perspectives ran over every item.
func Sweep(l *review.Loop) { orient.Sweep(l) }

// Emit takes the emission decision: with confirmation the canonical
// review artifact is ready.
func Emit(l *review.Loop, confirm bool, summary string) review.Emission {
	return orient.Emit(l, confirm, summary)
}
