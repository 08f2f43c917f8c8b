package lsp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// session reviews one repository for one workspace folder.
type session struct {
	srv    *server
	folder string // the workspace folder
	root   string // the repository's work tree root
	logger *slog.Logger

	// engMu guards eng, which is replaced when .reviewls.yaml changes.
	engMu    sync.Mutex
	eng      *engine.Engine
	baseline baselineCache // guarded by engMu
	// baselineRel is the configured baseline path, for didModify.
	baselineRel atomic.Pointer[string]

	// modMu guards the scheduling state below.
	modMu   sync.Mutex
	modID   uint64
	pending map[string]uint64    // path -> modID at which it changed
	mustPub map[string]bool      // paths to republish even if unchanged
	saved   map[string]fileStamp // files as the editor last saved them
	full    uint64               // modID of the last change needing a full rescan (0: none)
	// showProgress asks the next full review to report $/progress (not
	// for polling rescans).
	showProgress bool
	// lightFirst asks the next run to review the pending paths before
	// the full review that is due: they changed while it was due or
	// running, and are answered at once; the full review follows.
	lightFirst bool
	cancelPrev context.CancelFunc
	timer      *time.Timer
	closed     bool

	sema chan struct{} // one review (or analysis publish) at a time
	// cutLogged is the finding caps' last logged summary (guarded by
	// sema).
	cutLogged string
	// fullSema holds one full run at a time, one left to finish in the
	// background included: two would hold two engines' memory.
	fullSema chan struct{}

	// analysis is the background type-aware analysis (analysis.go).
	analysis analysisPhase
	// model is the background model review (model.go); models keeps the
	// model reviewer, and its cache of answers, across the engines of
	// the session.
	model  modelPhase
	models *engine.Models

	// resultMu guards result, its document versions, failure and the
	// loop state.
	resultMu sync.Mutex
	result   *review.Result
	// failure is why the newest review failed; nil once one succeeds.
	// result stays the last success, for the features that read it, but
	// a review asked for reports the failure.
	failure  error
	versions map[string]int32 // path -> document version the result saw
	// loop is the review loop's state (board ids and statuses, human
	// choices), kept across reviews and changed by commands.
	loop *review.Loop
	// orienting is closed when the newest run has adopted its result (or
	// ended without one); nil outside that window (see lockResult).
	orienting chan struct{}

	pub *publisher

	watcher   *watcher                        // set under modMu, never after close
	matcher   *atomic.Pointer[engine.Matcher] // swapped when a .gitignore changes
	pollStop  chan struct{}                   // set under modMu, never after close
	artifacts *artifactWriter

	wg sync.WaitGroup

	// onRequest, when set (tests), sees each request before the engine,
	// with the run's context.
	onRequest func(context.Context, review.Request)
	// onAnalyze, when set (tests), is called as the background analysis of
	// generation id starts.
	onAnalyze func(id uint64)
	// onModel, when set (tests), is called as the background model review
	// asks the endpoint, with the phase's context.
	onModel func(ctx context.Context)
}

func (s *server) newSession(folder string) (*session, error) {
	models := engine.NewModels()
	eng, err := engine.Open(folder, s.engineOptions(models))
	if err != nil {
		return nil, err
	}
	ss := &session{
		models:   models,
		srv:      s,
		folder:   folder,
		root:     eng.Root(),
		eng:      eng,
		pending:  map[string]uint64{},
		mustPub:  map[string]bool{},
		saved:    map[string]fileStamp{},
		sema:     make(chan struct{}, 1),
		fullSema: make(chan struct{}, 1),
	}
	ss.logger = s.logger.With("root", ss.root)
	ss.pub = newPublisher(s, ss)
	ss.artifacts = newArtifactWriter(ss)
	return ss, nil
}

// engineOptions configures the engine of a session whose model reviewer
// lives in models.
func (s *server) engineOptions(models *engine.Models) engine.Options {
	st := s.currentSettings()
	return engine.Options{Logger: s.opts.Logger.With("component", "engine"), Env: s.opts.GitEnv, UserDir: s.opts.UserDir,
		Model: st.model, NoModel: st.noModel, Models: models}
}

// start loads the loop state of the branch's last interactive review,
// begins watching and runs the first, full review.
func (ss *session) start() {
	if t, err := ss.eng.Repo().Resolve(context.Background(), false, ""); err == nil {
		if l, err := artifacts.LoadLoop(ss.root, t); err != nil {
			ss.logger.Warn("read the review loop state", "err", err)
		} else {
			ss.loop = l
		}
	}
	if !ss.srv.opts.NoWatch {
		ss.startWatcher()
	}
	ss.didModify(fromGit)
}

