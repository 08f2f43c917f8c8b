package lsp

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/reviewls/reviewls/review/gitdiff"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// These tests drive a real watcher on real repositories. They never sleep:
// they wait for a batch holding the expected event, up to a deadline
// derived from the test's context. To show that something is not
// reported, a test writes a sentinel file afterwards and waits for it: the
// watcher reports events in order, so an event for the earlier change
// would have come first.

// watchAwaitTimeout bounds each wait for an event.
const watchAwaitTimeout = 10 * time.Second

// watchEnv is a watcher on a repository and what it reported.
type watchEnv struct {
	t       *testing.T
	repo    *gitdiff.Repo
	w       *watcher
	batches chan []fileEvent
	limits  chan error
	seen    []fileEvent // every event received, in order
	n       int         // sentinels written
}

// newRepo creates a repository with files (slash path -> content)
// committed on main.
func newWatchRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	// gitdiff reads the user's git configuration (core.excludesFile).
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	root := t.TempDir()
	reviewtest.Git(t, root, "init", "-q")
	for p, content := range files {
		writeWatchFile(t, filepath.Join(root, filepath.FromSlash(p)), content)
	}
	reviewtest.Git(t, root, "add", "-A")
	reviewtest.Git(t, root, "commit", "-q", "--allow-empty", "-m", "base")
	return root
}

func writeWatchFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// startWatch starts a watcher on the repository containing dir, with a
// 10ms quiet window; edit adjusts the options.
func startWatch(t *testing.T, dir string, edit func(*watcherOptions)) *watchEnv {
	t.Helper()
	repo, err := gitdiff.Open(dir, gitdiff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	m, err := repo.Matcher()
	if err != nil {
		t.Fatal(err)
	}
	e := &watchEnv{
		t:    t,
		repo: repo,
		// Large enough that OnBatch never blocks in these tests.
		batches: make(chan []fileEvent, 1000),
		limits:  make(chan error, 10),
	}
	opts := watcherOptions{
		Root:      repo.Root(),
		GitDir:    repo.GitDir(),
		CommonDir: repo.CommonDir(),
		Ignored:   m.Ignored,
		Quiet:     10 * time.Millisecond,
		OnBatch:   func(b []fileEvent) { e.batches <- b },
		OnLimit:   func(err error) { e.limits <- err },
	}
	if edit != nil {
		edit(&opts)
	}
	e.w, err = newWatcher(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.w.Close(); err != nil {
			t.Error(err)
		}
	})
	return e
}

// path returns the absolute path of a repo-relative slash path.
func (e *watchEnv) path(rel string) string {
	return filepath.Join(e.repo.Root(), filepath.FromSlash(rel))
}

// await waits for an event matching pred and returns it with its batch.
func (e *watchEnv) await(desc string, pred func(fileEvent) bool) (fileEvent, []fileEvent) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.t.Context(), watchAwaitTimeout)
	defer cancel()
	for {
		select {
		case b := <-e.batches:
			e.seen = append(e.seen, b...)
			for _, ev := range b {
				if pred(ev) {
					return ev, b
				}
			}
		case <-ctx.Done():
			e.t.Fatalf("no event %s within %v; saw:\n%s", desc, watchAwaitTimeout, formatEvents(e.seen))
		}
	}
}

// awaitPath waits for an event of path p.
func (e *watchEnv) awaitPath(p string) (fileEvent, []fileEvent) {
	e.t.Helper()
	return e.await("for "+p, func(ev fileEvent) bool { return ev.Path == p })
}

// awaitAll waits until events of all paths have been seen, in this batch
// or earlier ones.
func (e *watchEnv) awaitAll(paths ...string) []fileEvent {
	e.t.Helper()
	found := make([]fileEvent, len(paths))
	for i, p := range paths {
		j := slices.IndexFunc(e.seen, func(ev fileEvent) bool { return ev.Path == p })
		if j >= 0 {
			found[i] = e.seen[j]
		} else {
			found[i], _ = e.awaitPath(p)
		}
	}
	return found
}

// sentinel writes a new file at the root and waits for its event, so that
// every event of earlier changes has been seen.
func (e *watchEnv) sentinel() {
	e.t.Helper()
	e.n++
	p := e.path(fmt.Sprintf("sentinel-%d.txt", e.n))
	writeWatchFile(e.t, p, "x")
	e.awaitPath(p)
}

