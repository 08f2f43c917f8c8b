package lsp

import (
	"context"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/review"
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

// analysisPhase is the session's background analysis.
type analysisPhase struct {
	mu     sync.Mutex
	cancel context.CancelFunc // of the running phase; nil when none
	told   string             // the last message sent
}

// stop cancels the running phase, if any.
func (a *analysisPhase) stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cancel != nil {
		a.cancel()
		a.cancel = nil
	}
}

// analyzeLater starts the analysis res left pending, for generation id
// whose documents had versions. Called once res is published.
func (ss *session) analyzeLater(res *review.Result, versions map[string]int32, id uint64) {
	if res.Analysis.State != review.AnalysisPending {
		ss.tellAnalysis(res.Analysis)
		return
	}
	ss.engMu.Lock()
	eng := ss.eng
	ss.engMu.Unlock()
	// Under modMu, so that a change either comes first (and this phase
	// does not start) or cancels it.
	ss.modMu.Lock()
	defer ss.modMu.Unlock()
	if ss.closed || id != ss.modID {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	ss.analysis.stop()
	ss.analysis.mu.Lock()
	ss.analysis.cancel = cancel
	ss.analysis.mu.Unlock()
	ss.wg.Add(1)
	go func() {
		defer ss.wg.Done()
		defer cancel()
		// The next change cancels the phase: a burst of saves starts it
		// once, after the last.
		quiet := time.NewTimer(ss.srv.opts.AnalysisDelay)
		defer quiet.Stop()
		select {
		case <-quiet.C:
		case <-ctx.Done():
			return
		}
		if ss.onAnalyze != nil {
			ss.onAnalyze(id)
		}
		out, err := eng.Analyze(ctx, res)
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
		if stale {
			return
		}
		ss.adopt(out, versions)
		ss.logger.Debug("type-aware analysis done", "mod_id", id, "state", out.Analysis.State, "findings", len(out.Findings))
		ss.pub.publish(out, versions, nil)
		ss.pub.announce(out)
		ss.artifacts.settled(out)
		ss.tellAnalysis(out.Analysis)
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
