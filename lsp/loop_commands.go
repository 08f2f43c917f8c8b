package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// Commands of the orientation-first review loop (hve-spec §9–§12).
const (
	cmdWalkthrough        = "reviewls.walkthrough"
	cmdBoard              = "reviewls.board"
	cmdBookmark           = "reviewls.bookmark"
	cmdExplain            = "reviewls.explain"
	cmdInvestigate        = "reviewls.investigate"
	cmdSelectPerspectives = "reviewls.selectPerspectives"
	cmdSetDepth           = "reviewls.setDepth"
	cmdSweep              = "reviewls.sweep"
	cmdEmit               = "reviewls.emit"
)

// decodeArg decodes the command's first argument (an object) into v; a
// missing argument leaves v zero. Unknown fields are an error, so a typo in
// a client's arguments is reported, not ignored.
func decodeArg(args []json.RawMessage, v any) error {
	if len(args) == 0 {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(args[0])))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalidParams("bad arguments: %v", err)
	}
	return nil
}

// loopArgs are the arguments every loop command accepts to choose the
// repository: a file or folder URI.
type loopArgs struct {
	URI string `json:"uri,omitempty"`
}

// checker is an argument type that validates itself once decoded.
type checker interface{ check() error }

// sessionOf decodes a loop command's argument into v and checks it (bad
// arguments fail before any review runs), then picks the session and makes
// sure it has a current result.
func (s *server) sessionOf(ctx context.Context, args []json.RawMessage, v any) (*session, *review.Result, error) {
	if err := decodeArg(args, v); err != nil {
		return nil, nil, err
	}
	if c, ok := v.(checker); ok {
		if err := c.check(); err != nil {
			return nil, nil, err
		}
	}
	ss, err := s.pickSession(args)
	if err != nil {
		return nil, nil, err
	}
	res, _ := ss.current()
	if res == nil {
		if res, err = ss.reviewNow(ctx); err != nil {
			return nil, nil, err
		}
	}
	if res.ChangeSet.Empty() {
		return nil, nil, invalidParams("nothing to review: the work tree of %s has no changes", ss.root)
	}
	return ss, res, nil
}

// writtenPath returns the absolute path of a file of the branch's review
// folder.
func writtenPath(ss *session, res *review.Result, name string) string {
	return filepath.Join(ss.artifactFolder(res.ChangeSet.Target), filepath.FromSlash(name))
}

// walkthroughResult is the JSON result of reviewls.walkthrough.
type walkthroughResult struct {
	Path     string `json:"path"`
	Markdown string `json:"markdown"`
}

func runWalkthroughCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	ss, res, err := s.sessionOf(ctx, args, &loopArgs{})
	if err != nil {
		return nil, err
	}
	if err := ss.withLoop(func(l *review.Loop, _ *review.Result) error { engine.Confirm(l); return nil }); err != nil {
		return nil, err
	}
	res, _ = ss.current()
	return walkthroughResult{
		Path:     writtenPath(ss, res, artifacts.FileWalkthrough),
		Markdown: string(res.Redactor.Bytes(artifacts.WalkthroughMarkdown(res))),
	}, nil
}

// boardResult is the JSON result of reviewls.board and of the commands
// that change the board.
type boardResult struct {
	Path        string              `json:"path"`
	Phase       review.Phase        `json:"currentPhase"`
	Gates       review.PhaseGates   `json:"phaseGates"`
	Items       []review.BoardItem  `json:"items"`
	NextActions []review.NextAction `json:"nextActions"`
	Markdown    string              `json:"markdown"`
}

func boardOf(ss *session) boardResult {
	res, _ := ss.current()
	return boardResult{
		Path:        writtenPath(ss, res, artifacts.FileBoard),
		Phase:       res.Phase,
		Gates:       res.Gates,
		Items:       res.Board,
		NextActions: res.NextActions,
		Markdown:    string(res.Redactor.Bytes(artifacts.DispatchBoardMarkdown(res))),
	}
}

func runBoardCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	ss, _, err := s.sessionOf(ctx, args, &loopArgs{})
	if err != nil {
		return nil, err
	}
	if err := ss.withLoop(func(l *review.Loop, _ *review.Result) error { engine.Confirm(l); return nil }); err != nil {
		return nil, err
	}
	return boardOf(ss), nil
}

type bookmarkArgs struct {
	URI      string `json:"uri,omitempty"`
	Item     string `json:"item"`
	Question string `json:"question,omitempty"`
}

func (a *bookmarkArgs) check() error {
	if a.Item == "" {
		return invalidParams("bookmark needs {\"item\": \"board-N\"}")
	}
	return nil
}

type bookmarkResult struct {
	Item   review.BoardItem  `json:"item"`
	Action review.NextAction `json:"action"`
	// Route says where the question goes next: "explain" (Register 1) or
	// "investigate" (Register 2).
	Route string `json:"route"`
}

func runBookmarkCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	var a bookmarkArgs
	ss, _, err := s.sessionOf(ctx, args, &a)
	if err != nil {
		return nil, err
	}
	var out bookmarkResult
	err = ss.withLoop(func(l *review.Loop, _ *review.Result) error {
		action, err := engine.Bookmark(l, a.Item, a.Question)
		if err != nil {
			return invalidParams("%v", err)
		}
		out.Action, out.Item = action, *l.Item(a.Item)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Route = "explain"
	if out.Item.Register == review.Register2 && a.Question != "" {
		out.Route = "investigate"
	}
	return out, nil
}

type perspectivesArgs struct {
	URI          string   `json:"uri,omitempty"`
	Perspectives []string `json:"perspectives"`
	set          map[review.Perspective]bool
}

func (a *perspectivesArgs) check() error {
	if len(a.Perspectives) == 0 {
		return invalidParams("selectPerspectives needs {\"perspectives\": [...]} with at least one of functional, standards, accessibility, security, readiness")
	}
	a.set = map[review.Perspective]bool{}
	for _, p := range a.Perspectives {
		ps, err := review.ParsePerspective(p)
		if err != nil {
			return invalidParams("%v", err)
		}
		a.set[ps] = true
	}
	return nil
}

func runSelectPerspectivesCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	var a perspectivesArgs
	ss, _, err := s.sessionOf(ctx, args, &a)
	if err != nil {
		return nil, err
	}
	if err := ss.withLoop(func(l *review.Loop, _ *review.Result) error {
		engine.SelectPerspectives(l, review.SortPerspectives(a.set))
		return nil
	}); err != nil {
		return nil, err
	}
	return ss.rereview(ctx)
}

type depthArgs struct {
	URI       string `json:"uri,omitempty"`
	Depth     string `json:"depth"`
	Rationale string `json:"rationale"`
	depth     review.Depth
}

func (a *depthArgs) check() error {
	d, err := review.ParseDepth(a.Depth)
	if err != nil {
		return invalidParams("%v", err)
	}
	if strings.TrimSpace(a.Rationale) == "" {
		return invalidParams("setDepth needs a rationale: why %s depth rather than the recommended one", d)
	}
	a.depth = d
	return nil
}

func runSetDepthCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	var a depthArgs
	ss, _, err := s.sessionOf(ctx, args, &a)
	if err != nil {
		return nil, err
	}
	if err := ss.withLoop(func(l *review.Loop, _ *review.Result) error {
		engine.SetDepth(l, a.depth, a.Rationale)
		return nil
	}); err != nil {
		return nil, err
	}
	return ss.rereview(ctx)
}

// rereview runs a full review with the loop's new choices and returns the
// summary.
func (ss *session) rereview(ctx context.Context) (any, error) {
	res, err := ss.reviewNow(ctx)
	if err != nil {
		return nil, err
	}
	ss.artifacts.flush()
	return summarize(ss, res), nil
}

// sweepResult is the JSON result of reviewls.sweep.
type sweepResult struct {
	reviewSummary
	Board boardResult `json:"board"`
}

// runSweepCommand runs the selected perspectives over every board item (a
// full review) and walks the findings back onto the items.
func runSweepCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	ss, _, err := s.sessionOf(ctx, args, &loopArgs{})
	if err != nil {
		return nil, err
	}
	res, err := ss.reviewNow(ctx)
	if err != nil {
		return nil, err
	}
	if err := ss.withLoop(func(l *review.Loop, _ *review.Result) error { engine.Sweep(l); return nil }); err != nil {
		return nil, err
	}
	res, _ = ss.current()
	return sweepResult{reviewSummary: summarize(ss, res), Board: boardOf(ss)}, nil
}

type emitArgs struct {
	URI     string `json:"uri,omitempty"`
	Confirm *bool  `json:"confirm"`
}

func (a *emitArgs) check() error {
	if a.Confirm == nil {
		return invalidParams("emit needs {\"confirm\": true} to emit, or false to record that emission was skipped")
	}
	return nil
}

type emitResult struct {
	Path   string          `json:"path"`
	Record review.Emission `json:"record"`
	Ready  bool            `json:"emissionReady"`
}

// runEmitCommand takes the emission decision. Nothing is ever posted
// outside the repository: the canonical review artifact is the target.
func runEmitCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	var a emitArgs
	ss, _, err := s.sessionOf(ctx, args, &a)
	if err != nil {
		return nil, err
	}
	var out emitResult
	err = ss.withLoop(func(l *review.Loop, res *review.Result) error {
		c := res.Counts
		summary := fmt.Sprintf("%s: %d critical, %d high, %d medium, %d low in review.md", res.Verdict, c.Critical, c.High, c.Medium, c.Low)
		out.Record = engine.Emit(l, *a.Confirm, summary)
		out.Ready = l.Gates.EmissionReady
		return nil
	})
	if err != nil {
		return nil, err
	}
	res, _ := ss.current()
	out.Path = writtenPath(ss, res, artifacts.FileEmissionRecord)
	if _, err := os.Stat(out.Path); err != nil {
		return nil, fmt.Errorf("emission record not written: %w", err)
	}
	return out, nil
}
