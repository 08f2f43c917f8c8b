package engine

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/config"
	"github.com/reviewls/reviewls/review/llm"
	"github.com/reviewls/reviewls/review/orient"
	"github.com/reviewls/reviewls/review/secret"
)

// The model reviewer (review/llm). It never sits on the path of the rule
// findings: a run that asks for it (review.ModelAsk, review.ModelCached)
// leaves its result's model review pending, and [Engine.ModelReview] runs
// it afterwards, without holding the engine, then finishes the run again
// with the confirmed candidates merged in through the same processor
// chain (suppressions, the baseline, dedupe, caps). Holding the line is
// the grounding itself: the model is never run on the base version, so a
// model finding is never pre-existing by the base, only by the baseline.
//
// Its settings are the configuration's `model:` (the user's file, or a
// repository the user trusted) with the front end's over it
// (Options.Model: flags, editor settings). The reviewer, with its cache of
// answers, lives in a [Models] that the engines of a session share, so a
// save re-asks only the requests that changed.

// Models holds the model reviewer of a session: the language server
// opens a new engine for every full review, and the answers cached by
// the last one still apply. It keeps one reviewer, replaced when the
// settings change. It is safe for concurrent use.
type Models struct {
	mu  sync.Mutex
	key string
	rev *llm.Reviewer
}

// NewModels returns an empty Models.
func NewModels() *Models { return &Models{} }

// reviewer returns the reviewer of o, the one kept when its settings
// (key) are the same.
func (m *Models) reviewer(key string, o llm.Options) (*llm.Reviewer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rev != nil && m.key == key {
		return m.rev, nil
	}
	r, err := llm.New(o)
	if err != nil {
		return nil, err
	}
	m.key, m.rev = key, r
	return r, nil
}

// modelSetup is an engine's model reviewer.
type modelSetup struct {
	cfg review.ModelConfig
	rev *llm.Reviewer
	ep  llm.Endpoint
	// err says why the settings cannot be used; rev is nil then.
	err error
}

// setupModel returns the model reviewer of the settings, or nil when none
// is configured.
func setupModel(opts Options, root string, logger *slog.Logger) *modelSetup {
	if opts.NoModel {
		return nil
	}
	var file *review.ModelConfig
	if opts.Config != nil {
		file = opts.Config.Model
	}
	mc := file.Over(opts.Model)
	if !mc.Enabled() {
		return nil
	}
	m := &modelSetup{cfg: *mc}
	if mc.Transcript != "" && !filepath.IsAbs(mc.Transcript) {
		mc.Transcript = filepath.Join(root, mc.Transcript)
	}
	o := llm.Options{Endpoint: mc.Endpoint, Model: mc.Name, APIKeyEnv: mc.APIKeyEnv, AllowRemote: mc.AllowRemote,
		Timeout: mc.Timeout, MaxFindings: mc.MaxFindings, Context: mc.Context, Exclude: mc.Exclude, Stream: mc.Stream,
		Transcript: mc.Transcript, Replay: mc.Replay, Secrets: secret.Values, Logger: logger.With("component", "llm"),
		Getenv: opts.Getenv}
	if err := o.Validate(); err != nil {
		m.err = err
		return m
	}
	key, _ := json.Marshal(mc) // the settings the reviewer is built from
	models := opts.Models
	if models == nil {
		models = NewModels()
	}
	m.rev, m.err = models.reviewer(string(key), o)
	m.ep, _ = llm.ParseEndpoint(mc.Endpoint)
	return m
}

// ParseModelSettings parses the model settings of an editor: a JSON
// object with the keys of the configuration's `model:`, checked as the
// configuration file's are; name names the settings in errors.
func ParseModelSettings(name string, data []byte) (*review.ModelConfig, error) {
	cfg, err := config.Parse(name, append([]byte("model: "), data...), nil)
	if err != nil {
		return nil, err
	}
	return cfg.Model, nil
}

// ModelSettings returns the model settings in effect (the configuration's
// with the front end's over them), nil when no model is configured, and
// why they cannot be used, if they cannot.
func (e *Engine) ModelSettings() (*review.ModelConfig, error) {
	if e.model == nil {
		return nil, nil
	}
	mc := e.model.cfg
	return &mc, e.model.err
}

// modelPlan is the model review a run of req starts with: off, pending or
// unavailable.
func (e *Engine) modelPlan(req review.Request) review.ModelReview {
	m := e.model
	if m == nil || req.Model == review.ModelNone {
		return review.ModelReview{}
	}
	if m.err != nil {
		return review.ModelReview{State: review.ModelUnavailable, Model: m.cfg.Name, Reason: m.err.Error()}
	}
	out := review.ModelReview{State: review.ModelPending, Model: m.cfg.Name, Host: m.ep.Host, Remote: !m.ep.Loopback, Blocking: m.cfg.Blocking,
		CacheOnly: req.Model == review.ModelCached}
	if !out.CacheOnly {
		out.Notice = m.rev.Notice()
	}
	return out
}

// carriedModel returns the model findings of the last run on the files of
// cs that have not changed since (the same *review.File): an edit leaves
// the findings of the other files in place until the model is asked again.
func (e *Engine) carriedModel(cs *review.ChangeSet, mr review.ModelReview) []*review.Finding {
	if e.last == nil || mr.State != review.ModelPending {
		return nil
	}
	var out []*review.Finding
	for _, f := range e.last.model {
		if file := cs.File(f.Span.Path); file != nil && e.last.cs.File(f.Span.Path) == file {
			out = append(out, f)
		}
	}
	return out
}

