package lsp

import (
	"context"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// The type-aware analysis phase. A review runs with the analysis deferred
// (review.AnalysisDefer), so its pattern and syntax findings are published
// at once; when the result's analysis is pending, this phase runs it in
// the background (engine.Analyze, which does not hold the engine), within
// the configured budget, and publishes a second time with its findings.
// It starts once the session has been quiet for Options.AnalysisDelay.
// The next change cancels it: its review publishes first, and leaves the
// analysis pending again. A skipped or timed-out analysis is told in
// window/logMessage, once per distinct message.

// phase is a background phase of a session: the one running, which the
// next change cancels.
type phase struct {
	mu     sync.Mutex
	cancel context.CancelFunc // of the running phase; nil when none
}

// stop cancels the running phase, if any.
func (p *phase) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

// start records the cancel of a new phase, cancelling the running one.
func (p *phase) start(cancel context.CancelFunc) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
	}
	p.cancel = cancel
}

// analysisPhase is the session's background analysis.
type analysisPhase struct {
	phase
	told string // the last message sent (guarded by mu)
}

// analyzeLater starts the analysis res left pending, for generation id
// whose documents had versions. Called once res is published.
func (ss *session) analyzeLater(res *review.Result, versions map[string]int32, id uint64) {
	if res.Analysis.State != review.AnalysisPending {
		ss.tellAnalysis(res.Analysis)
		return
	}
	// The next change cancels the phase: a burst of saves starts it
	// once, after the last.
	ss.secondWave(&ss.analysis.phase, id, versions, ss.srv.opts.AnalysisDelay, func(ctx context.Context, eng *engine.Engine) (*review.Result, error) {
		if ss.onAnalyze != nil {
			ss.onAnalyze(id)
		}
		return eng.Analyze(ctx, res)
	}, func(out *review.Result) {
		ss.logger.Debug("type-aware analysis done", "mod_id", id, "state", out.Analysis.State, "findings", len(out.Findings))
		ss.tellAnalysis(out.Analysis)
	})
}

// secondWave runs work, a continuation of the run of generation id whose
// documents had versions, in the background as phase p, after the
// session stayed quiet for delay (none when 0), and publishes its result
// whole; done sees it first. The next change cancels it: a change either
// comes first (and it does not start) or cancels it. A result that a
// newer generation, or a later continuation of the same run, replaced is
// not published.
func (ss *session) secondWave(p *phase, id uint64, versions map[string]int32, delay time.Duration,
	work func(context.Context, *engine.Engine) (*review.Result, error), done func(out *review.Result)) {
	ss.engMu.Lock()
	eng := ss.eng
	ss.engMu.Unlock()
	// Under modMu, so that a change either comes first or cancels it.
	ss.modMu.Lock()
	defer ss.modMu.Unlock()
	if ss.closed || id != ss.modID {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.start(cancel)
	ss.wg.Add(1)
	go func() {
		defer ss.wg.Done()
		defer cancel()
		if delay > 0 {
			quiet := time.NewTimer(delay)
			defer quiet.Stop()
			select {
			case <-quiet.C:
			case <-ctx.Done():
				return
			}
		}
		out, err := work(ctx, eng)
		if err != nil {
			return // stale or cancelled: a newer review is on its way
		}
		// One publisher at a time: a review in flight publishes first,
		// and makes this result stale.
		select {
		case ss.sema <- struct{}{}:
		case <-ctx.Done():
			return
		}
		defer func() { <-ss.sema }()
		ss.modMu.Lock()
		stale := ss.closed || id != ss.modID || ctx.Err() != nil
		ss.modMu.Unlock()
		if stale || !eng.Latest(out) {
			return
		}
		ss.adopt(out, versions)
		done(out)
		ss.pub.publish(out, versions, nil)
		ss.pub.announce(out)
		ss.artifacts.settled(out)
	}()
}

// tellAnalysis sends a skipped or timed-out analysis to the client's log,
// unless the last message said the same.
func (ss *session) tellAnalysis(a review.Analysis) {
	msg := ""
	if a.State == review.AnalysisSkipped || a.State == review.AnalysisTimedOut {
		msg = "reviewls: " + a.String()
	}
	ss.analysis.mu.Lock()
	repeat := ss.analysis.told == msg
	ss.analysis.told = msg
	ss.analysis.mu.Unlock()
	if repeat || msg == "" || ss.srv.client == nil {
		return
	}
	typ := protocol.MessageTypeInfo
	if a.State == review.AnalysisTimedOut {
		typ = protocol.MessageTypeWarning
	}
	_ = ss.srv.client.LogMessage(context.Background(), &protocol.LogMessageParams{Type: typ, Message: msg})
}
