package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/review/engine"
)

// startWatcher watches the session's work tree and git state. When the
// watcher cannot be started or hits the OS watch limit, the session falls
// back to rescanning every PollInterval.
func (ss *session) startWatcher() {
	repo := ss.eng.Repo()
	var matcher atomic.Pointer[engine.Matcher]
	m, err := repo.Matcher()
	if err != nil {
		ss.logger.Warn("read ignore rules", "err", err)
	} else {
		matcher.Store(m)
	}
	ss.matcher = &matcher
	w, err := newWatcher(watcherOptions{
		Root:      ss.root,
		GitDir:    repo.GitDir(),
		CommonDir: repo.CommonDir(),
		Ignored: func(rel string, isDir bool) bool {
			if m := matcher.Load(); m != nil {
				return m.Ignored(rel, isDir)
			}
			return false
		},
		Quiet:   ss.srv.quiet(),
		Logger:  ss.srv.opts.Logger.With("component", "lsp.watch", "root", ss.root),
		OnBatch: ss.onBatch,
		OnLimit: ss.onLimit,
	})
	if err != nil {
		ss.logger.Warn("file watcher unavailable; polling", "err", err)
		ss.onLimit(err)
		return
	}
	// The session may have been closed meanwhile (an exit during
	// initialized): then the watcher goes at once.
	ss.modMu.Lock()
	closed := ss.closed
	if !closed {
		ss.watcher = w
	}
	ss.modMu.Unlock()
	if closed {
		w.Close()
	}
}

// onLimit warns once and starts polling.
func (ss *session) onLimit(err error) {
	ss.modMu.Lock()
	if ss.pollStop != nil || ss.closed {
		ss.modMu.Unlock()
		return
	}
	ss.pollStop = make(chan struct{})
	stop := ss.pollStop
	ss.modMu.Unlock()
	ss.srv.showMessage(context.Background(), protocol.MessageTypeWarning,
		"reviewls: cannot watch every directory of "+ss.root+" ("+err.Error()+"); changes made outside the editor are picked up every "+
			ss.srv.opts.PollInterval.String()+" instead. Raise fs.inotify.max_user_watches to watch them all.")
	ss.wg.Go(func() {
		t := time.NewTicker(ss.srv.opts.PollInterval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				ss.didModify(fromPoll)
			}
		}
	})
}

// addEvents passes client events through the watcher's debouncer, so they
// are deduplicated with fsnotify's; without a watcher they go straight in.
func (ss *session) addEvents(evs []fileEvent) {
	ss.modMu.Lock()
	w := ss.watcher
	ss.modMu.Unlock()
	if w != nil {
		w.Add(evs...)
		return
	}
	ss.onBatch(evs)
}

// onBatch turns a batch of file events into modifications.
func (ss *session) onBatch(evs []fileEvent) {
	var mods []modification
	git := false
	for _, ev := range evs {
		switch {
		case ev.Git:
			git = true
		case ev.Artifact:
			ss.artifacts.changedOnDisk(ev.Path)
		default:
			rel, err := filepath.Rel(ss.root, ev.Path)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			rel = filepath.ToSlash(rel)
			if ss.savedAsIs(rel) {
				continue // the editor's didSave already covered this write
			}
			if filepath.Base(rel) == ".gitignore" && ss.matcher != nil {
				if m, err := ss.eng.Repo().Matcher(); err == nil {
					ss.matcher.Store(m)
				}
			}
			mods = append(mods, modification{path: rel, uri: pathURI(ev.Path)})
		}
	}
	switch {
	case git:
		ss.didModify(fromGit, mods...)
	case len(mods) > 0:
		ss.didModify(fromWatcher, mods...)
	}
}

// fileStamp identifies a version of a file on disk.
type fileStamp struct {
	size  int64
	mtime time.Time
}

func stampOf(path string) (fileStamp, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, false
	}
	return fileStamp{fi.Size(), fi.ModTime()}, true
}

// noteSaved records the file as the editor saved it, so the watcher's
// event for the same write does not review it a second time.
func (ss *session) noteSaved(rel string) {
	st, ok := stampOf(ss.absPath(rel))
	ss.modMu.Lock()
	defer ss.modMu.Unlock()
	if ok {
		ss.saved[rel] = st
	} else {
		delete(ss.saved, rel)
	}
}

// savedAsIs reports whether the file is still exactly as the editor saved
// it; it forgets the save either way, so the next event counts.
func (ss *session) savedAsIs(rel string) bool {
	ss.modMu.Lock()
	want, ok := ss.saved[rel]
	delete(ss.saved, rel)
	ss.modMu.Unlock()
	if !ok {
		return false
	}
	got, ok := stampOf(ss.absPath(rel))
	return ok && got == want
}
