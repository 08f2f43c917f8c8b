package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

type explainArgs struct {
	URI      protocol.DocumentURI `json:"uri,omitempty"`
	Position *protocol.Position   `json:"position,omitempty"`
	Item     string               `json:"item,omitempty"`
	Symbol   string               `json:"symbol,omitempty"`
}

func (a *explainArgs) check() error {
	if (a.URI == "" || a.Position == nil) && (a.Item == "" || a.Symbol == "") {
		return invalidParams("explain needs {\"uri\", \"position\"} or {\"item\", \"symbol\"}")
	}
	return nil
}

// explainResult is the JSON result of reviewls.explain.
type explainResult struct {
	Item     string   `json:"item"`
	Symbol   string   `json:"symbol"`
	Change   string   `json:"change"`
	Path     string   `json:"path"`
	Markdown string   `json:"markdown"`
	FollowOn []string `json:"followOn"`
}

// runExplainCommand explains a symbol (Register 1): at {uri, position} in
// a changed file, or {item, symbol} of the board. The explanation is
// written to explanations/<item>-<symbol>.md, recorded on the board and
// shown to the user.
func runExplainCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	var a explainArgs
	ss, res, err := s.sessionOf(ctx, args, &a)
	if err != nil {
		return nil, err
	}
	req := engine.ExplainRequest{Item: a.Item, Symbol: a.Symbol}
	if a.URI != "" && a.Position != nil {
		_, rel := s.sessionForURI(a.URI)
		file := res.ChangeSet.File(rel)
		if file == nil || !file.Reviewed() {
			return nil, invalidParams("%s is not a changed file of this review", rel)
		}
		req.Path = rel
		req.Line, req.Col, err = newMapper(file.Content).byteCol(*a.Position)
		if err != nil {
			return nil, invalidParams("position: %v", err)
		}
	}
	e, err := ss.eng.Explain(ctx, res, req)
	if err != nil {
		return nil, loopError(err)
	}
	item := e.Item
	if item == "" {
		return nil, invalidParams("%s is defined outside the change (%s:%d): it belongs to no board item", e.Symbol, e.Path, e.Line)
	}
	rel := artifacts.ExplanationFile(item, e.Symbol)
	path, err := artifacts.WriteExtra(ss.root, res.ChangeSet.Target, rel, res.Redactor.Bytes([]byte(e.Markdown)))
	if err != nil {
		return nil, err
	}
	if err := ss.withLoop(func(l *review.Loop, _ *review.Result) error {
		_, err := engine.Explained(l, item, e.Symbol, rel, e.FollowOn)
		return err
	}); err != nil {
		return nil, loopError(err)
	}
	s.showDocument(path)
	return explainResult{Item: item, Symbol: e.Symbol, Change: e.Change, Path: path, Markdown: res.Redactor.String(e.Markdown), FollowOn: e.FollowOn}, nil
}

// loopError turns the loop's argument errors into InvalidParams.
func loopError(err error) error {
	var ue *engine.ErrUnknownItem
	if errors.As(err, &ue) || errors.Is(err, engine.ErrSymbolNotFound) {
		return invalidParams("%v", err)
	}
	return err
}

// showDocument asks the client to open a file, when it supports
// window/showDocument; it does not wait for the answer.
func (s *server) showDocument(path string) {
	s.stateMu.Lock()
	ok := s.caps.Window != nil && s.caps.Window.ShowDocument != nil && s.caps.Window.ShowDocument.Support
	s.stateMu.Unlock()
	if !ok {
		return
	}
	s.wg.Go(func() {
		var out json.RawMessage
		params := map[string]any{"uri": uri.File(path), "takeFocus": true}
		if err := protocol.Call(context.Background(), s.conn, "window/showDocument", params, &out); err != nil {
			s.logger.Debug("window/showDocument", "err", err)
		}
	})
}

type investigateArgs struct {
	URI      string `json:"uri,omitempty"`
	Item     string `json:"item"`
	Question string `json:"question"`
}

func (a *investigateArgs) check() error {
	if a.Item == "" || a.Question == "" {
		return invalidParams("investigate needs {\"item\": \"board-N\", \"question\": \"...\"}")
	}
	return nil
}

// investigateResult is the JSON result of reviewls.investigate.
type investigateResult struct {
	Item          string                 `json:"item"`
	Investigation string                 `json:"investigation"`
	Path          string                 `json:"path"`
	Perspective   review.Perspective     `json:"perspective"`
	Checklist     []engine.ChecklistItem `json:"checklist"`
	Conclusion    string                 `json:"conclusion"`
	FollowOn      []string               `json:"followOn"`
	Markdown      string                 `json:"markdown"`
}

