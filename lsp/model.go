package lsp

import (
	"context"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// The model reviewer's phase, a second wave as the type-aware analysis's
// (analysis.go). A review runs with the model review pending
// (review.ModelAsk, or review.ModelCached between saves), so its rule
// findings are published at once; once the result is oriented, this
// phase runs engine.ModelReview in the background, with $/progress while
// it asks the endpoint, and publishes a second time with the model's
// findings. The next change cancels it (and with it the HTTP request):
// its review publishes first and leaves the model pending again.
//
// The model is asked on save (trigger: save, the default) or on every
// change (trigger: change). Any change but typing (a save, an open, the
// watcher, git, a command) asks, until a model review that asked ends;
// typing (didChange) waits for the save, and its reviews answer from the
// cache only (ReviewCached): a file whose request did not change keeps
// its model findings, an edited one waits. So a review cancelled by the
// next save, or by the full review that resumes after edits, still
// leaves the model to be asked, and a burst of keystrokes asks nothing.
// The reviewer, and its cache, is the session's (engine.Models), shared
// by the engines its full reviews open.
//
// A model that is down, slow or wrong costs a log line per request
// (window/logMessage, from the reviewer's warnings) and a note in
// reviewls/didReview (model.summary); settings it cannot use are shown
// once.

// modelPhase is the session's background model review.
type modelPhase struct {
	phase
	// ask says the model is to be asked (see above). Guarded by the
	// session's modMu.
	ask bool
}

// DefaultModelDelay keeps a burst of saves (format on save, save all)
// from asking the model once per save, each cancelling the last; a local
// model answers in seconds, so half a second is not felt.
const DefaultModelDelay = 500 * time.Millisecond

// modelDelay returns the quiet window before the model is asked.
func (s *server) modelDelay() time.Duration {
	if s.opts.ModelDelay > 0 {
		return s.opts.ModelDelay
	}
	return DefaultModelDelay
}

// modelModeLocked is what the review of a generation asks of the model
// under trigger: the endpoint when it is to be asked or the trigger is
// every change, else the cache. Requires modMu.
func (ss *session) modelModeLocked(trigger review.ModelTrigger) review.ModelMode {
	if ss.model.ask || trigger == review.TriggerChange {
		return review.ModelAsk
	}
	return review.ModelCached
}

// asked records that the model review of generation id asked the
// endpoint and ended: unless a newer change asks again, the model has
// been asked.
func (ss *session) asked(id uint64) {
	ss.modMu.Lock()
	defer ss.modMu.Unlock()
	if id == ss.modID {
		ss.model.ask = false
	}
}

// trigger returns the model's trigger in effect.
func (ss *session) trigger() review.ModelTrigger {
	ss.engMu.Lock()
	defer ss.engMu.Unlock()
	if mc, _ := ss.eng.ModelSettings(); mc != nil && mc.Trigger != "" {
		return mc.Trigger
	}
	return review.TriggerSave
}

// modelLater starts the model review res left pending, for generation id
// whose documents had versions. Called once res is published and
// oriented.
func (ss *session) modelLater(res *review.Result, versions map[string]int32, id uint64) {
	if res.Model.State != review.ModelPending {
		if res.Model.State == review.ModelUnavailable {
			ss.srv.showOnce(protocol.MessageTypeWarning, "reviewls: "+res.Model.String())
		}
		return
	}
	asks := !res.Model.CacheOnly
	delay := time.Duration(0)
	if asks {
		delay = ss.srv.modelDelay()
	}
	ss.secondWave(&ss.model.phase, id, versions, delay, func(ctx context.Context, eng *engine.Engine) (*review.Result, error) {
		out, err := ss.askModel(ctx, eng, res, asks)
		if err == nil && asks {
			ss.asked(id)
		}
		return out, err
	}, func(out *review.Result) {
		ss.logger.Debug("model review done", "mod_id", id, "findings", len(out.Findings), "summary", out.Model.Summary)
		if failed(out.Model) {
			// Down, slow or wrong: one line in the client's log; the
			// ledger (model-review.json) has each request's reason.
			ss.srv.logMessage(protocol.MessageTypeWarning, out.Redactor.String("reviewls: "+out.Model.Summary))
		}
	})
}

// askModel runs the model review of res, with $/progress when it asks the
// endpoint and one line in the client's log when that sends code off the
// machine.
func (ss *session) askModel(ctx context.Context, eng *engine.Engine, res *review.Result, asks bool) (*review.Result, error) {
	if !asks {
		return eng.ModelReview(ctx, res)
	}
	m := res.Model
	if m.Notice != "" {
		ss.srv.logMessage(protocol.MessageTypeInfo, "reviewls: "+m.Notice)
	}
	if ss.onModel != nil {
		ss.onModel(ctx)
	}
	progress := ss.srv.beginProgress(ctx, "reviewls", fmt.Sprintf("Asking %s at %s", m.Model, m.Host))
	out, err := eng.ModelReview(ctx, res)
	if progress != nil {
		msg := "model review cancelled"
		if err == nil {
			msg = out.Model.Summary
		}
		progress.end(res.Redactor.String(msg))
	}
	return out, err
}

// failed reports a model review with a request that got no usable
// answer, beyond those a review from the cache did not ask.
func failed(m review.ModelReview) bool {
	for reason := range m.Counts.Unverified {
		if reason != review.ModelNotAsked {
			return true
		}
	}
	return false
}

// logMessage sends msg to the client's log.
func (s *server) logMessage(typ protocol.MessageType, msg string) {
	if s.client == nil {
		return
	}
	_ = s.client.LogMessage(context.Background(), &protocol.LogMessageParams{Type: typ, Message: msg})
}
