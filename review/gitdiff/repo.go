package gitdiff

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// ErrNotRepository is returned (wrapped) by [Open] when the directory is not
// inside a git work tree.
var ErrNotRepository = errors.New("not a git repository")

// Options configures a [Repo].
type Options struct {
	// SizeCap is the largest file reviewed, in bytes; larger files are
	// listed with a Skip reason. 0 means [review.DefaultSizeCap].
	SizeCap int64
	// Ignore lists doublestar globs of repo-relative paths left out of the
	// change set entirely (the ignore globs of the configuration).
	Ignore []string
	// IndexFile, when set, is the index to read instead of the repository's
	// own. A pre-commit hook passes $GIT_INDEX_FILE here: `git commit -a`
	// and `git commit <paths>` stage into a temporary index.
	IndexFile string
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
	store *filesystem.Storage

	// mu guards snap and hashes.
	mu sync.Mutex
	// snap is the state of the last Status or Scan, which Refresh reuses.
	snap *state
	// hashes remembers blob hashes of work tree files whose stat data no
	// longer matches the index, so that repeated scans of a repository
	// whose index git has not refreshed do not hash them again.
	hashes map[string]hashMemo
}

// Open opens the git work tree containing dir, which may be any path inside
// it: Open walks up to the directory holding ".git". A linked worktree (a
// ".git" file "gitdir: ..." whose git directory has a commondir file) works.
// When no repository is found the error wraps [ErrNotRepository] and names
// dir.
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
	root, gitDir, commonDir, err := discover(abs)
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
	if opts.IndexFile != "" {
		r.indexPath, err = filepath.Abs(opts.IndexFile)
		if err != nil {
			return nil, fmt.Errorf("open repository %q: %w", dir, err)
		}
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
	st := filesystem.NewStorageWithOptions(
		dotgit.NewRepositoryFilesystem(osfs.New(gitDir), osfs.New(commonDir)),
		cache.NewObjectLRUDefault(),
		// Keep pack files open between reads: go-git otherwise opens the
		// pack (and resolves its path) for every object, which dominates
		// walking history. A repository rarely has more packs than this.
		filesystem.Options{MaxOpenDescriptors: maxOpenPacks},
	)
	repo, err := git.Open(storage{st}, osfs.New(root))
	if err != nil {
		return nil, fmt.Errorf("open repository %q: %w", root, err)
	}
	r.repo, r.store = repo, st
	return r, nil
}

// maxOpenPacks bounds the pack files kept open by a Repo.
const maxOpenPacks = 16

// Close releases the pack files the Repo keeps open. The Repo must not be
// used afterwards. Closing is optional for a Repo that lives as long as
// the process.
func (r *Repo) Close() error {
	r.objMu.Lock()
	defer r.objMu.Unlock()
	return r.store.Close()
}

// storage hides the repository format extensions from go-git, which
// refuses any it does not implement (partialClone, worktreeConfig, ...).
// reviewls only reads objects and refs: a missing object of a partial clone
// surfaces as an error of that read, and the configuration is read by
// loadConfig, which honours config.worktree.
type storage struct{ *filesystem.Storage }

func (s storage) Config() (*config.Config, error) {
	cfg, err := s.Storage.Config()
	if err != nil {
		return nil, err
	}
	if cfg.Raw != nil {
		cfg.Raw.RemoveSection("extensions")
	}
	return cfg, nil
}

// Root returns the absolute path of the work tree.
func (r *Repo) Root() string { return r.root }

// GitDir returns the per-worktree git directory, holding HEAD and the index.
func (r *Repo) GitDir() string { return r.gitDir }

// CommonDir returns the git directory shared by all worktrees, holding
// objects, refs and packed-refs. It equals GitDir outside linked worktrees.
func (r *Repo) CommonDir() string { return r.commonDir }

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

// discover walks up from dir to the first directory holding a valid ".git"
// directory or ".git" file.
func discover(dir string) (root, gitDir, commonDir string, err error) {
	for d := dir; ; {
		gd, ok, err := dotGit(d)
		if err != nil {
			return "", "", "", err
		}
		if ok {
			cd := commonDirOf(gd)
			if !isGitDir(gd, cd) {
				return "", "", "", fmt.Errorf("%s is not a valid git directory", gd)
			}
			return d, gd, cd, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", "", ErrNotRepository
		}
		d = parent
	}
}

// commonDirOf returns the common git directory of gitDir: the one its
// commondir file names (linked worktrees), or gitDir itself.
func commonDirOf(gitDir string) string {
	b, err := regular.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	cd := strings.TrimSpace(string(b))
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(gitDir, cd)
	}
	return filepath.Clean(cd)
}

// dotGit returns the git directory named by d/.git, if any.
func dotGit(d string) (string, bool, error) {
	p := filepath.Join(d, ".git")
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return "", false, nil
	case fi.IsDir():
		// git skips a ".git" directory that is not a repository.
		return p, isGitDir(p, p), nil
	}
	b, err := regular.ReadFile(p)
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", p, err)
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("gitdir:"))
	if !ok {
		return "", false, fmt.Errorf("%s: no gitdir line", p)
	}
	gd := strings.TrimSpace(string(rest))
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(d, gd)
	}
	return filepath.Clean(gd), true, nil
}

// isGitDir reports whether gitDir (with its common directory) looks like a
// repository: a HEAD file and an objects directory.
func isGitDir(gitDir, commonDir string) bool {
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return false
	}
	fi, err := os.Stat(filepath.Join(commonDir, "objects"))
	return err == nil && fi.IsDir()
}
