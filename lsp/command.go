package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
)

// Command names.
const (
	cmdReview = "reviewls.review"
)

// commandFunc runs a command with its JSON arguments.
type commandFunc func(ctx context.Context, s *server, args []json.RawMessage) (any, error)

// commands maps command names to their implementation.
func commands() map[string]commandFunc {
	return map[string]commandFunc{
		cmdReview:             runReviewCommand,
		cmdWalkthrough:        runWalkthroughCommand,
		cmdBoard:              runBoardCommand,
		cmdBookmark:           runBookmarkCommand,
		cmdExplain:            runExplainCommand,
		cmdInvestigate:        runInvestigateCommand,
		cmdSelectPerspectives: runSelectPerspectivesCommand,
		cmdSetDepth:           runSetDepthCommand,
		cmdSweep:              runSweepCommand,
		cmdEmit:               runEmitCommand,
		cmdNotes:              runNotesCommand,
	}
}

// commandNames lists the advertised commands in a stable order.
func commandNames() []string {
	var names []string
	for n := range commands() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ExecuteCommand runs a reviewls command. Commands do real work, so the
// message queue is released first: edits keep flowing meanwhile.
func (s *server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (any, error) {
	fn, ok := commands()[params.Command]
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("unknown command %q (known: %v)", params.Command, commandNames()))
	}
	var args []json.RawMessage
	for _, a := range params.Arguments {
		data, err := json.Marshal(a)
		if err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
		}
		args = append(args, data)
	}
	release(ctx)
	res, err := fn(ctx, s, args)
	if err != nil {
		return nil, s.redactError(err)
	}
	return res, nil
}

// redactError hides the secrets the current reviews found in an error's
// message (an argument can quote one), keeping its JSON-RPC code.
func (s *server) redactError(err error) error {
	msg := err.Error()
	s.sessionsMu.Lock()
	for _, ss := range s.sessions {
		if res, _ := ss.current(); res != nil {
			msg = res.Redactor.String(msg)
		}
	}
	s.sessionsMu.Unlock()
	if msg == err.Error() {
		return err
	}
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		return jsonrpc2.NewError(rpcErr.Code, msg)
	}
	return errors.New(msg)
}

// invalidParams is a command argument error: the client sent something the
// command cannot use. Nothing has changed when it is returned.
func invalidParams(format string, a ...any) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf(format, a...))
}

// sessionArg is the optional first argument naming the workspace folder or
// a document: {"uri": "file:///..."}.
type sessionArg struct {
	URI protocol.DocumentURI `json:"uri"`
}

// pickSession returns the session an argument list refers to: the one that
// holds args[0].uri, or the only session.
func (s *server) pickSession(args []json.RawMessage) (*session, error) {
	if len(args) > 0 {
		var a sessionArg
		if err := json.Unmarshal(args[0], &a); err == nil && a.URI != "" {
			ss, _ := s.sessionForURI(a.URI)
			if ss == nil {
				return nil, invalidParams("%s is not inside a reviewed git repository", a.URI)
			}
			return ss, nil
		}
	}
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	switch len(s.sessions) {
	case 0:
		return nil, invalidParams("no workspace folder is inside a git repository")
	case 1:
		return s.sessions[0], nil
	}
	return nil, invalidParams("several repositories are open: pass {\"uri\": ...} to choose one")
}

// reviewSummary is the JSON result of reviewls.review.
type reviewSummary struct {
	Target   string               `json:"target"`
	Branch   string               `json:"branch"`
	Files    int                  `json:"files"`
	Findings int                  `json:"findings"`
	Counts   review.Counts        `json:"counts"`
	Verdict  review.Verdict       `json:"verdict"`
	Depth    string               `json:"depth"`
	Persp    []review.Perspective `json:"perspectives"`
	Folder   string               `json:"artifactFolder,omitempty"`
	// Model is the model review, when a model is configured.
	Model *modelSummary `json:"model,omitempty"`
	// Decision is the review decision in the words the editors show.
	Decision *decisionSummary `json:"decision,omitempty"`
}

// modelSummary is what reviewls/didReview and reviewls.review say of the
// model review: its state (pending while the second wave runs, ran,
// unavailable), the model and host, how many findings it confirmed, and
// the ledger in one line, or why it cannot run.
type modelSummary struct {
	State    review.ModelState `json:"state"`
	Model    string            `json:"model"`
	Host     string            `json:"host,omitempty"`
	Remote   bool              `json:"remote,omitempty"`
	Blocking bool              `json:"blocking"`
	Findings int               `json:"findings"`
	Summary  string            `json:"summary,omitempty"`
	Reason   string            `json:"reason,omitempty"`
}

func summarizeModel(res *review.Result) *modelSummary {
	m := res.Model
	if m.State == review.ModelOff {
		return nil
	}
	n := 0
	for _, f := range res.Findings {
		if f.Model != "" {
			n++
		}
	}
	return &modelSummary{State: m.State, Model: m.Model, Host: m.Host, Remote: m.Remote, Blocking: m.Blocking, Findings: n,
		Summary: m.Summary, Reason: m.Reason}
}

// decisionSummary is the review decision as the editors show it: the
// recommendation in words, readiness, confidence, and the gaps with what
// closes them.
type decisionSummary struct {
	Recommendation review.Recommendation `json:"recommendation"`
	Words          string                `json:"words"`
	Readiness      review.Verification   `json:"readiness"`
	Confidence     float64               `json:"confidence"`
	Summary        string                `json:"summary"`
	// Gaps are the open gaps (those with a deduction).
	Gaps []artifacts.GapDoc `json:"gaps"`
}

// summarizeDecision converts a result's decision; nil when it has none.
func summarizeDecision(d *review.Decision) *decisionSummary {
	if d == nil {
		return nil
	}
	open := slices.DeleteFunc(slices.Clone(d.Gaps), func(g review.Gap) bool { return g.Points == 0 })
	return &decisionSummary{Recommendation: d.Recommendation, Words: d.Recommendation.Words(), Readiness: d.Readiness,
		Confidence: d.Confidence(), Summary: d.Summary, Gaps: artifacts.Gaps(open)}
}

func summarize(ss *session, res *review.Result) reviewSummary {
	sum := reviewSummary{
		Target:  string(res.ChangeSet.Target.Kind),
		Branch:  res.ChangeSet.Target.BranchLabel(),
		Files:   len(res.ChangeSet.Files),
		Verdict: res.Verdict,
		Counts:  res.Counts,
		Persp:   res.Perspectives,
	}
	if sum.Verdict == "" {
		sum.Verdict = review.VerdictApprove
	}
	if res.Depth.Valid() {
		sum.Depth = res.Depth.String()
	}
	sum.Findings = len(res.Findings)
	sum.Model = summarizeModel(res)
	sum.Decision = summarizeDecision(res.Decision)
	if !res.ChangeSet.Empty() {
		sum.Folder = ss.artifactFolder(res.ChangeSet.Target)
	}
	return sum
}

// runReviewCommand reviews everything now and returns the summary.
func runReviewCommand(ctx context.Context, s *server, args []json.RawMessage) (any, error) {
	if err := decodeArg(args, &loopArgs{}); err != nil {
		return nil, err
	}
	ss, err := s.pickSession(args)
	if err != nil {
		return nil, err
	}
	res, err := ss.reviewNow(ctx)
	if err != nil {
		return nil, err
	}
	ss.artifacts.flush()
	return summarize(ss, res), nil
}
