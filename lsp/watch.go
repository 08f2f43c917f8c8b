package lsp

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/reviewls/reviewls/artifacts"
)

// defaultQuiet is the watcher's quiet window. Writers touch files in
// bursts: an editor's atomic save is a create, a write and a rename within
// a millisecond or two, and git rewrites the work tree, the index and a ref
// within tens of milliseconds. 200ms lets such a burst settle into one
// batch while an external change still shows up faster than a user
// notices; the diagnostics scheduler adds its own delay on top.
const defaultQuiet = 200 * time.Millisecond

// defaultMaxWait bounds how long a batch may be held back while events keep
// coming (a build writing into the work tree, a long rebase). It is long
// enough for one git command to land in one batch, yet short enough that
// reviews keep up during continuous churn instead of waiting for it to end.
const defaultMaxWait = 2 * time.Second

// watcherOptions configures a [watcher].
type watcherOptions struct {
	// Root, GitDir and CommonDir come from engine.Repo; in a linked
	// worktree GitDir (HEAD, index) differs from CommonDir (refs).
	Root, GitDir, CommonDir string
	// Ignored reports whether a repo-relative slash path is ignored
	// (engine.Matcher.Ignored); nil ignores nothing but .git.
	Ignored func(rel string, isDir bool) bool
	// Quiet is the quiet window; 0 means defaultQuiet.
	Quiet time.Duration
	// MaxWait is the longest a batch is held under continuous churn,
	// counted from its first event; 0 means defaultMaxWait.
	MaxWait time.Duration
	// Logger receives warnings; nil discards them. The caller names the
	// component (logger.With("component", "lsp.watch")).
	Logger *slog.Logger
	// OnBatch receives each non-empty, deduplicated batch, from one
	// goroutine, never concurrently. It should return quickly: later
	// batches wait for it.
	OnBatch func([]fileEvent)
	// OnLimit is called at most once, from the watcher's goroutine, when
	// the OS watch limit is hit. Watching continues with what was added.
	OnLimit func(error)

	// addWatch, when set, wraps the call that adds one watch (fsnotify's
	// Add). Tests use it to simulate the OS watch limit.
	addWatch func(add func(dir string) error, dir string) error
}

// watcher watches a repository with fsnotify and reports batches of
// [fileEvent]s: files of the work tree that are not ignored, the git files
// that move the review base, and the review artifact folder.
//
// Goroutines: receive drains fsnotify's channels into an unbounded queue
// and does nothing else, so fsnotify is never blocked (on Windows, Add
// waits for its reader, fsnotify#502); process handles the queue in order,
// adding watches for new directories; the debouncer's goroutine calls
// OnBatch. Close stops them all. The methods are safe for concurrent use.
type watcher struct {
	root, gitDir, commonDir string
	refs                    string // CommonDir/refs
	ignoredFn               func(rel string, isDir bool) bool
	onLimit                 func(error)
	logger                  *slog.Logger
	fsw                     *fsnotify.Watcher
	add                     func(dir string) error
	deb                     *debouncer

	stop      chan struct{} // closed by Close: stops process and walks
	closeOnce sync.Once
	closeErr  error
	recvWG    sync.WaitGroup // receive
	procWG    sync.WaitGroup // process

	limited atomic.Bool

	// queueMu guards queue, the work for process; kick signals it.
	queueMu sync.Mutex
	queue   []job
	kick    chan struct{}

	// watchedMu guards watched, the directories being watched.
	watchedMu sync.Mutex
	watched   map[string]bool
}

// job is one item of the process queue: an fsnotify event, or the watch
// limit error to report through OnLimit.
type job struct {
	ev    fsnotify.Event
	limit error
}

// errLimited is returned for a watch not attempted after the limit was hit.
var errLimited = errors.New("watch limit reached")

