package lsp

import (
	"bytes"
	"path/filepath"
	"sync"
	"time"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// artifactWriter writes a session's artifact folder once its review has
// settled (rate-limited, so typing never rewrites files per keystroke) and
// notices folders written by someone else, such as the CLI.
type artifactWriter struct {
	ss *session

	mu       sync.Mutex // guards the fields below
	timer    *time.Timer
	latest   *review.Result
	written  []byte // metadata.json as this server last wrote it
	external *artifacts.Dir
	stopped  bool
	writes   int // folders written, for tests and logs
}

func newArtifactWriter(ss *session) *artifactWriter { return &artifactWriter{ss: ss} }

// settled records the newest result and (re)arms the write timer.
func (w *artifactWriter) settled(res *review.Result) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped || res.ChangeSet.Empty() {
		w.latest = nil
		return
	}
	w.latest = res
	if w.timer != nil && w.timer.Stop() {
		w.ss.wg.Done()
	}
	w.ss.wg.Add(1)
	w.timer = time.AfterFunc(w.ss.srv.opts.ArtifactDelay, func() {
		defer w.ss.wg.Done()
		w.write()
	})
}

// write persists the latest result.
func (w *artifactWriter) write() {
	w.mu.Lock()
	defer w.mu.Unlock()
	res := w.latest
	if w.stopped || res == nil {
		return
	}
	// The loop commands change the result's board and loop state under
	// resultMu: the folder is rendered under it too.
	w.ss.resultMu.Lock()
	written, err := artifacts.Write(w.ss.root, res, artifacts.Options{Tool: "reviewls", Version: w.ss.srv.opts.Version, Rules: engine.Rules(),
		CommitReviews: w.ss.eng.Config().CommitsReviews()})
	w.ss.resultMu.Unlock()
	if err != nil {
		w.ss.logger.Warn("write artifacts", "err", err)
		return
	}
	w.written, _ = regular.ReadFile(filepath.Join(written.Dir, artifacts.FileMetadata))
	w.writes++
	w.ss.logger.Debug("artifacts written", "dir", written.Dir, "writes", w.writes)
}

// changedOnDisk is told that a file of the artifact folder changed. A
// metadata.json that is not the one this server wrote is someone else's
// review (the CLI, say): it is read and kept as the latest known folder.
// Only the folder of the session's branch counts, resolved as the writers
// resolve it (branches whose names map to one folder name get their own).
func (w *artifactWriter) changedOnDisk(path string) {
	if filepath.Base(path) != artifacts.FileMetadata {
		return
	}
	if res, _ := w.ss.current(); res != nil && !res.ChangeSet.Empty() && filepath.Dir(path) != w.ss.artifactFolder(res.ChangeSet.Target) {
		return
	}
	data, err := regular.ReadFile(path)
	if err != nil {
		return
	}
	w.mu.Lock()
	own := bytes.Equal(data, w.written)
	w.mu.Unlock()
	if own {
		return
	}
	dir, err := artifacts.Read(filepath.Dir(path))
	if err != nil {
		w.ss.logger.Warn("read artifact folder written by another process", "dir", filepath.Dir(path), "err", err)
		return
	}
	w.mu.Lock()
	w.external = dir
	w.mu.Unlock()
	w.ss.logger.Info("picked up a review written by another process", "dir", dir.Path, "verdict", dir.Metadata.Verdict, "reviewed_at", dir.Metadata.ReviewedAt)
	if dir.Metadata.Artifacts != nil {
		// An interactive review (the CLI's loop commands): its loop state
		// is the human's. A workflow run's batch sweep is not adopted.
		w.ss.reloadLoop()
	}
}

// lastExternal returns the last review folder written by someone else.
func (w *artifactWriter) lastExternal() *artifacts.Dir {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.external
}

// flush writes a pending result now (shutdown, tests).
func (w *artifactWriter) flush() {
	w.mu.Lock()
	pending := w.timer != nil && w.timer.Stop()
	if pending {
		w.ss.wg.Done()
	}
	w.mu.Unlock()
	if pending {
		w.write()
	}
}

// stop cancels a pending write.
func (w *artifactWriter) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.timer != nil && w.timer.Stop() {
		w.ss.wg.Done()
	}
}
