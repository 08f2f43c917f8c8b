package gitdiff

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// gitWith returns a git runner that adds env to every call.
func gitWith(env ...string) func(t testing.TB, dir string, args ...string) string {
	return func(t testing.TB, dir string, args ...string) string {
		t.Helper()
		return reviewtest.GitEnv(t, dir, env, args...)
	}
}

// checkStatusAt compares Status of the repository Open finds from dir with
// env with git status run in dir with the same environment.
func checkStatusAt(t *testing.T, dir string, env Env, wantRoot string) {
	t.Helper()
	r := open(t, dir, Options{Env: env})
	if r.Root() != wantRoot {
		t.Fatalf("Root = %s, want %s", r.Root(), wantRoot)
	}
	got, err := r.Status(t.Context(), resolve(t, r, false, ""))
	if err != nil {
		t.Fatal(err)
	}
	var vars []string
	for k, v := range map[string]string{"GIT_DIR": env.GitDir, "GIT_WORK_TREE": env.WorkTree, "GIT_INDEX_FILE": env.IndexFile} {
		if v != "" {
			vars = append(vars, k+"="+v)
		}
	}
	want := gitStatus(t, dir, gitWith(vars...), vars...)
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Change{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Status differs from git status (-git +Status):\n%s", diff)
	}
}