// newWatcher starts watching and returns once the initial watches are
// added: first the git directories, then the work tree. Hitting the watch
// limit is not an error (see Limited).
func newWatcher(opts watcherOptions) (*watcher, error) {
	var dirs [3]string
	for i, d := range []string{opts.Root, opts.GitDir, opts.CommonDir} {
		if d == "" {
			return nil, errors.New("start file watcher: Root, GitDir and CommonDir are required")
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("start file watcher: %w", err)
		}
		dirs[i] = abs
	}
	if opts.Quiet <= 0 {
		opts.Quiet = defaultQuiet
	}
	if opts.MaxWait <= 0 {
		opts.MaxWait = defaultMaxWait
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.OnBatch == nil {
		opts.OnBatch = func([]fileEvent) {}
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("start file watcher: %w", err)
	}
	w := &watcher{
		root:      dirs[0],
		gitDir:    dirs[1],
		commonDir: dirs[2],
		ignoredFn: opts.Ignored,
		onLimit:   opts.OnLimit,
		logger:    opts.Logger,
		fsw:       fsw,
		add:       fsw.Add,
		deb:       newDebouncer(opts.Quiet, opts.MaxWait, opts.OnBatch),
		stop:      make(chan struct{}),
		kick:      make(chan struct{}, 1),
		watched:   map[string]bool{},
	}
	w.refs = filepath.Join(w.commonDir, "refs")
	if opts.addWatch != nil {
		w.add = func(dir string) error { return opts.addWatch(fsw.Add, dir) }
	}
	w.recvWG.Go(w.receive)

	start := time.Now()
	if err := w.watchInitial(); err != nil {
		w.Close()
		return nil, fmt.Errorf("start file watcher: %w", err)
	}
	w.procWG.Go(w.process)
	w.logger.Info("watching", "dirs", w.Watched(), "limited", w.Limited(), "elapsed", time.Since(start))
	return w, nil
}

// watchInitial adds the initial watches. The few git directories go first,
// so that they are watched even when the limit cuts the work tree short.
func (w *watcher) watchInitial() error {
	dirs := []string{w.gitDir}
	if w.commonDir != w.gitDir {
		dirs = append(dirs, w.commonDir)
	}
	for _, d := range dirs {
		if _, err := w.watchDir(d); err != nil && !w.Limited() {
			return fmt.Errorf("watch %s: %w", d, err)
		}
	}
	// A missing refs directory is no error: packed-refs may hold every ref.
	if err := w.walk(w.refs, false); err != nil && !errors.Is(err, fs.ErrNotExist) && !w.Limited() {
		return fmt.Errorf("watch %s: %w", w.refs, err)
	}
	if err := w.walk(w.root, false); err != nil && !w.Limited() {
		return fmt.Errorf("watch %s: %w", w.root, err)
	}
	return nil
}

// Add reports events from the client, with absolute paths. They join the
// current batch and are deduplicated with the watcher's own; paths the
// watcher would not report (ignored files, git internals) are dropped.
func (w *watcher) Add(events ...fileEvent) {
	batch := make([]fileEvent, 0, len(events))
	for _, e := range events {
		ev, ok := w.classify(filepath.Clean(e.Path), e.Kind, false)
		if !ok {
			continue
		}
		ev.Git = ev.Git || e.Git
		ev.Artifact = ev.Artifact || e.Artifact
		batch = append(batch, ev)
	}
	w.deb.push(batch...)
}

// Close stops watching and waits for every goroutine; the pending batch is
// dropped. It is idempotent, and must not be called from OnBatch or
// OnLimit.
func (w *watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.stop)
		// No Add may be running when fsnotify closes (fsnotify#704).
		w.procWG.Wait()
		w.closeErr = w.fsw.Close()
		// receive returns when fsnotify has closed its channels.
		w.recvWG.Wait()
		w.deb.close()
	})
	return w.closeErr
}

// Limited reports whether the OS watch limit was hit: some directories are
// not watched, and the server should poll.
func (w *watcher) Limited() bool { return w.limited.Load() }

// Watched returns the number of directories being watched.
func (w *watcher) Watched() int {
	w.watchedMu.Lock()
	defer w.watchedMu.Unlock()
	return len(w.watched)
}

// receive drains fsnotify's channels until fsnotify closes them.
func (w *watcher) receive() {
	events, errs := w.fsw.Events, w.fsw.Errors
	for events != nil || errs != nil {
		select {
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			w.enqueue(job{ev: ev})
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			if isWatchLimit(err) {
				w.hitLimit(err)
			} else {
				w.logger.Warn("file watcher error", "err", err)
			}
		}
	}
}