// runInvestigateCommand investigates a question about a board item
// (Register 2), writes walkback/<item>-<NNN>-register-2.md and walks the
// result back onto the item.
func runInvestigateCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	var a investigateArgs
	ss, res, err := s.sessionOf(ctx, args, &a)
	if err != nil {
		return nil, err
	}
	loop := ss.loopSnapshot()
	if loop == nil {
		return nil, invalidParams("nothing to review yet")
	}
	id, err := engine.NextInvestigation(loop, a.Item)
	if err != nil {
		return nil, loopError(err)
	}
	inv, err := ss.eng.Investigate(ctx, res, a.Item, id, a.Question)
	if err != nil {
		return nil, loopError(err)
	}
	rel := artifacts.WalkbackFile(id)
	path, err := artifacts.WriteExtra(ss.root, res.ChangeSet.Target, rel, res.Redactor.Bytes([]byte(inv.Markdown)))
	if err != nil {
		return nil, err
	}
	if err := ss.withLoop(func(l *review.Loop, _ *review.Result) error {
		_, err := engine.Investigated(l, a.Item, id, a.Question, rel, inv.FollowOn)
		return err
	}); err != nil {
		return nil, loopError(err)
	}
	s.showDocument(path)
	return investigateResult{
		Item: a.Item, Investigation: id, Path: path, Perspective: inv.Perspective, Checklist: inv.Checklist,
		Conclusion: res.Redactor.String(inv.Conclusion), FollowOn: inv.FollowOn, Markdown: res.Redactor.String(inv.Markdown),
	}, nil
}

// CodeLens shows the review-level notes that name a changed file on its
// first line, and Explain, Investigate and Bookmark over each symbol the
// change added or changed in it.
func (s *server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	ss, rel := s.sessionForURI(params.TextDocument.URI)
	if ss == nil {
		return nil, nil
	}
	res, _, file := ss.reviewedFile(rel)
	if file == nil {
		return nil, nil
	}
	mode := s.currentSettings().CodeLens
	if mode == "off" {
		return nil, nil
	}
	lenses := noteLenses(res, rel, params.TextDocument.URI)
	item := itemOf(res.Board, rel)
	if item == "" {
		return lenses, nil
	}
	m := newMapper(file.Content)
	for _, c := range ss.eng.ChangedSymbols(res.ChangeSet.Target, file) {
		if c.Kind == engine.SymbolRemoved || mode != "all" && !engine.CodeUnit(c) {
			continue
		}
		name := c.Symbol.QualifiedName()
		at := m.position(c.Symbol.Line, max(c.Symbol.NameCol, 1))
		r := protocol.Range{Start: at, End: at}
		for _, cmd := range []protocol.Command{
			{Title: "Explain", Command: cmdExplain, Arguments: []any{map[string]any{"item": item, "symbol": name, "uri": params.TextDocument.URI}}},
			{Title: "Investigate", Command: cmdInvestigate, Arguments: []any{map[string]any{"item": item, "question": defaultQuestion(name), "uri": params.TextDocument.URI}}},
			{Title: "Bookmark", Command: cmdBookmark, Arguments: []any{map[string]any{"item": item, "question": "", "uri": params.TextDocument.URI}}},
		} {
			lenses = append(lenses, protocol.CodeLens{Range: r, Command: &cmd})
		}
	}
	return lenses, nil
}

// defaultQuestion is the investigation a lens or code action starts when
// the user gave no question (editors can prompt instead).
func defaultQuestion(name string) string {
	return fmt.Sprintf("Is the change to %s correct and safe for its callers?", name)
}

// itemOf returns the id of the board item holding path, or "".
func itemOf(board []review.BoardItem, path string) string {
	for _, it := range board {
		for _, p := range it.Files {
			if p == path {
				return it.ID
			}
		}
	}
	return ""
}

// loopActions are the code actions of the loop at a position of a changed
// file: "Explain <symbol>" for the identifier under the cursor, and
// "Investigate <item>…" for the board item the file belongs to.
func (s *server) loopActions(ss *session, rel string, params *protocol.CodeActionParams) []protocol.CodeAction {
	res, _, file := ss.reviewedFile(rel)
	if file == nil {
		return nil
	}
	var actions []protocol.CodeAction
	line, col, err := newMapper(file.Content).byteCol(params.Range.Start)
	if err == nil {
		// Offered only for a name the change defines (the command itself
		// also searches the repository, which is too slow for every
		// cursor move). A name the redactor would hide is part of a
		// secret: no action may carry it.
		if name := engine.DefinedInChange(res, rel, line, col); name != "" && res.Redactor.String(name) == name {
			actions = append(actions, protocol.CodeAction{
				Title: actionTitle("Explain " + name),
				Kind:  codeActionExplain,
				Command: &protocol.Command{Title: actionTitle("Explain " + name), Command: cmdExplain,
					Arguments: []any{map[string]any{"uri": params.TextDocument.URI, "position": params.Range.Start}}},
			})
		}
	}
	if item := itemOf(res.Board, rel); item != "" {
		actions = append(actions, protocol.CodeAction{
			Title: actionTitle(fmt.Sprintf("Investigate %s…", item)),
			Kind:  codeActionInvestigate,
			Command: &protocol.Command{Title: actionTitle("Investigate " + item), Command: cmdInvestigate,
				Arguments: []any{map[string]any{"item": item, "question": defaultQuestion(item), "uri": params.TextDocument.URI}}},
		})
	}
	return actions
}

// Code action kinds of the loop.
const (
	codeActionExplain     protocol.CodeActionKind = "refactor.reviewls.explain"
	codeActionInvestigate protocol.CodeActionKind = "refactor.reviewls.investigate"
)
