package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/config"
)

// The type-aware analysis. The heavy rules (comprehensive and cross-file:
// functional/go-analysis, which loads and type-checks the changed Go
// packages) never sit on the path of the other findings: the lenses check
// without them, and they run afterwards, within a budget, in one of two
// ways:
//
//   - within Run (review.AnalysisAuto, the CLI), only when the depth used
//     is comprehensive and was chosen (--depth, the loop, the
//     configuration's depth) or the configuration sets analysis.budget; a
//     depth that is only recommended never runs it;
//   - after Run (review.AnalysisDefer, the language server): the result's
//     analysis is pending and [Engine.Analyze] runs it without holding the
//     engine, then finishes the run again with its findings; at a depth
//     that is only recommended, only in a repository the user trusts.
//
// Either way Result.Analysis says whether it ran, was skipped and why
// (an analysis that could load no package, for want of a toolchain or a
// module it never downloads, is skipped with the reason), or timed out.

// DefaultAnalysisBudget bounds the analysis when the configuration sets
// no budget. A warm build cache loads a few packages in well under a
// second; the first run on a large module compiles export data for its
// dependencies, which can take tens of seconds, and beyond a minute the
// review is better off without.
const DefaultAnalysisBudget = time.Minute

// ErrStale is returned by [Engine.Analyze] when a newer run has replaced
// the result it was given.
var ErrStale = errors.New("the review was superseded by a newer run")

// analysisBudget returns the budget of the analysis under cfg.
func analysisBudget(cfg *review.Config) time.Duration {
	if cfg != nil && cfg.AnalysisBudget > 0 {
		return cfg.AnalysisBudget
	}
	return DefaultAnalysisBudget
}

// planAnalysis sets res.Analysis before the checks and reports whether the
// run performs the analysis itself. chosen says the depth was chosen, not
// recommended.
//
// The analysis runs the Go toolchain over the repository's code, so only
// the user decides that it runs: by choosing comprehensive depth or an
// analysis budget (on the command line, in the editor, in the user's
// configuration, or in the configuration of a repository they trust), or,
// for the language server's background analysis at a recommended
// comprehensive depth, by trusting the repository.
func (e *Engine) planAnalysis(res *review.Result, req review.Request, cfg *review.Config, chosen, incremental bool) bool {
	if !e.analysable(res, cfg) {
		return false
	}
	budget := analysisBudget(cfg)
	background := req.Analysis == review.AnalysisDefer || incremental
	asked := chosen || cfg != nil && cfg.AnalysisBudget > 0
	switch {
	case res.Depth < review.DepthComprehensive:
		if !chosen {
			res.Analysis = review.Analysis{State: review.AnalysisSkipped,
				Reason: fmt.Sprintf("not part of depth %s (use --depth comprehensive)", res.Depth)}
		}
		return false
	case background && !asked && e.standing != config.Trusted:
		res.Analysis = review.Analysis{State: review.AnalysisSkipped,
			Reason: "not requested, and this repository is not trusted to run the Go toolchain (run `reviewls trust`, or set depth: comprehensive in the editor's settings)"}
		return false
	case background:
		res.Analysis = review.Analysis{State: review.AnalysisPending, Budget: budget}
		return false
	case asked:
		res.Analysis = review.Analysis{State: review.AnalysisRan, Budget: budget}
		return true
	default:
		res.Analysis = review.Analysis{State: review.AnalysisSkipped, NotRequested: true,
			Reason: "not requested (use --depth comprehensive, or set analysis.budget in .reviewls.yaml)"}
		return false
	}
}

// analysable reports whether a heavy rule would check a reviewed file of
// res: one enabled, of a kept perspective, for the file's language.
func (e *Engine) analysable(res *review.Result, cfg *review.Config) bool {
	for _, l := range e.opts.Lenses {
		if res.Profile == review.ProfileCustom && !slices.Contains(res.Perspectives, l.Perspective()) {
			continue
		}
		for _, r := range l.Rules() {
			if !e.heavy[r.ID] || cfg.Rule(r.ID).Off {
				continue
			}
			for _, f := range res.ChangeSet.Reviewed() {
				if len(r.Languages) == 0 || slices.Contains(r.Languages, f.Language) {
					return true
				}
			}
		}
	}
	return false
}

