package gitdiff

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// Env holds the environment variables through which git selects the
// repository, the work tree, the index and extra object directories
// (git(1), "ENVIRONMENT VARIABLES"). The zero Env finds the repository by
// discovery alone; [ProcessEnv] reads the process's.
//
// Relative paths are resolved as git resolves them when run in the
// directory given to [Open] (as `git -C dir` would): GitDir and WorkTree
// against that directory, IndexFile and AlternateObjectDirectories against
// the top of the work tree.
type Env struct {
	// GitDir is $GIT_DIR: the repository's git directory (or a ".git"
	// file naming it). It turns discovery off; without WorkTree or
	// core.worktree the directory given to Open is the top of the work
	// tree.
	GitDir string
	// WorkTree is $GIT_WORK_TREE: the top of the work tree, overriding
	// core.worktree and core.bare.
	WorkTree string
	// IndexFile is $GIT_INDEX_FILE: the index to read instead of the
	// repository's own.
	IndexFile string
	// AlternateObjectDirectories is $GIT_ALTERNATE_OBJECT_DIRECTORIES:
	// object directories, separated by ':', searched after the
	// repository's own and those of objects/info/alternates.
	AlternateObjectDirectories string
}

// ProcessEnv returns the git environment of the current process.
// GIT_OBJECT_DIRECTORY, GIT_COMMON_DIR, GIT_CEILING_DIRECTORIES and
// GIT_DISCOVERY_ACROSS_FILESYSTEM are not honoured.
func ProcessEnv() Env {
	return Env{
		GitDir:                     os.Getenv("GIT_DIR"),
		WorkTree:                   os.Getenv("GIT_WORK_TREE"),
		IndexFile:                  os.Getenv("GIT_INDEX_FILE"),
		AlternateObjectDirectories: os.Getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES"),
	}
}

// locate finds the repository and the work tree git would use when run in
// dir (absolute) with env, following git's setup rules (setup.c): $GIT_DIR
// turns discovery off; otherwise the nearest directory at or above dir
// holding a ".git" directory or file, or being a git directory itself,
// wins. The work tree is then $GIT_WORK_TREE, else none when core.bare is
// set, else core.worktree (relative to the git directory), else the
// directory holding ".git" (discovery) or dir ($GIT_DIR).
func locate(dir string, env Env) (root, gitDir, commonDir string, err error) {
	if env.GitDir != "" {
		gd := absFrom(dir, env.GitDir)
		if fi, err := os.Stat(gd); err == nil && !fi.IsDir() {
			// GIT_DIR may name a ".git" file, as git allows.
			if gd, err = readGitFile(gd); err != nil {
				return "", "", "", err
			}
		}
		cd := commonDirOf(gd)
		if !isGitDir(gd, cd) {
			return "", "", "", fmt.Errorf("GIT_DIR %s is not a git directory", gd)
		}
		root, err := workTree(dir, gd, cd, env, dir)
		return root, gd, cd, err
	}
	for d := dir; ; {
		gd, ok, err := dotGit(d)
		if err != nil {
			return "", "", "", err
		}
		if ok {
			cd := commonDirOf(gd)
			if !isGitDir(gd, cd) {
				return "", "", "", brokenGitFile(filepath.Join(d, ".git"), gd)
			}
			root, err := workTree(dir, gd, cd, env, d)
			return root, gd, cd, err
		}
		if cd := commonDirOf(d); isGitDir(d, cd) {
			// Inside a git directory: a bare repository, or one whose
			// work tree only core.worktree or GIT_WORK_TREE can name.
			root, err := workTree(dir, d, cd, env, "")
			return root, d, cd, err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", "", review.ErrNotRepository
		}
		d = parent
	}
}

// workTree returns the top of the work tree of the git directory gd, where
// implicit is the work tree git assumes when nothing names one ("" inside
// a git directory, which then has none).
func workTree(dir, gd, cd string, env Env, implicit string) (string, error) {
	cfg, err := repoConfig(gd, cd)
	if err != nil {
		return "", err
	}
	var root, source string
	switch wt := cfg.get("core", "worktree"); {
	case env.WorkTree != "":
		root, source = absFrom(dir, env.WorkTree), "GIT_WORK_TREE"
	case cfg.has("core", "bare") && isTrue(cfg.get("core", "bare")):
		return "", fmt.Errorf("%s is a bare repository: it has no work tree to review (set GIT_WORK_TREE to review one)", gd)
	case wt != "":
		root, source = absFrom(gd, wt), "core.worktree of "+gd
	case implicit == "":
		return "", fmt.Errorf("%s is inside the git directory %s, not in a work tree: run reviewls in the work tree", dir, gd)
	default:
		return implicit, nil
	}
	fi, err := os.Stat(root)
	if err != nil {
		return "", fmt.Errorf("work tree %s (%s): %w", root, source, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("work tree %s (%s) is not a directory", root, source)
	}
	return root, nil
}

// absFrom resolves p against dir.
func absFrom(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// brokenGitFile describes a ".git" file whose git directory is gone.
func brokenGitFile(file, gd string) error {
	hint := "was the repository moved or deleted?"
	if strings.Contains(filepath.ToSlash(gd), "/worktrees/") {
		hint = "a linked worktree whose repository moved or was pruned: run 'git worktree repair' in the main work tree"
	}
	return fmt.Errorf("%s names %s, which is not a git directory (%s)", file, gd, hint)
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

// dotGit returns the git directory named by d/.git, if any: a ".git"
// directory that is a repository, or the target of a ".git" file.
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
	gd, err := readGitFile(p)
	return gd, err == nil, err
}

// readGitFile returns the git directory a ".git" file names
// ("gitdir: <path>", relative to the file's directory).
func readGitFile(p string) (string, error) {
	b, err := regular.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("gitdir:"))
	if !ok {
		return "", fmt.Errorf("%s: no gitdir line", p)
	}
	gd := strings.TrimSpace(string(rest))
	if gd == "" {
		return "", fmt.Errorf("%s: empty gitdir line", p)
	}
	return absFrom(filepath.Dir(p), gd), nil
}

// isGitDir reports whether gitDir (with its common directory) is a
// repository, as git's is_git_directory decides: a HEAD file holding a
// symbolic ref or a hash, and objects and refs directories.
func isGitDir(gitDir, commonDir string) bool {
	for _, d := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(commonDir, d)); err != nil || !fi.IsDir() {
			return false
		}
	}
	b, err := regular.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return false
	}
	head := strings.TrimSpace(string(b))
	return strings.HasPrefix(head, "ref:") || plumbing.IsHash(head)
}