// none fails if an event seen so far matches pred.
func (e *watchEnv) none(desc string, pred func(fileEvent) bool) {
	e.t.Helper()
	for _, ev := range e.seen {
		if pred(ev) {
			e.t.Errorf("unexpected event %s: %v; saw:\n%s", desc, ev, formatEvents(e.seen))
			return
		}
	}
}

// checkGitEvents checks that git internals other than HEAD, index,
// packed-refs and refs were not reported, and that those were marked Git.
func (e *watchEnv) checkGitEvents() {
	e.t.Helper()
	gitDir, commonDir := e.repo.GitDir(), e.repo.CommonDir()
	for _, ev := range e.seen {
		inGit := within(ev.Path, gitDir) || within(ev.Path, commonDir)
		rel, _ := filepath.Rel(commonDir, ev.Path)
		rel = filepath.ToSlash(rel)
		allowed := ev.Path == filepath.Join(gitDir, "HEAD") || ev.Path == filepath.Join(gitDir, "index") ||
			rel == "packed-refs" || strings.HasPrefix(rel, "refs/") && !strings.HasSuffix(rel, ".lock")
		if inGit != ev.Git || inGit && !allowed {
			e.t.Errorf("bad git event %v; saw:\n%s", ev, formatEvents(e.seen))
		}
	}
}

// count returns how many events of batch have path p.
func countPath(batch []fileEvent, p string) int {
	n := 0
	for _, ev := range batch {
		if ev.Path == p {
			n++
		}
	}
	return n
}

func formatEvents(evs []fileEvent) string {
	var b strings.Builder
	for _, ev := range evs {
		fmt.Fprintf(&b, "\t%s\n", formatEvent(ev))
	}
	return b.String()
}

func formatEvent(ev fileEvent) string {
	s := ev.Kind.String() + " " + ev.Path
	if ev.Git {
		s += " (git)"
	}
	if ev.Artifact {
		s += " (artifact)"
	}
	return s
}