// analyze runs the heavy rules over res's change set within res's budget
// and records how it ended in res.Analysis. It returns their findings and
// problems with the analysis's failures added. A timed-out analysis keeps
// what it found before the deadline. It does not need e.mu.
func (e *Engine) analyze(ctx context.Context, res *review.Result, cfg *review.Config, problems []string) ([]*review.Finding, []string) {
	budget := res.Analysis.Budget
	actx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	opts := review.CheckOptions{Depth: review.DepthComprehensive, Config: cfg, Skip: func(id string) bool { return !e.heavy[id] }}
	found, failed := e.checkLenses(actx, res.ChangeSet, res.ChangeSet.Reviewed(), opts)
	var heavy []*review.Finding
	for _, fs := range found {
		heavy = append(heavy, fs...)
	}
	res.Analysis = review.Analysis{State: review.AnalysisRan, Budget: budget}
	if ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		res.Analysis = review.Analysis{State: review.AnalysisTimedOut, Budget: budget,
			Reason: "its findings are incomplete (raise analysis.budget in .reviewls.yaml)"}
	} else if n, reason, ok := review.AnalysisLoadOf.OfSet(res.ChangeSet, review.NewAnalysisLoad).Get(); ok && n == 0 {
		// It ran, but analysed nothing: say why rather than "ran".
		res.Analysis = review.Analysis{State: review.AnalysisSkipped, Budget: budget, Reason: reason, Blocked: true}
	}
	return heavy, append(slices.Clip(problems), failed...)
}

// Analyze runs the type-aware analysis that res, the engine's latest
// result, left pending (review.AnalysisDefer) and returns a new result:
// res with the analysis's findings merged in through the same processor
// chain. The analysis runs without holding the engine, so runs go on
// meanwhile; when one has replaced res, Analyze returns ErrStale, and when
// ctx ends first, its error. A result with nothing pending is returned as
// it is. The model review of the same run may end first or after
// ([Engine.ModelReview]): the later one's result holds both.
func (e *Engine) Analyze(ctx context.Context, res *review.Result) (*review.Result, error) {
	last, err := e.snapshotOf(res)
	if err != nil {
		return nil, err
	}
	if res.Analysis.State != review.AnalysisPending {
		return res, nil
	}
	next := *last.pre
	heavy, problems := e.analyze(ctx, &next, last.cfg, last.problems)
	return e.continueRun(ctx, last, func(cur *snapshot) (*review.Result, error) {
		analysis := next.Analysis
		next = cur.continued()
		next.Analysis = analysis
		return e.finishAgain(ctx, cur, &next, heavy, cur.model, problems)
	})
}

// continueRun finishes a continuation of the run of last (the analysis,
// the model review) under e.mu: fn gets the latest snapshot of that run,
// whichever continuation made it. It returns ctx's error when ctx ended,
// and ErrStale when a newer run replaced the run.
func (e *Engine) continueRun(ctx context.Context, last *snapshot, fn func(cur *snapshot) (*review.Result, error)) (*review.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	cur := e.last
	if cur == nil || cur.pre != last.pre {
		return nil, ErrStale
	}
	return fn(cur)
}

// finishAgain finishes the run of the snapshot cur again from next with
// the heavy rules' findings and the model's, as [Engine.finish] does.
// Requires e.mu.
func (e *Engine) finishAgain(ctx context.Context, cur *snapshot, next *review.Result, heavy, model []*review.Finding, problems []string) (*review.Result, error) {
	raw := append(slices.Clip(cur.light), heavy...)
	// The second result is published whole: it is oriented at once.
	req := cur.req
	req.DeferOrientation = false
	return e.finish(ctx, req, next, cur.pre, cur.cfg, raw, fileCaches{cur.findings, cur.cross}, heavy, model, problems, true)
}

// snapshotOf returns the snapshot whose result is res, or ErrStale when a
// newer result replaced it.
func (e *Engine) snapshotOf(res *review.Result) (*snapshot, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.last == nil || e.last.res != res {
		return nil, ErrStale
	}
	return e.last, nil
}

// Latest reports whether res is the engine's latest result. Of the
// results of one run's continuations ([Engine.Analyze],
// [Engine.ModelReview]) the latest holds what each added.
func (e *Engine) Latest(res *review.Result) bool {
	_, err := e.snapshotOf(res)
	return err == nil
}

// continued is the result a continuation of the snapshot's run (the
// analysis, the model review) starts from: the result before the checks,
// with what the run's continuations made of the analysis and the model
// review so far.
func (s *snapshot) continued() review.Result {
	next := *s.pre
	next.Analysis, next.Model = s.res.Analysis, s.res.Model
	return next
}
