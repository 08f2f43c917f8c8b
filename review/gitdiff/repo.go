package gitdiff

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/review"
)

// Options configures a [Repo].
type Options struct {
	// SizeCap is the largest file reviewed, in bytes; larger files are
	// listed with a Skip reason. 0 means [review.DefaultSizeCap].
	SizeCap int64
	// Ignore lists doublestar globs of repo-relative paths left out of the
	// change set entirely (the ignore globs of the configuration).
	Ignore []string
	// IndexFile, when set, is the index to read instead of the repository's
	// own, absolute or relative to the current directory. It takes
	// precedence over Env.IndexFile.
	IndexFile string
	// Env is the git environment that selects the repository, the work
	// tree, the index and extra object directories; callers pass
	// [ProcessEnv] to behave as git run in the same environment. A
	// pre-commit hook sees $GIT_INDEX_FILE: `git commit -a` and
	// `git commit <paths>` stage into a temporary index.
	Env Env
	// Logger receives debug and warning records; nil discards them.
	Logger *slog.Logger
}

// Validate checks the options.
func (o *Options) Validate() error {
	if o.SizeCap < 0 {
		return fmt.Errorf("negative size cap %d", o.SizeCap)
	}
	for _, g := range o.Ignore {
		if !validGlob(g) {
			return fmt.Errorf("bad ignore glob %q", g)
		}
	}
	return nil
}

// Repo is an open git work tree. It is safe for concurrent use: object
// store access is serialized internally, and scans share only the cached
// state of the last scan, under a lock.
type Repo struct {
	root      string // absolute work tree root
	gitDir    string // per-worktree git directory: HEAD, index
	commonDir string // shared git directory: objects, refs, config
	indexPath string
	sizeCap   int64
	ignore    []string
	logger    *slog.Logger

	// objMu serializes access to repo: go-git's filesystem storage (pack
	// files and their caches) is not safe for concurrent use.
	objMu sync.Mutex
	repo  *git.Repository
	store *storage
	// hist and histTrees keep the commits (with the paths each touched)
	// and trees History read, bounded, for the next call (the language
	// server asks about each newly changed path); hist is also persisted
	// under .copilot-tracking unless histReadOnly. Objects are immutable;
	// guarded by objMu.
	hist         *histCache
	histTrees    map[plumbing.Hash][]treeEntry
	histReadOnly bool

	// partial reports a partial clone (a promisor remote): objects it
	// never fetched are missing by design.
	partial bool
	// missingAlts are alternate object directories that do not exist.
	missingAlts []string

	// mu guards snap and hashes.
	mu sync.Mutex
	// snap is the state of the last Status or Scan, which Refresh reuses.
	snap *state
	// hashes remembers blob hashes of work tree files whose stat data no
	// longer matches the index, so that repeated scans of a repository
	// whose index git has not refreshed do not hash them again.
	hashes map[string]hashMemo
}