// close stops the session's goroutines and waits for them.
func (ss *session) close() {
	ss.modMu.Lock()
	ss.closed = true
	ss.stopTimerLocked()
	if ss.cancelPrev != nil {
		ss.cancelPrev()
	}
	ss.analysis.stop()
	ss.model.stop()
	ss.modMu.Unlock()
	if ss.watcher != nil {
		ss.watcher.Close()
	}
	if ss.pollStop != nil {
		close(ss.pollStop)
	}
	ss.artifacts.stop()
	ss.wg.Wait()
	ss.endOrientation()
	ss.engMu.Lock()
	ss.eng.Close()
	ss.engMu.Unlock()
}

// didModify is the one funnel for change: it marks the paths pending and
// schedules a review. Git-level changes (and an empty modification list)
// ask for a full rescan.
func (ss *session) didModify(src modSource, mods ...modification) {
	ss.modMu.Lock()
	defer ss.modMu.Unlock()
	if ss.closed {
		return
	}
	ss.modID++
	for _, m := range mods {
		ss.pending[m.path] = ss.modID
		if src == fromEditor || src == fromTyping || src == fromSave {
			ss.mustPub[m.path] = true
		}
		if isConfigPath(m.path) || ss.isBaselinePath(m.path) {
			ss.full = ss.modID
		}
	}
	if src == fromGit || src == fromUser || src == fromPoll || len(mods) == 0 {
		ss.full = ss.modID
	}
	// The model is asked about what is saved: typing waits for the save,
	// anything else (a save, an open, the disk, git) asks.
	ss.model.ask = src != fromTyping
	if src != fromPoll && ss.full == ss.modID {
		ss.showProgress = true
	}
	switch {
	case src == fromUser:
		ss.lightFirst = false // the caller waits for the full review
	case ss.full > 0 && ss.full != ss.modID && len(mods) > 0:
		// Edits during a full review (the initial one, say) cancel it
		// and are reviewed first; it restarts after them.
		ss.lightFirst = true
	}
	ss.scheduleLocked()
}

// isConfigPath reports paths whose change affects the whole review.
func isConfigPath(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	return p == engine.ConfigFile || base == ".gitignore" || base == ".gitattributes"
}

// scheduleLocked cancels the running review of an older generation and
// re-arms the debounce timer. Requires modMu.
func (ss *session) scheduleLocked() { ss.scheduleAfterLocked(ss.srv.quiet()) }

// resumeDelay is how long the session must stay quiet before a full
// review that edits went before starts again: edits come in bursts, and
// each one would cancel it again (and wait for it to stop).
const resumeDelay = time.Second

// scheduleAfterLocked is scheduleLocked with the given delay.
func (ss *session) scheduleAfterLocked(delay time.Duration) {
	if ss.cancelPrev != nil {
		ss.cancelPrev()
	}
	ss.analysis.stop()
	ss.model.stop()
	genCtx, cancel := context.WithCancel(context.Background())
	ss.cancelPrev = cancel
	id := ss.modID
	ss.stopTimerLocked()
	ss.wg.Add(1)
	ss.timer = time.AfterFunc(delay, func() {
		defer ss.wg.Done()
		ss.run(genCtx, id)
	})
}

// stopTimerLocked stops the pending debounce timer; a timer stopped before
// it fired will never call wg.Done, so do it here. Requires modMu.
func (ss *session) stopTimerLocked() {
	if ss.timer != nil && ss.timer.Stop() {
		ss.wg.Done()
	}
	ss.timer = nil
}