// separateWorkTree makes a repository whose git directory is repo/.git and
// whose work tree is wt, with one commit and a few changes.
func separateWorkTree(t *testing.T, env ...string) (repo, wt string) {
	t.Helper()
	base := t.TempDir()
	repo, wt = filepath.Join(base, "repo"), filepath.Join(base, "wt")
	runGit(t, base, "init", "-q", "repo")
	if err := os.Mkdir(wt, 0o755); err != nil {
		t.Fatal(err)
	}
	git := gitWith(append([]string{"GIT_DIR=" + filepath.Join(repo, ".git"), "GIT_WORK_TREE=" + wt}, env...)...)
	write(t, wt, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n"})
	git(t, wt, "add", "-A")
	git(t, wt, "commit", "-q", "-m", "init")
	write(t, wt, map[string]string{"a.txt": "a2\n", "new.txt": "n\n"})
	remove(t, wt, "d/b.txt")
	return repo, wt
}

func TestOpenCoreWorktree(t *testing.T) {
	for _, rel := range []bool{false, true} {
		repo, wt := separateWorkTree(t)
		value := wt
		if rel {
			// Relative to the git directory, as git resolves it.
			value = "../../wt"
		}
		runGit(t, repo, "config", "core.worktree", value)
		// Found from the directory holding .git, from inside the work
		// tree through GIT_DIR, and from a subdirectory of the repository.
		checkStatusAt(t, repo, Env{}, wt)
		checkStatusAt(t, wt, Env{GitDir: filepath.Join(repo, ".git")}, wt)
		if err := os.Mkdir(filepath.Join(repo, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		checkStatusAt(t, filepath.Join(repo, "sub"), Env{}, wt)
		// From inside the git directory itself too.
		r := open(t, filepath.Join(repo, ".git", "refs"), Options{})
		if r.Root() != wt {
			t.Errorf("opened from inside .git: Root = %s, want %s", r.Root(), wt)
		}
	}
}

func TestOpenGitDirEnv(t *testing.T) {
	repo, wt := separateWorkTree(t)
	gd := filepath.Join(repo, ".git")
	// GIT_DIR and GIT_WORK_TREE, absolute and relative to the directory.
	checkStatusAt(t, wt, Env{GitDir: gd, WorkTree: wt}, wt)
	checkStatusAt(t, filepath.Dir(wt), Env{GitDir: "repo/.git", WorkTree: "wt"}, wt)
	// GIT_WORK_TREE wins over core.worktree.
	runGit(t, repo, "config", "core.worktree", "/nonexistent")
	checkStatusAt(t, filepath.Dir(wt), Env{GitDir: "repo/.git", WorkTree: "wt"}, wt)
	runGit(t, repo, "config", "--unset", "core.worktree")
	// GIT_DIR alone: the directory is the top of the work tree, even a
	// subdirectory of the real one.
	checkStatusAt(t, wt, Env{GitDir: gd}, wt)
	checkStatusAt(t, filepath.Join(wt, "d"), Env{GitDir: gd}, filepath.Join(wt, "d"))
	// GIT_WORK_TREE alone, with a discovered repository.
	checkStatusAt(t, repo, Env{WorkTree: wt}, wt)
	// GIT_DIR naming a ".git" file.
	write(t, wt, map[string]string{"link/.git": "gitdir: " + gd + "\n"})
	checkStatusAt(t, wt, Env{GitDir: filepath.Join(wt, "link", ".git")}, wt)
}

func TestOpenBareWithWorkTree(t *testing.T) {
	// The "dotfiles" layout: a bare repository inside the work tree, named
	// by GIT_DIR and GIT_WORK_TREE. git lists the git directory as
	// untracked; a review never looks into it.
	home := t.TempDir()
	runGit(t, home, "init", "-q", "--bare", ".dotfiles")
	env := Env{GitDir: filepath.Join(home, ".dotfiles"), WorkTree: home}
	git := gitWith("GIT_DIR="+env.GitDir, "GIT_WORK_TREE="+home)
	write(t, home, map[string]string{".bashrc": "alias ll='ls -l'\n"})
	git(t, home, "add", ".bashrc")
	git(t, home, "commit", "-q", "-m", "init")
	write(t, home, map[string]string{".bashrc": "alias ll='ls -la'\n", "notes.txt": "n\n"})
	got := statusOf(t, home, Options{Env: env})
	if diff := cmp.Diff([]string{".bashrc", "notes.txt"}, paths(got)); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if out := git(t, home, "status", "--porcelain", "--untracked-files=all"); !strings.Contains(out, ".dotfiles/HEAD") {
		t.Fatalf("git status no longer lists the git directory:\n%s", out)
	}

	// Without a work tree it is a bare repository.
	_, err := Open(home, Options{Env: Env{GitDir: env.GitDir}})
	if err == nil || !strings.Contains(err.Error(), "bare repository") {
		t.Errorf("Open of a bare repository = %v", err)
	}
	if _, err := Open(env.GitDir, Options{}); err == nil || !strings.Contains(err.Error(), "bare repository") {
		t.Errorf("Open inside a bare repository = %v", err)
	}
}

func TestOpenLayoutErrors(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n"})
	commitAll(t, dir, "init")
	other := t.TempDir()

	tests := []struct {
		name string
		dir  string
		env  Env
		want string
	}{
		{"inside .git", filepath.Join(dir, ".git"), Env{}, "not in a work tree"},
		{"GIT_DIR not a repository", dir, Env{GitDir: other}, "GIT_DIR " + other + " is not a git directory"},
		{"GIT_WORK_TREE missing", dir, Env{WorkTree: filepath.Join(other, "gone")}, "gone (GIT_WORK_TREE): "},
	}
	for _, tc := range tests {
		_, err := Open(tc.dir, Options{Env: tc.env})
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, review.ErrNotRepository) {
			t.Errorf("%s: Open = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}

	// A ".git" file naming a directory that is gone.
	write(t, other, map[string]string{".git": "gitdir: " + filepath.Join(dir, ".git", "worktrees", "gone") + "\n"})
	_, err := Open(other, Options{})
	if err == nil || !strings.Contains(err.Error(), "is not a git directory") || !strings.Contains(err.Error(), "git worktree repair") {
		t.Errorf("Open with a dangling .git file = %v", err)
	}
	write(t, other, map[string]string{".git": "nonsense\n"})
	if _, err := Open(other, Options{}); err == nil || !strings.Contains(err.Error(), "no gitdir line") {
		t.Errorf("Open with a malformed .git file = %v", err)
	}

	// A directory that merely holds files called HEAD and objects is not
	// a git directory.
	plain := t.TempDir()
	write(t, plain, map[string]string{"HEAD": "not a ref\n", "objects/x": "", "refs/y": ""})
	if _, err := Open(plain, Options{}); !errors.Is(err, review.ErrNotRepository) {
		t.Errorf("Open of a look-alike directory = %v, want review.ErrNotRepository", err)
	}
}

func TestOpenIndexFileEnv(t *testing.T) {
	// A relative $GIT_INDEX_FILE is relative to the top of the work tree,
	// wherever Open starts.
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{"a.txt": "a2\n"})
	runGit(t, dir, "read-tree", "--index-output=.git/other-index", "HEAD")
	reviewtest.GitEnv(t, dir, []string{"GIT_INDEX_FILE=.git/other-index"}, "add", "a.txt")
	for _, d := range []string{dir, filepath.Join(dir, "sub")} {
		checkStatusAt(t, d, Env{IndexFile: ".git/other-index"}, dir)
	}
	// Options.IndexFile takes precedence.
	got := statusOf(t, dir, Options{IndexFile: filepath.Join(dir, ".git", "index"), Env: Env{IndexFile: ".git/other-index"}})
	if len(got) != 1 || got[0].Staged {
		t.Errorf("with Options.IndexFile: %+v", got)
	}
}