// modelContextOf keeps on a file the code around its change that the
// model reviewer shows beside it: an unchanged file's request stays the
// same, so its cached answer applies.
var modelContextOf review.Memo[*fileContext]

// fileContext is a file's context for the model reviewer, once found in
// full: a search a cancelled review cut short is not kept (it would
// change the request, and the key its answer is cached under), and is
// made again by the next review.
type fileContext struct {
	mu sync.Mutex
	c  *llm.Context
}

// modelChange is what the model reviewer reviews of res: every file of
// the change set (it never sends the skipped ones), the code around each
// sent file's change, and the rule findings already reported. It returns
// ctx's error when ctx ends first: the searches stop, leaving the next
// review to the cores.
func (e *Engine) modelChange(ctx context.Context, res *review.Result) (llm.Change, error) {
	cs := res.ChangeSet
	ws := e.Workspace(cs.Target)
	ch := llm.Change{Files: cs.Files, Context: map[string]*llm.Context{}}
	for _, f := range res.Findings {
		if f.Model == "" {
			ch.Findings = append(ch.Findings, f)
		}
	}
	for _, f := range cs.Files {
		if !llm.Sendable(f, e.model.cfg.Exclude) {
			continue
		}
		fc := modelContextOf.Of(f, func() *fileContext { return &fileContext{} })
		fc.mu.Lock()
		if fc.c == nil {
			enc, rel := orient.ChangeContext(ctx, ws, cs, f, e.ChangedSymbols(cs.Target, f), orient.DefaultContextLimits)
			if err := ctx.Err(); err != nil {
				fc.mu.Unlock()
				return llm.Change{}, err
			}
			fc.c = &llm.Context{Enclosing: llmSymbols(enc), Related: llmSymbols(rel)}
		}
		ch.Context[f.Path] = fc.c
		fc.mu.Unlock()
	}
	return ch, nil
}

// llmSymbols converts context symbols to the model reviewer's.
func llmSymbols(syms []orient.ContextSymbol) []llm.Symbol {
	out := make([]llm.Symbol, len(syms))
	for i, s := range syms {
		out[i] = llm.Symbol{Name: s.Symbol.QualifiedName(), Relation: llm.Relation(s.Relation), Path: s.Symbol.Path,
			Line: s.Symbol.Line, EndLine: s.Symbol.EndLine, Signature: s.Symbol.Signature, Body: s.Body}
	}
	return out
}

// ModelReview runs the model review that res, the engine's latest result,
// left pending (review.ModelAsk or review.ModelCached), and returns a new
// result: res with the confirmed candidates merged in through the same
// processor chain, and Model holding the ledger. The model is asked
// without holding the engine, so runs go on meanwhile; when one has
// replaced res, ModelReview returns ErrStale, and when ctx ends first, its
// error. A result with nothing pending is returned as it is. A model that
// is down, slow or wrong is no error: its requests are unverified in the
// ledger.
func (e *Engine) ModelReview(ctx context.Context, res *review.Result) (*review.Result, error) {
	last, err := e.snapshotOf(res)
	if err != nil {
		return nil, err
	}
	if res.Model.State != review.ModelPending {
		return res, nil
	}
	rev := e.model.rev
	ch, err := e.modelChange(ctx, res)
	if err != nil {
		return nil, err
	}
	var l *llm.Ledger
	if res.Model.CacheOnly {
		l = rev.ReviewCached(ctx, ch, res.Redactor)
	} else {
		l = rev.Review(ctx, ch, res.Redactor)
	}
	return e.continueRun(ctx, last, func(cur *snapshot) (*review.Result, error) {
		next := cur.continued()
		next.Model = ran(res.Model, l)
		return e.finishAgain(ctx, cur, &next, cur.heavy, configured(l.Findings(), cur.cfg), cur.problems)
	})
}

// configured applies the configuration's rules to the model's findings,
// as the lenses do to theirs: a rule that is off drops them, a severity
// replaces the model's.
func configured(fs []*review.Finding, cfg *review.Config) []*review.Finding {
	out := fs[:0:0]
	for _, f := range fs {
		rc := cfg.Rule(f.RuleID)
		switch {
		case rc.Off:
			continue
		case rc.Severity.Valid():
			c := *f
			c.Severity = rc.Severity
			f = &c
		}
		out = append(out, f)
	}
	return out
}

// ran is the pending model review p once it ran: the ledger l.
func ran(p review.ModelReview, l *llm.Ledger) review.ModelReview {
	p.State = review.ModelRan
	p.Summary = l.Summary()
	p.Ledger = l.JSON()
	p.Counts = review.ModelCounts{Requests: len(l.Requests), Candidates: l.Counts.Candidates, Confirmed: l.Counts.Confirmed,
		Relocated: l.Counts.Relocated, Refuted: byReason(l.Counts.Refuted), Unverified: byReason(l.Counts.Unverified),
		PromptTokens: l.Usage.PromptTokens, CompletionTokens: l.Usage.CompletionTokens}
	p.Counts.Elapsed = time.Duration(l.ElapsedMS) * time.Millisecond
	return p
}

func byReason(m map[llm.Reason]int) map[string]int {
	out := make(map[string]int, len(m))
	for r, n := range m {
		out[string(r)] = n
	}
	return out
}