// Open opens the repository and work tree git would use when run in dir
// with opts.Env: without $GIT_DIR, the nearest directory at or above dir
// holding ".git" (a directory, or a file "gitdir: ..." as in linked
// worktrees and submodules); the work tree is $GIT_WORK_TREE, core.worktree
// or that directory. A bare repository, or a ".git" file naming a missing
// git directory, is an error saying so. When no repository is found the
// error wraps [review.ErrNotRepository] and names dir.
func Open(dir string, opts Options) (*Repo, error) {
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("open repository %q: %w", dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository %q: %w", dir, err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	root, gitDir, commonDir, err := locate(abs, opts.Env)
	if err != nil {
		return nil, fmt.Errorf("open repository %q: %w", dir, err)
	}
	r := &Repo{
		root:      root,
		gitDir:    gitDir,
		commonDir: commonDir,
		indexPath: filepath.Join(gitDir, "index"),
		sizeCap:   opts.SizeCap,
		ignore:    opts.Ignore,
		logger:    opts.Logger,
	}
	switch {
	case opts.IndexFile != "":
		r.indexPath, err = filepath.Abs(opts.IndexFile)
		if err != nil {
			return nil, fmt.Errorf("open repository %q: %w", dir, err)
		}
	case opts.Env.IndexFile != "":
		r.indexPath = absFrom(root, opts.Env.IndexFile)
	}
	if r.sizeCap == 0 {
		r.sizeCap = review.DefaultSizeCap
	}
	if r.logger == nil {
		r.logger = slog.New(slog.DiscardHandler)
	}

	cfg, err := loadConfig(gitDir, commonDir)
	if err != nil {
		return nil, fmt.Errorf("open repository %q: %w", root, err)
	}
	if f := cfg.get("extensions", "objectformat"); f != "" && !strings.EqualFold(f, "sha1") {
		return nil, fmt.Errorf("open repository %q: object format %s is not supported", root, f)
	}
	r.partial = isPartialClone(cfg)
	alts, missing := alternates(filepath.Join(commonDir, "objects"), root, opts.Env.AlternateObjectDirectories, r.logger)
	r.missingAlts = missing
	st := newStorage(gitDir, commonDir, alts, r.logger)
	repo, err := git.Open(st, osfs.New(root))
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open repository %q: %w", root, err)
	}
	r.repo, r.store = repo, st
	return r, nil
}

// Close releases the pack files the Repo keeps open. The Repo must not be
// used afterwards. Closing is optional for a Repo that lives as long as
// the process.
func (r *Repo) Close() error {
	r.objMu.Lock()
	defer r.objMu.Unlock()
	return r.store.Close()
}

// pathFilter returns the filter of the paths a scan leaves out.
func (r *Repo) pathFilter() pathFilter {
	var inside []string
	for _, d := range []string{r.gitDir, r.commonDir} {
		rel, err := filepath.Rel(r.root, d)
		// ".git" itself is never entered anyway.
		if err != nil || rel == "." || rel == ".git" || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		inside = append(inside, filepath.ToSlash(rel))
	}
	return newPathFilter(r.ignore, inside)
}

// Root returns the absolute path of the work tree.
func (r *Repo) Root() string { return r.root }

// GitDir returns the per-worktree git directory, holding HEAD and the index.
func (r *Repo) GitDir() string { return r.gitDir }

// CommonDir returns the git directory shared by all worktrees, holding
// objects, refs and packed-refs. It equals GitDir outside linked worktrees.
func (r *Repo) CommonDir() string { return r.commonDir }

// MessageCleanup returns the settings by which git cleans up an edited
// commit message: the comment string (core.commentString, else
// core.commentChar; "#" by default, "" for "auto", which git picks per
// message) and commit.cleanup ("" when unset). Like the rest of the
// configuration reading, includes and `git -c` are not followed.
func (r *Repo) MessageCleanup() (comment, mode string, err error) {
	cfg, err := loadConfig(r.gitDir, r.commonDir)
	if err != nil {
		return "", "", err
	}
	comment = "#"
	for _, key := range []string{"commentchar", "commentstring"} {
		if cfg.has("core", key) {
			comment = cfg.get("core", key)
		}
	}
	if comment == "auto" {
		comment = ""
	}
	return comment, strings.ToLower(cfg.get("commit", "cleanup")), nil
}

// HooksDir returns the directory git runs hooks from: core.hooksPath
// (relative to the work tree root when relative), or hooks/ in the common
// git directory.
func (r *Repo) HooksDir() (string, error) {
	cfg, err := loadConfig(r.gitDir, r.commonDir)
	if err != nil {
		return "", err
	}
	p := cfg.get("core", "hookspath")
	switch {
	case p == "":
		return filepath.Join(r.commonDir, "hooks"), nil
	case strings.HasPrefix(p, "~/") && cfg.home != "":
		return filepath.Join(cfg.home, p[2:]), nil
	case filepath.IsAbs(p):
		return filepath.Clean(p), nil
	}
	return filepath.Join(r.root, p), nil
}