func (w *watcher) enqueue(j job) {
	w.queueMu.Lock()
	w.queue = append(w.queue, j)
	w.queueMu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default: // a kick is already pending
	}
}

// process handles the queue in arrival order, which keeps the synthetic
// events of a new directory's listing ahead of later real events.
func (w *watcher) process() {
	for {
		select {
		case <-w.stop:
			return
		case <-w.kick:
		}
		w.queueMu.Lock()
		jobs := w.queue
		w.queue = nil
		w.queueMu.Unlock()
		for _, j := range jobs {
			if w.stopped() {
				return
			}
			if j.limit != nil {
				if w.onLimit != nil {
					w.onLimit(j.limit)
				}
				continue
			}
			w.handle(j.ev)
		}
	}
}

func (w *watcher) stopped() bool {
	select {
	case <-w.stop:
		return true
	default:
		return false
	}
}

// handle turns one fsnotify event into file events and watch changes.
func (w *watcher) handle(ev fsnotify.Event) {
	p := filepath.Clean(ev.Name)
	var kind eventKind
	isDir := false
	switch {
	case ev.Has(fsnotify.Create):
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			// Watch the new directory, then report the files already in
			// it: they may have been created before the watch existed
			// (mkdir -p a/b && touch a/b/c).
			if w.role(p) != roleNone {
				w.walk(p, true)
			}
			return
		}
		kind = eventCreated
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		// A rename reports the old name; the new one, if watched, comes
		// as a Create. A directory is reported as itself, as editors do,
		// without its files.
		isDir = w.forget(p)
		kind = eventDeleted
	case ev.Has(fsnotify.Write):
		kind = eventChanged
	default:
		return // Chmod: the content is the same
	}
	if e, ok := w.classify(p, kind, isDir); ok {
		w.deb.push(e)
	}
}

// dirRole says why a directory is watched.
type dirRole int

const (
	roleNone      dirRole = iota // not watched
	roleTree                     // a work tree directory
	roleTracking                 // .copilot-tracking and reviews/: only to see code-reviews/ appear
	roleArtifacts                // code-reviews/ and below
	roleRefs                     // CommonDir/refs and below
)

// role returns the role of directory p. GitDir and CommonDir are watched
// but not walked, so they have none.
func (w *watcher) role(p string) dirRole {
	if within(p, w.refs) {
		return roleRefs
	}
	if within(p, w.gitDir) || within(p, w.commonDir) {
		return roleNone
	}
	rel, ok := w.rel(p)
	switch {
	case !ok:
		return roleNone
	case rel == ".":
		return roleTree
	case withinSlash(rel, artifacts.ReviewsDir):
		return roleArtifacts
	case strings.HasPrefix(artifacts.ReviewsDir, rel+"/"):
		return roleTracking
	case withinSlash(rel, artifacts.TrackingDir), w.ignored(rel, true):
		return roleNone
	}
	return roleTree
}

// classify returns the event for a change of kind to path p (a directory
// if isDir), and whether it is reported: git internals other than HEAD,
// index, packed-refs and refs are not, nor ignored work tree paths, nor
// .copilot-tracking outside the review folders.
func (w *watcher) classify(p string, kind eventKind, isDir bool) (fileEvent, bool) {
	ev := fileEvent{Path: p, Kind: kind}
	if within(p, w.refs) {
		// Git writes refs/heads/x.lock and renames it to refs/heads/x.
		ev.Git = !strings.HasSuffix(p, ".lock")
		return ev, ev.Git
	}
	dir, base := filepath.Dir(p), filepath.Base(p)
	if dir == w.gitDir && (base == "HEAD" || base == "index") ||
		dir == w.commonDir && base == "packed-refs" {
		ev.Git = true
		return ev, true
	}
	if within(p, w.gitDir) || within(p, w.commonDir) {
		return ev, false
	}
	rel, ok := w.rel(p)
	switch {
	case !ok:
		return ev, true // outside the repository: only from the client
	case withinSlash(rel, artifacts.ReviewsDir):
		// Hidden names are the temporary files of an atomic write.
		ev.Artifact = true
		return ev, !strings.HasPrefix(path.Base(rel), ".")
	case withinSlash(rel, artifacts.TrackingDir):
		return ev, false
	}
	return ev, !w.ignored(rel, isDir)
}