// run reviews generation id: the pending paths (or everything when a full
// rescan is due) with the open documents as overlays. When paths changed
// while a full rescan was due, they are reviewed first on their own,
// published, and the full rescan is scheduled again after them.
func (ss *session) run(ctx context.Context, id uint64) {
	select {
	case ss.sema <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-ss.sema }()

	trigger := ss.trigger() // not under modMu: it waits for the engine
	ss.modMu.Lock()
	if id != ss.modID || ss.closed {
		ss.modMu.Unlock()
		return // a newer generation is scheduled
	}
	defer ss.settle(id)
	full := ss.full > 0
	var paths []string
	for p := range ss.pending {
		paths = append(paths, p)
	}
	light := full && ss.lightFirst && len(paths) > 0
	if light {
		full, ss.lightFirst = false, false
	}
	withProgress := full && ss.showProgress
	mustPub := ss.mustPub
	modelMode := ss.modelModeLocked(trigger)
	ss.modMu.Unlock()
	if light {
		// Whatever happens to the light run, the full one stays due.
		defer ss.resumeFull(id)
	}

	overlay, versions := ss.srv.overlays(ss, full, paths)
	req := review.Request{Dir: ss.root, Mode: review.ModeInteractive, Overlay: overlay, Loop: ss.loopSnapshot(),
		Analysis: review.AnalysisDefer, Model: modelMode, DeferOrientation: true}
	ss.srv.currentSettings().request(&req)
	if !full {
		req.Paths = paths
	}
	if req.Staged {
		// A staged review reads the index: buffers are not part of it.
		req.Overlay = nil
	}
	var progress *progressReporter
	if withProgress {
		progress = ss.srv.beginProgress(ctx, "reviewls", "Reviewing changes")
	}
	start := time.Now()
	res, err := ss.review(ctx, req)
	if progress != nil {
		msg := "done"
		if res != nil {
			msg = fmt.Sprintf("%d findings", len(res.Findings))
		}
		progress.end(msg)
	}
	if err != nil {
		if ctx.Err() == nil {
			ss.logger.Warn("review failed", "err", err)
			ss.srv.showMessageOnce(fmt.Sprintf("reviewls: review of %s failed: %v", ss.root, err))
			ss.setFailure(err)
			ss.pub.announceFailure(err)
		}
		return
	}
	if res.Withheld != "" {
		// What an untrusted repository's .reviewls.yaml did not get, once.
		ss.srv.showOnce(protocol.MessageTypeWarning, "reviewls: "+res.Withheld)
	}

	ss.modMu.Lock()
	if id != ss.modID || ss.closed {
		ss.modMu.Unlock()
		return // stale: the newer generation will publish
	}
	// Everything that changed up to this generation is now reviewed.
	for p, at := range ss.pending {
		if at <= id {
			delete(ss.pending, p)
		}
	}
	if !light && ss.full <= id {
		ss.full = 0
		ss.showProgress = false
	}
	ss.mustPub = map[string]bool{}
	ss.modMu.Unlock()
	ss.setFailure(nil)

	// The diagnostics first, under the new result's redactor; then the
	// orientation the loop, the code lenses and the artifacts read, and
	// the result is adopted. Readers of the result wait in between.
	ss.beginOrientation()
	ss.srv.setRedactor(ss, res.Redactor)
	ss.pub.publish(res, versions, mustPub)
	ss.logger.Debug("review done", "mod_id", id, "full", full, "files", len(res.ChangeSet.Files), "findings", len(res.Findings), "elapsed", time.Since(start))
	if cut := artifacts.CutSummary(res.Cut); cut != ss.cutLogged {
		// Once per change of what was cut, not on every save.
		ss.cutLogged = cut
		if cut != "" {
			ss.logger.Warn(cut)
		}
	}
	ss.engMu.Lock()
	eng := ss.eng
	ss.engMu.Unlock()
	// Orienting waits a moment: a message that follows the diagnostics
	// at once (the next save of a burst) cancels it before it starts.
	// A burst is then oriented once, at its end, and never keeps the next
	// message waiting: on two cores a running orientation held back the
	// reading of the next save until it ended (bench/lspbench).
	wait := time.NewTimer(orientDelay)
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-ctx.Done():
		ss.logger.Debug("orientation not started", "mod_id", id, "err", ctx.Err())
		return
	}
	if err := eng.Orient(ctx, res); err != nil {
		ss.logger.Debug("orientation not completed", "mod_id", id, "err", err)
		return // stale or cancelled: the newer generation adopts its own
	}
	ss.adopt(res, versions)
	ss.pub.announce(res)
	ss.artifacts.settled(res)
	ss.analyzeLater(res, versions, id)
	ss.modelLater(res, versions, id)
}

// orientDelay is how long a published result waits before its
// orientation starts; readers of the result wait that much longer.
const orientDelay = 5 * time.Millisecond

// resumeFull schedules the full review a light run of generation id went
// before, unless a newer generation took over.
func (ss *session) resumeFull(id uint64) {
	ss.modMu.Lock()
	defer ss.modMu.Unlock()
	if id == ss.modID && !ss.closed && ss.full > 0 {
		ss.scheduleAfterLocked(max(resumeDelay, ss.srv.quiet()))
	}
}