// watchedDirs returns the watched directories, sorted.
func (w *watcher) watchedDirs() []string {
	w.watchedMu.Lock()
	defer w.watchedMu.Unlock()
	var dirs []string
	for d := range w.watched {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	return dirs
}

// gitWatches returns the number of git directories a watcher of repo
// watches: GitDir, CommonDir and the refs tree.
func gitWatches(t *testing.T, repo *gitdiff.Repo) int {
	t.Helper()
	n := 1
	if repo.CommonDir() != repo.GitDir() {
		n++
	}
	err := filepath.WalkDir(filepath.Join(repo.CommonDir(), "refs"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestWatchFileWrite(t *testing.T) {
	root := newWatchRepo(t, map[string]string{"a.go": "package a\n", "sub/b.go": "package sub\n"})
	e := startWatch(t, root, nil)
	p := e.path("sub/b.go")
	writeWatchFile(t, p, "package sub // changed\n")
	ev, batch := e.awaitPath(p)
	if want := (fileEvent{Path: p, Kind: eventChanged}); ev != want {
		t.Errorf("got %v, want %v", ev, want)
	}
	if n := countPath(batch, p); n != 1 {
		t.Errorf("%d events for %s in one batch, want 1:\n%s", n, p, formatEvents(batch))
	}
}

func TestWatchNewDirectory(t *testing.T) {
	root := newWatchRepo(t, map[string]string{"a.go": "package a\n"})
	e := startWatch(t, root, nil)
	before := e.w.Watched()

	// The file is likely created before the watch of a/b/c exists.
	p := e.path("a/b/c/new.go")
	writeWatchFile(t, p, "package c\n")
	if ev, _ := e.awaitPath(p); ev.Kind != eventCreated {
		t.Errorf("got %v, want a created event", ev)
	}
	if got, want := e.w.Watched(), before+3; got != want {
		t.Errorf("Watched() = %d after mkdir -p a/b/c, want %d", got, want)
	}
	// The new directory is watched.
	q := e.path("a/b/c/later.go")
	writeWatchFile(t, q, "package c\n")
	e.awaitPath(q)

	// A tree moved in: its files surely predate the watches.
	outside := t.TempDir()
	writeWatchFile(t, filepath.Join(outside, "x", "y", "z.go"), "package y\n")
	if err := os.Rename(filepath.Join(outside, "x"), e.path("a/x")); err != nil {
		t.Fatal(err)
	}
	if ev, _ := e.awaitPath(e.path("a/x/y/z.go")); ev.Kind != eventCreated {
		t.Errorf("got %v, want a created event", ev)
	}
	if got, want := e.w.Watched(), before+5; got != want {
		t.Errorf("Watched() = %d after moving in a/x/y, want %d", got, want)
	}

	// A removed directory is reported and forgotten.
	if err := os.RemoveAll(e.path("a")); err != nil {
		t.Fatal(err)
	}
	e.await("deleting a", func(ev fileEvent) bool { return ev.Path == e.path("a") && ev.Kind == eventDeleted })
	if got := e.w.Watched(); got != before {
		t.Errorf("Watched() = %d after rm -r a, want %d: %v", got, before, e.w.watchedDirs())
	}
}

func TestWatchIgnored(t *testing.T) {
	root := newWatchRepo(t, map[string]string{
		".gitignore":  "node_modules/\nbuild/\n*.log\n",
		"src/main.go": "package main\n",
	})
	for _, p := range []string{"node_modules/pkg/lib/index.js", "build/out/app"} {
		writeWatchFile(t, filepath.Join(root, p), "x")
	}
	e := startWatch(t, root, nil)
	want := gitWatches(t, e.repo) + 2 // the root and src
	if got := e.w.Watched(); got != want {
		t.Errorf("Watched() = %d, want %d: %v", got, want, e.w.watchedDirs())
	}
	for _, d := range []string{"node_modules", "node_modules/pkg", "build", "build/out"} {
		if slices.Contains(e.w.watchedDirs(), e.path(d)) {
			t.Errorf("ignored directory %s is watched", d)
		}
	}

	writeWatchFile(t, e.path("node_modules/pkg/lib/index.js"), "y")
	writeWatchFile(t, e.path("node_modules/new/deep/x.js"), "x")
	writeWatchFile(t, e.path("build/out/app2"), "x")
	writeWatchFile(t, e.path("src/debug.log"), "x")
	writeWatchFile(t, e.path("debug.log"), "x")
	e.sentinel()
	e.none("in an ignored path", func(ev fileEvent) bool {
		return strings.Contains(ev.Path, "node_modules") || strings.Contains(ev.Path, "build") ||
			strings.HasSuffix(ev.Path, ".log")
	})
	if got := e.w.Watched(); got != want {
		t.Errorf("Watched() = %d after writes in ignored directories, want %d: %v", got, want, e.w.watchedDirs())
	}
}

func TestWatchGit(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, root string) // before the watcher starts
		run   func(t *testing.T, root string) // while watching
		want  func(e *watchEnv) []string      // paths of Git events to wait for
	}{
		{
			name:  "add",
			setup: func(t *testing.T, root string) { writeWatchFile(t, filepath.Join(root, "new.go"), "package a\n") },
			run:   func(t *testing.T, root string) { reviewtest.Git(t, root, "add", "new.go") },
			want:  func(e *watchEnv) []string { return []string{filepath.Join(e.repo.GitDir(), "index")} },
		},
		{
			name: "commit",
			setup: func(t *testing.T, root string) {
				writeWatchFile(t, filepath.Join(root, "new.go"), "package a\n")
				reviewtest.Git(t, root, "add", "new.go")
			},
			run: func(t *testing.T, root string) { reviewtest.Git(t, root, "commit", "-q", "-m", "new") },
			want: func(e *watchEnv) []string {
				return []string{filepath.Join(e.repo.GitDir(), "index"), filepath.Join(e.repo.CommonDir(), "refs", "heads", "main")}
			},
		},
		{
			name: "checkout -b",
			run:  func(t *testing.T, root string) { reviewtest.Git(t, root, "checkout", "-q", "-b", "x") },
			want: func(e *watchEnv) []string {
				return []string{filepath.Join(e.repo.GitDir(), "HEAD"), filepath.Join(e.repo.CommonDir(), "refs", "heads", "x")}
			},
		},
		{
			name: "nested branch",
			run:  func(t *testing.T, root string) { reviewtest.Git(t, root, "branch", "feat/deep/x") },
			want: func(e *watchEnv) []string {
				return []string{filepath.Join(e.repo.CommonDir(), "refs", "heads", "feat", "deep", "x")}
			},
		},
		{
			name: "stash",
			setup: func(t *testing.T, root string) {
				writeWatchFile(t, filepath.Join(root, "a.go"), "package a // edited\n")
			},
			run: func(t *testing.T, root string) { reviewtest.Git(t, root, "stash", "-q") },
			want: func(e *watchEnv) []string {
				return []string{filepath.Join(e.repo.GitDir(), "index"), filepath.Join(e.repo.CommonDir(), "refs", "stash")}
			},
		},
		{
			name: "pack-refs",
			run:  func(t *testing.T, root string) { reviewtest.Git(t, root, "pack-refs", "--all") },
			want: func(e *watchEnv) []string { return []string{filepath.Join(e.repo.CommonDir(), "packed-refs")} },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newWatchRepo(t, map[string]string{"a.go": "package a\n"})
			if tt.setup != nil {
				tt.setup(t, root)
			}
			e := startWatch(t, root, nil)
			tt.run(t, root)
			for _, ev := range e.awaitAll(tt.want(e)...) {
				if !ev.Git {
					t.Errorf("event %v is not marked Git", ev)
				}
			}
			e.sentinel()
			e.checkGitEvents()
		})
	}
}

func TestWatchWorktree(t *testing.T) {
	root := newWatchRepo(t, map[string]string{"a.go": "package a\n"})
	mainEnv := startWatch(t, root, nil)
	wt := filepath.Join(t.TempDir(), "wt")
	reviewtest.Git(t, root, "worktree", "add", "-q", "-b", "feat", wt)
	// The new branch is a ref of the common git directory.
	mainEnv.awaitPath(filepath.Join(root, ".git", "refs", "heads", "feat"))

	e := startWatch(t, wt, nil)
	if e.repo.GitDir() == e.repo.CommonDir() {
		t.Fatalf("worktree GitDir = CommonDir = %s", e.repo.GitDir())
	}
	if got, want := e.w.Watched(), gitWatches(t, e.repo)+1; got != want {
		t.Errorf("Watched() = %d, want %d: %v", got, want, e.w.watchedDirs())
	}
	p := e.path("b.go")
	writeWatchFile(t, p, "package a\n")
	e.awaitPath(p)

	reviewtest.Git(t, wt, "add", "b.go")
	e.awaitPath(filepath.Join(e.repo.GitDir(), "index"))
	reviewtest.Git(t, wt, "commit", "-q", "-m", "b")
	e.awaitPath(filepath.Join(e.repo.CommonDir(), "refs", "heads", "feat"))
	reviewtest.Git(t, wt, "checkout", "-q", "-b", "feat2")
	e.awaitPath(filepath.Join(e.repo.GitDir(), "HEAD"))

	// The main work tree's HEAD and index are not the worktree's.
	reviewtest.Git(t, root, "checkout", "-q", "-b", "other")
	e.awaitPath(filepath.Join(e.repo.CommonDir(), "refs", "heads", "other"))
	e.sentinel()
	e.none("for the main work tree's HEAD", func(ev fileEvent) bool {
		return ev.Path == filepath.Join(e.repo.CommonDir(), "HEAD")
	})
	e.checkGitEvents()
}

func TestWatchArtifacts(t *testing.T) {
	root := newWatchRepo(t, map[string]string{"a.go": "package a\n"})
	e := startWatch(t, root, nil)

	// The folder is created after the watcher started.
	meta := e.path(".copilot-tracking/reviews/code-reviews/main/metadata.json")
	writeWatchFile(t, meta, "{}")
	if ev, _ := e.awaitPath(meta); !ev.Artifact || ev.Kind != eventCreated {
		t.Errorf("got %v, want a created artifact event", ev)
	}
	// An atomic write: only the final name is reported.
	tmp := e.path(".copilot-tracking/reviews/code-reviews/main/.review.md.tmp-123")
	review := e.path(".copilot-tracking/reviews/code-reviews/main/review.md")
	writeWatchFile(t, tmp, "# review")
	if err := os.Rename(tmp, review); err != nil {
		t.Fatal(err)
	}
	if ev, _ := e.awaitPath(review); !ev.Artifact {
		t.Errorf("got %v, want an artifact event", ev)
	}
	// The rest of .copilot-tracking is not watched.
	writeWatchFile(t, e.path(".copilot-tracking/pr/pr-reference.xml"), "<diff/>")
	e.sentinel()
	e.none("outside the review folders", func(ev fileEvent) bool {
		return strings.Contains(ev.Path, "pr-reference") || strings.Contains(ev.Path, ".tmp-")
	})
	e.w.Close()

	// The folder exists when the watcher starts.
	e = startWatch(t, root, nil)
	writeWatchFile(t, meta, `{"v": 2}`)
	if ev, _ := e.awaitPath(meta); !ev.Artifact || ev.Kind != eventChanged {
		t.Errorf("got %v, want a changed artifact event", ev)
	}
}

// TestWatchAdd checks that a save seen by fsnotify and reported by the
// client makes one event. It uses a longer quiet window, so that both
// surely land in one batch.
func TestWatchAdd(t *testing.T) {
	root := newWatchRepo(t, map[string]string{"a.go": "package a\n", ".gitignore": "build/\n"})
	e := startWatch(t, root, func(o *watcherOptions) { o.Quiet = 300 * time.Millisecond })
	p := e.path("a.go")
	writeWatchFile(t, p, "package a // saved\n")
	head := filepath.Join(e.repo.GitDir(), "HEAD")
	e.w.Add(
		fileEvent{Path: p, Kind: eventChanged},
		fileEvent{Path: e.path("build/x.o"), Kind: eventCreated}, // ignored
		fileEvent{Path: head, Kind: eventChanged},
	)
	_, batch := e.awaitPath(p)
	want := []fileEvent{{Path: p, Kind: eventChanged}, {Path: head, Kind: eventChanged, Git: true}}
	if !slices.Equal(batch, want) {
		t.Errorf("batch:\n%swant:\n%s", formatEvents(batch), formatEvents(want))
	}
}

// TestWatchLimit simulates the OS watch limit: the add function fails with
// ENOSPC once the git directories, the root and a are watched.
func TestWatchLimit(t *testing.T) {
	root := newWatchRepo(t, map[string]string{"a/x.go": "package a\n", "b/x.go": "package b\n", "c/x.go": "package c\n"})
	var limit int
	var adds, fails atomic.Int32
	e := startWatch(t, root, func(o *watcherOptions) {
		limit = gitWatchesAt(t, root) + 2
		o.addWatch = func(add func(string) error, dir string) error {
			if int(adds.Load()) >= limit {
				fails.Add(1)
				return fmt.Errorf("add watch %s: %w", dir, syscall.ENOSPC)
			}
			adds.Add(1)
			return add(dir)
		}
	})
	if !e.w.Limited() {
		t.Error("Limited() = false")
	}
	if got := e.w.Watched(); got != limit {
		t.Errorf("Watched() = %d, want %d: %v", got, limit, e.w.watchedDirs())
	}
	ctx, cancel := context.WithTimeout(t.Context(), watchAwaitTimeout)
	defer cancel()
	select {
	case err := <-e.limits:
		if !isWatchLimit(err) {
			t.Errorf("OnLimit(%v), want a watch limit error", err)
		}
	case <-ctx.Done():
		t.Fatal("OnLimit not called")
	}

	// New directories are not watched, and OnLimit is not called again.
	writeWatchFile(t, e.path("d/e/x.go"), "package e\n")
	// What was watched keeps reporting.
	p := e.path("a/x.go")
	writeWatchFile(t, p, "package a // changed\n")
	e.awaitPath(p)
	e.sentinel()
	if got := e.w.Watched(); got != limit {
		t.Errorf("Watched() = %d after mkdir, want %d: %v", got, limit, e.w.watchedDirs())
	}
	if n := fails.Load(); n != 1 {
		t.Errorf("%d failed adds, want 1 (no retries after the limit)", n)
	}
	select {
	case err := <-e.limits:
		t.Errorf("OnLimit called again: %v", err)
	default:
	}
}

// gitWatchesAt is gitWatches for the repository at root.
func gitWatchesAt(t *testing.T, root string) int {
	t.Helper()
	repo, err := gitdiff.Open(root, gitdiff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	return gitWatches(t, repo)
}

func TestWatchClose(t *testing.T) {
	root := newWatchRepo(t, map[string]string{"a.go": "package a\n"})
	e := startWatch(t, root, nil)
	if err := e.w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	e.w.Add(fileEvent{Path: e.path("a.go"), Kind: eventChanged}) // a no-op
}