// ignored reports whether the repo-relative slash path is ignored; .git is
// always.
func (w *watcher) ignored(rel string, isDir bool) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if part == ".git" {
			return true
		}
	}
	return w.ignoredFn != nil && w.ignoredFn(rel, isDir)
}

// rel returns p relative to the root, with slashes, if p is inside it.
func (w *watcher) rel(p string) (string, bool) {
	if !within(p, w.root) {
		return "", false
	}
	r, err := filepath.Rel(w.root, p)
	if err != nil {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// walk watches dir and the directories below it that have a role. When
// synth is set it reports the files of newly watched directories as
// created, since they may predate the watch. It returns the error of
// watching dir itself; failures below it are logged.
func (w *watcher) walk(dir string, synth bool) error {
	fresh := map[string]bool{}
	var created []fileEvent
	var dirErr error
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if w.stopped() {
			return filepath.SkipAll
		}
		if err != nil {
			if p == dir {
				dirErr = err
			} else {
				w.logger.Debug("list directory", "path", p, "err", err)
			}
			return nil
		}
		if !d.IsDir() {
			if synth && fresh[filepath.Dir(p)] {
				if ev, ok := w.classify(p, eventCreated, false); ok {
					created = append(created, ev)
				}
			}
			return nil
		}
		if w.role(p) == roleNone {
			return filepath.SkipDir
		}
		added, err := w.watchDir(p)
		if err != nil {
			if p == dir {
				dirErr = err
			}
			return filepath.SkipDir
		}
		fresh[p] = added
		return nil
	})
	w.deb.push(created...)
	return dirErr
}

// watchDir adds a watch for dir unless it has one, and reports whether it
// did. After the watch limit was hit it does not try.
func (w *watcher) watchDir(dir string) (bool, error) {
	w.watchedMu.Lock()
	has := w.watched[dir]
	w.watchedMu.Unlock()
	if has {
		return false, nil
	}
	if w.Limited() {
		return false, errLimited
	}
	if err := w.add(dir); err != nil {
		switch {
		case isWatchLimit(err):
			w.hitLimit(err)
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
			w.logger.Debug("watch vanished directory", "path", dir, "err", err)
		default:
			w.logger.Warn("watch directory", "path", dir, "err", err)
		}
		return false, err
	}
	w.watchedMu.Lock()
	w.watched[dir] = true
	w.watchedMu.Unlock()
	return true, nil
}

// forget drops the watches of dir and every directory below it, and
// reports whether dir was watched.
func (w *watcher) forget(dir string) bool {
	w.watchedMu.Lock()
	if !w.watched[dir] {
		w.watchedMu.Unlock()
		return false
	}
	var gone []string
	for d := range w.watched {
		if within(d, dir) {
			gone = append(gone, d)
			delete(w.watched, d)
		}
	}
	w.watchedMu.Unlock()
	for _, d := range gone {
		// A deleted directory's watch is already gone; a moved one's
		// would report under the old name.
		_ = w.fsw.Remove(d)
	}
	return true
}

// hitLimit records that the watch limit was hit and, the first time,
// queues err for OnLimit.
func (w *watcher) hitLimit(err error) {
	if w.limited.CompareAndSwap(false, true) {
		w.logger.Warn("file watch limit reached; some directories are not watched", "dirs", w.Watched(), "err", err)
		w.enqueue(job{limit: err})
	}
}

// isWatchLimit reports whether err means the OS ran out of watches: inotify
// returns ENOSPC at max_user_watches; kqueue, which holds a descriptor per
// watched file, runs out of descriptors.
func isWatchLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) ||
		strings.Contains(err.Error(), "too many open files")
}

// within reports whether the clean path p is dir or inside it.
func within(p, dir string) bool {
	if !strings.HasPrefix(p, dir) {
		return false
	}
	return len(p) == len(dir) || p[len(dir)] == filepath.Separator ||
		strings.HasSuffix(dir, string(filepath.Separator)) // a volume root
}

// withinSlash is within for slash-separated relative paths.
func withinSlash(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}