// review runs the engine: an incremental run on the session's engine, a
// full one on a new engine, which re-reads .reviewls.yaml and takes the
// old one's place when the run completes. A full run whose context is
// cancelled is left to finish in the background, its engine discarded:
// the changes that cancelled it are reviewed at once on the old engine,
// whose last run lets their paths be refreshed alone, and never wait for
// a slow stage (type-aware analysis, say) to notice the cancellation.
func (ss *session) review(ctx context.Context, req review.Request) (*review.Result, error) {
	ss.engMu.Lock()
	if req.Baseline == nil {
		req.Baseline = ss.baselineLocked()
	}
	if req.Paths != nil {
		defer ss.engMu.Unlock()
		if ss.onRequest != nil {
			ss.onRequest(ctx, req)
		}
		return ss.eng.Run(ctx, req)
	}
	ss.engMu.Unlock()
	type outcome struct {
		eng *engine.Engine
		res *review.Result
		err error
	}
	done := make(chan outcome, 1)
	ss.wg.Go(func() {
		select {
		case ss.fullSema <- struct{}{}:
		case <-ctx.Done():
			done <- outcome{err: ctx.Err()}
			return
		}
		defer func() { <-ss.fullSema }()
		if ss.onRequest != nil {
			ss.onRequest(ctx, req)
		}
		// The folder, not the root, is where the repository was found
		// from: with core.worktree or $GIT_DIR the root holds no ".git".
		eng, err := engine.Open(ss.folder, ss.srv.engineOptions(ss.models))
		if err != nil {
			var ce *engine.ConfigError
			if errors.As(err, &ce) {
				ss.srv.showMessageOnce("reviewls: " + err.Error())
			}
			done <- outcome{err: err}
			return
		}
		res, err := eng.Run(ctx, req)
		if ctx.Err() != nil {
			eng.Close()
			done <- outcome{err: ctx.Err()}
			return
		}
		done <- outcome{eng, res, err}
	})
	var o outcome
	select {
	case o = <-done:
	case <-ctx.Done():
		ss.wg.Go(func() {
			if o := <-done; o.eng != nil {
				o.eng.Close()
			}
		})
		return nil, ctx.Err()
	}
	if o.eng == nil {
		return nil, o.err
	}
	if ctx.Err() != nil {
		// Stale: a newer generation reviews on the old engine.
		o.eng.Close()
		return nil, ctx.Err()
	}
	ss.engMu.Lock()
	ss.eng.Close()
	ss.eng = o.eng
	ss.engMu.Unlock()
	return o.res, o.err
}

// loopSnapshot returns a copy of the loop state for a run to start from:
// its board ids and the human's choices of perspectives and depth.
func (ss *session) loopSnapshot() *review.Loop {
	ss.resultMu.Lock()
	defer ss.resultMu.Unlock()
	if ss.loop == nil {
		return nil
	}
	c := *ss.loop
	c.Board = append([]review.BoardItem(nil), ss.loop.Board...)
	c.NextActions = append([]review.NextAction(nil), ss.loop.NextActions...)
	return &c
}

// adopt makes res the session's current result. The live loop state is
// synced onto it again: commands may have changed the loop while the run
// worked from its snapshot.
func (ss *session) adopt(res *review.Result, versions map[string]int32) {
	ss.resultMu.Lock()
	defer ss.resultMu.Unlock()
	if ss.loop != nil {
		res.Loop = engine.SyncLoop(res, ss.loop)
	}
	ss.loop = res.Loop
	ss.result, ss.versions = res, versions
	ss.srv.setRedactor(ss, res.Redactor)
}

// Orientation window: between a run's publication of its diagnostics and
// the adoption of its oriented result, the readers of the current result
// (requests, loop commands) wait, so they never see the diagnostics of one
// run with the result of the one before (a code action for a diagnostic
// just published, say).

// beginOrientation opens the window.
func (ss *session) beginOrientation() {
	ss.resultMu.Lock()
	defer ss.resultMu.Unlock()
	if ss.orienting == nil {
		ss.orienting = make(chan struct{})
	}
}

// settle ends run id of the session: when no newer generation is
// scheduled, the window closes, whether the result was adopted or not.
// Otherwise it stays open for the newer run to close: readers then wait
// for the newest result rather than read one a cancelled orientation
// never adopted.
func (ss *session) settle(id uint64) {
	ss.modMu.Lock()
	newest := id == ss.modID || ss.closed
	ss.modMu.Unlock()
	if newest {
		ss.endOrientation()
	}
}

// endOrientation closes the window.
func (ss *session) endOrientation() {
	ss.resultMu.Lock()
	defer ss.resultMu.Unlock()
	if ss.orienting != nil {
		close(ss.orienting)
		ss.orienting = nil
	}
}

// maxOrientationWait bounds a reader's wait: orienting a result takes
// milliseconds, and a reader must never hang on a stuck run.
const maxOrientationWait = 5 * time.Second

// lockResult waits for the window to close and locks resultMu.
func (ss *session) lockResult() {
	ss.resultMu.Lock()
	for ss.orienting != nil {
		ch := ss.orienting
		ss.resultMu.Unlock()
		select {
		case <-ch:
		case <-time.After(maxOrientationWait):
			ss.resultMu.Lock()
			return
		}
		ss.resultMu.Lock()
	}
}

// withLoop runs a change of the loop state on the current result, syncs
// the result with it, and schedules the artifacts to be written now. It
// fails without a result.
func (ss *session) withLoop(fn func(l *review.Loop, res *review.Result) error) error {
	ss.lockResult()
	res := ss.result
	if res == nil || ss.loop == nil || res.ChangeSet.Empty() {
		ss.resultMu.Unlock()
		return invalidParams("nothing to review yet: the work tree has no changes")
	}
	if err := fn(ss.loop, res); err != nil {
		ss.resultMu.Unlock()
		return err
	}
	res.Loop = engine.SyncLoop(res, ss.loop)
	ss.loop = res.Loop
	ss.resultMu.Unlock()
	ss.pub.announce(res)
	ss.artifacts.settled(res)
	ss.artifacts.flush()
	return nil
}

// reloadLoop adopts the loop state another process (the CLI's loop
// commands) wrote for the current branch, so bookmarks, explanations and
// investigations made there show on the server's board.
func (ss *session) reloadLoop() {
	ss.lockResult()
	res := ss.result
	if res == nil || res.ChangeSet.Empty() {
		ss.resultMu.Unlock()
		return
	}
	l, err := artifacts.LoadLoop(ss.root, res.ChangeSet.Target)
	if err != nil || l == nil {
		ss.resultMu.Unlock()
		return
	}
	res.Loop = engine.SyncLoop(res, l)
	ss.loop = res.Loop
	ss.resultMu.Unlock()
	ss.pub.announce(res)
}

// current returns the last published result and the document versions it
// saw.
func (ss *session) current() (*review.Result, map[string]int32) {
	ss.lockResult()
	defer ss.resultMu.Unlock()
	return ss.result, ss.versions
}

// reviewedFile returns the current result, its document versions and the
// changed file rel when the current review reviewed it; nils otherwise.
func (ss *session) reviewedFile(rel string) (*review.Result, map[string]int32, *review.File) {
	res, versions := ss.current()
	if res == nil {
		return nil, nil, nil
	}
	file := res.ChangeSet.File(rel)
	if file == nil || !file.Reviewed() {
		return nil, nil, nil
	}
	return res, versions, file
}

// reviewNow runs a full review synchronously (commands).
func (ss *session) reviewNow(ctx context.Context) (*review.Result, error) {
	// Readers, this one included, wait for the result of the newest run,
	// even when an edit makes this run stale.
	ss.beginOrientation()
	ss.didModify(fromUser)
	// Wait for the scheduled generation instead of racing it: run it here.
	ss.modMu.Lock()
	id := ss.modID
	ss.stopTimerLocked()
	ss.modMu.Unlock()
	ss.run(ctx, id)
	if err := ctx.Err(); err != nil {
		return nil, err // $/cancelRequest: the caller gets RequestCancelled
	}
	ss.lockResult()
	res, failure := ss.result, ss.failure
	ss.resultMu.Unlock()
	if failure != nil {
		// Never the last success: the review asked for did not happen.
		return nil, fmt.Errorf("review of %s failed: %w", ss.root, failure)
	}
	if res == nil {
		return nil, errors.New("no review result")
	}
	return res, nil
}

// setFailure records why the newest review failed, or with nil that it
// succeeded.
func (ss *session) setFailure(err error) {
	ss.resultMu.Lock()
	defer ss.resultMu.Unlock()
	ss.failure = err
}

// absPath returns the absolute path of a repo-relative path.
func (ss *session) absPath(rel string) string {
	return filepath.Join(ss.root, filepath.FromSlash(rel))
}

// artifactFolder is where the session's branch review lives.
func (ss *session) artifactFolder(t review.Target) string {
	return artifacts.Folder(ss.root, t)
}
