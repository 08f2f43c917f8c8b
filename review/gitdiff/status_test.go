package gitdiff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// TestStatusMatchesGit builds varied repositories with the git binary and
// checks that Status lists exactly what `git status --porcelain=v2
// --untracked-files=all` lists.
func TestStatusMatchesGit(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"clean", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n"})
			commitAll(t, dir, "init")
		}},
		{"staged and unstaged", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "1\n", "b.txt": "1\n", "c.txt": "1\n", "d/e/f.txt": "1\n", "gone.txt": "x\n", "rm.txt": "x\n"})
			commitAll(t, dir, "init")
			write(t, dir, map[string]string{"a.txt": "2\n", "b.txt": "2\n", "d/e/f.txt": "22\n", "new.txt": "n\n"})
			runGit(t, dir, "add", "a.txt", "new.txt")
			write(t, dir, map[string]string{"a.txt": "3\n", "u/v/w.txt": "u\n", "u/x.txt": "x\n"})
			runGit(t, dir, "rm", "-q", "rm.txt")
			remove(t, dir, "gone.txt")
		}},
		{"same-size edit", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "aaaa\n"})
			commitAll(t, dir, "init")
			write(t, dir, map[string]string{"a.txt": "bbbb\n"})
		}},
		{"reverted in work tree", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "1\n"})
			commitAll(t, dir, "init")
			write(t, dir, map[string]string{"a.txt": "2\n"})
			runGit(t, dir, "add", "a.txt")
			write(t, dir, map[string]string{"a.txt": "1\n"})
		}},
		{"rename", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"old/a.go": "package a\n\nfunc A() {}\n", "b.txt": "same\n", "c.txt": "same\n"})
			commitAll(t, dir, "init")
			if err := os.Mkdir(filepath.Join(dir, "new"), 0o755); err != nil {
				t.Fatal(err)
			}
			runGit(t, dir, "mv", "old/a.go", "new/a.go")
			runGit(t, dir, "mv", "b.txt", "b2.txt")
			write(t, dir, map[string]string{"new/a.go": "package a\n\nfunc A() {}\n\nfunc B() {}\n"})
		}},
		{"mode and symlinks", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"run.sh": "#!/bin/sh\n", "target.txt": "t\n", "other.txt": "o\n"})
			symlink(t, dir, "target.txt", "link")
			symlink(t, dir, "target.txt", "link2")
			commitAll(t, dir, "init")
			if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			remove(t, dir, "link")
			symlink(t, dir, "other.txt", "link")
			remove(t, dir, "link2")
			write(t, dir, map[string]string{"link2": "now a file\n"})
			symlink(t, dir, "nowhere", "dangling")
		}},
		{"crlf, non-utf8, binary", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{
				"crlf.txt":   "a\r\nb\r\n",
				"latin1.txt": "caf\xe9\n",
				"bin.dat":    "\x00\x01\x02",
			})
			commitAll(t, dir, "init")
			write(t, dir, map[string]string{
				"crlf.txt":   "a\r\nB\r\n",
				"latin1.txt": "na\xefve\n",
				"bin.dat":    "\x00\x01\x03",
				"new.bin":    "\x00",
			})
		}},
		{"type changes", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"f": "file\n", "d/x.txt": "x\n", "d/y.txt": "y\n", "real/z.txt": "z\n", "s/z.txt": "z\n"})
			commitAll(t, dir, "init")
			remove(t, dir, "f", "d", "s")
			write(t, dir, map[string]string{"f/inside.txt": "now a dir\n", "d": "now a file\n"})
			symlink(t, dir, "real", "s") // s/z.txt is not followed through the link
		}},
		{"many directories", func(t *testing.T, dir string) {
			files := map[string]string{}
			for i := range 30 {
				for j := range 5 {
					files[filepath.ToSlash(filepath.Join("pkg", string(rune('a'+i%26))+strings.Repeat("x", i/26), "sub", string(rune('a'+j))+".go"))] = "package p\n"
				}
			}
			write(t, dir, files)
			commitAll(t, dir, "init")
			write(t, dir, map[string]string{"pkg/c/sub/a.go": "package q\n", "pkg/c/sub/new.go": "package p\n", "pkg/new/a.go": "x\n", "pkg/c.go": "x\n"})
			remove(t, dir, "pkg/d/sub/b.go", "pkg/e")
		}},
		{"unborn", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n"})
			runGit(t, dir, "add", "a.txt", "d/b.txt")
			write(t, dir, map[string]string{"a.txt": "a2\n", "c.txt": "c\n"})
		}},
		{"detached", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "1\n"})
			commitAll(t, dir, "one")
			write(t, dir, map[string]string{"a.txt": "2\n"})
			commitAll(t, dir, "two")
			runGit(t, dir, "checkout", "-q", "--detach", "HEAD~1")
			write(t, dir, map[string]string{"a.txt": "3\n", "b.txt": "b\n"})
		}},
		{"intent to add", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "1\n"})
			commitAll(t, dir, "init")
			write(t, dir, map[string]string{"n.txt": "new\n"})
			runGit(t, dir, "add", "-N", "n.txt")
		}},
		{"unmerged", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "base\n", "b.txt": "b\n"})
			commitAll(t, dir, "init")
			runGit(t, dir, "checkout", "-q", "-b", "other")
			write(t, dir, map[string]string{"a.txt": "other\n"})
			commitAll(t, dir, "other")
			runGit(t, dir, "checkout", "-q", "main")
			write(t, dir, map[string]string{"a.txt": "main\n"})
			commitAll(t, dir, "main")
			// The merge fails with a conflict, leaving a.txt unmerged.
			reviewtest.GitEnv(t, dir, nil, "config", "merge.conflictstyle", "merge")
			mergeAllowingConflict(t, dir, "other")
		}},
		{"removed from index, kept in work tree", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "a\n", "secret.env": "k=v\n"})
			commitAll(t, dir, "init")
			runGit(t, dir, "rm", "-q", "--cached", "a.txt", "secret.env")
			write(t, dir, map[string]string{".gitignore": "*.env\n"})
		}},
		{"nested repository", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "a\n"})
			commitAll(t, dir, "init")
			nested := filepath.Join(dir, "vendor", "lib")
			if err := os.MkdirAll(nested, 0o755); err != nil {
				t.Fatal(err)
			}
			runGit(t, nested, "init", "-q")
			write(t, nested, map[string]string{"x.go": "package x\n"})
			write(t, dir, map[string]string{"vendor/other.txt": "o\n"})
		}},
		{"skip-worktree", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
			commitAll(t, dir, "init")
			runGit(t, dir, "update-index", "--skip-worktree", "a.txt")
			write(t, dir, map[string]string{"a.txt": "changed\n"})
			remove(t, dir, "b.txt")
		}},
		{"index v4", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"dir/a.txt": "a\n", "dir/ab.txt": "ab\n", "dir/sub/c.txt": "c\n", "e.txt": "e\n"})
			commitAll(t, dir, "init")
			runGit(t, dir, "update-index", "--index-version", "4")
			write(t, dir, map[string]string{"dir/ab.txt": "changed\n", "dir/sub/d.txt": "d\n"})
			runGit(t, dir, "add", "dir/sub/d.txt")
		}},
		{"dot directories", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"a.txt": "a\n", ".github/workflows/ci.yml": "on: push\n"})
			commitAll(t, dir, "init")
			write(t, dir, map[string]string{".github/workflows/ci.yml": "on: [push]\n", ".config/x.toml": "x = 1\n", "sub/.git-not-a-repo": "x\n"})
		}},
		{"odd names", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"with space.txt": "a\n", "ünï.txt": "u\n", "a-b/c.d": "c\n", "a/b": "ab\n"})
			commitAll(t, dir, "init")
			write(t, dir, map[string]string{"with space.txt": "b\n", "ünï.txt": "v\n", "a-b/c.d": "d\n", "a.b": "new\n", "a0": "new\n"})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := initRepo(t)
			tc.setup(t, dir)
			checkStatus(t, dir)
		})
	}
}

// mergeAllowingConflict runs `git merge`, which fails on conflicts.
func mergeAllowingConflict(t *testing.T, dir, branch string) {
	t.Helper()
	ft := &failTB{TB: t}
	reviewtest.Git(ft, dir, "merge", "-q", branch)
	if out := runGit(t, dir, "ls-files", "-u"); out == "" {
		t.Fatalf("merge left no unmerged entries")
	}
}

// failTB is a testing.TB whose Fatalf does not stop the test, for git
// commands that are expected to fail.
type failTB struct {
	testing.TB
}

func (f *failTB) Fatalf(string, ...any) {}
func (f *failTB) Helper()               {}

func TestStatusIgnoreRules(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{
		".gitignore": strings.Join([]string{
			"# comment",
			"*.log",
			"!keep.log",
			"/root-only.txt",
			"build/",
			"docs/*",
			"!docs/keep.md",
			"**/tmp",
			"a/**/z.txt",
			"\\#hash.txt",
			"trailing.txt   ",
			"escaped\\ ",
			"[abc].dat",
			"x?.cfg",
			"*.o",
			"!important.o",
			"deep/**",
			"gen/**/*.pb.go",
			"",
		}, "\n"),
		"tracked/build/keep.txt": "tracked under an ignored directory\n",
		"sub/.gitignore":         "!*.log\nlocal.txt\n/anchored.txt\n",
		"sub/inner/.gitignore":   "*.txt\n!wanted.txt\n",
		"a.txt":                  "a\n",
	})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{
		"x.log": "", "keep.log": "", "root-only.txt": "", "sub/root-only.txt": "",
		"build/out.o": "", "sub/build/out.txt": "", "tracked/build/new.txt": "", "tracked/build/keep.txt": "changed\n",
		"docs/a.md": "", "docs/keep.md": "", "docs/sub/x.md": "",
		"tmp/x": "", "sub/tmp/y": "", "sub/tmpx/y": "",
		"a/z.txt": "", "a/b/z.txt": "", "a/b/c/z.txt": "", "b/z.txt": "",
		"#hash.txt": "", "trailing.txt": "", "escaped ": "",
		"a.dat": "", "d.dat": "", "x1.cfg": "", "x12.cfg": "",
		"lib.o": "", "important.o": "",
		"deep/x/y.txt": "", "gen/p.pb.go": "", "gen/x/y/p.pb.go": "", "gen/x/p.go": "",
		"sub/x.log": "", "sub/local.txt": "", "sub/deeper/local.txt": "", "sub/anchored.txt": "", "sub/deeper/anchored.txt": "",
		"sub/inner/a.txt": "", "sub/inner/wanted.txt": "", "sub/inner/a.md": "",
		"windows\r.txt": "",
	})
	checkStatus(t, dir)
}

func TestStatusCRLFGitignore(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{".gitignore": "*.tmp\r\nbuild/\r\n", "a.txt": "a\n"})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{"x.tmp": "", "build/a": "", "y.txt": ""})
	checkStatus(t, dir)
}

func TestStatusExcludeFiles(t *testing.T) {
	t.Run("info/exclude and repo core.excludesFile", func(t *testing.T) {
		dir := initRepo(t)
		write(t, dir, map[string]string{"a.txt": "a\n", ".git/info/exclude": "*.secret\n", "../repo-ignore": "*.bak\n"})
		runGit(t, dir, "config", "core.excludesFile", filepath.Join(filepath.Dir(dir), "repo-ignore"))
		commitAll(t, dir, "init")
		write(t, dir, map[string]string{"x.secret": "", "x.bak": "", "x.txt": ""})
		checkStatus(t, dir)
		got := statusOf(t, dir, Options{})
		if want := []string{"x.txt"}; !cmp.Equal(paths(got), want) {
			t.Errorf("paths = %v, want %v", paths(got), want)
		}
	})
	t.Run("global config in HOME", func(t *testing.T) {
		home := t.TempDir()
		t.Setenv("HOME", home)
		write(t, home, map[string]string{".gitconfig": "[core]\n\texcludesFile = ~/global-ignore\n", "global-ignore": "*.swp\n"})
		dir := initRepo(t)
		write(t, dir, map[string]string{"a.txt": "a\n"})
		commitAll(t, dir, "init")
		write(t, dir, map[string]string{"x.swp": "", "x.txt": ""})
		checkStatusWith(t, dir, gitEnv)
		if got, want := paths(statusOf(t, dir, Options{})), []string{"x.txt"}; !cmp.Equal(got, want) {
			t.Errorf("paths = %v, want %v", got, want)
		}
	})
	t.Run("default XDG ignore file", func(t *testing.T) {
		home := t.TempDir()
		t.Setenv("HOME", home)
		xdg := filepath.Join(home, "xdg")
		t.Setenv("XDG_CONFIG_HOME", xdg)
		write(t, xdg, map[string]string{"git/ignore": "*.orig\n"})
		dir := initRepo(t)
		write(t, dir, map[string]string{"a.txt": "a\n"})
		commitAll(t, dir, "init")
		write(t, dir, map[string]string{"x.orig": "", "x.txt": ""})
		checkStatusWith(t, dir, gitEnv)
		if got, want := paths(statusOf(t, dir, Options{})), []string{"x.txt"}; !cmp.Equal(got, want) {
			t.Errorf("paths = %v, want %v", got, want)
		}
	})
}

func paths(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Path)
	}
	return out
}

func TestStatusOptionsIgnoreAndTrackingDir(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n", "gen/x.go": "x\n", ".copilot-tracking/old.md": "o\n"})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{
		"a.txt": "b\n", "gen/x.go": "y\n", "gen/deep/y.go": "y\n", "docs/a.md": "a\n", "docs/b.txt": "b\n",
		".copilot-tracking/reviews/r.md": "r\n", ".copilot-tracking/old.md": "changed\n", "sub/.copilot-tracking/x": "kept\n",
	})
	got := paths(statusOf(t, dir, Options{Ignore: []string{"gen/**", "docs/*.md"}}))
	want := []string{"a.txt", "docs/b.txt", "sub/.copilot-tracking/x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
}

func TestStatusWorktree(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n"})
	commitAll(t, dir, "init")
	wt := filepath.Join(t.TempDir(), "wt")
	runGit(t, dir, "worktree", "add", "-q", "-b", "feat/wt", wt)
	write(t, wt, map[string]string{"a.txt": "changed\n", "new.txt": "n\n"})
	runGit(t, wt, "add", "new.txt")
	write(t, wt, map[string]string{"d/c.txt": "untracked\n"})

	checkStatus(t, wt)
	r := open(t, filepath.Join(wt, "d"), Options{})
	gitDir := strings.TrimSpace(runGit(t, wt, "rev-parse", "--absolute-git-dir"))
	commonDir := filepath.Join(dir, ".git")
	if r.Root() != wt || r.GitDir() != gitDir || r.CommonDir() != commonDir {
		t.Errorf("Root, GitDir, CommonDir = %s, %s, %s; want %s, %s, %s", r.Root(), r.GitDir(), r.CommonDir(), wt, gitDir, commonDir)
	}
	tg := resolve(t, r, false, "")
	if tg.Branch != "feat/wt" || tg.HeadRef != "refs/heads/feat/wt" {
		t.Errorf("target branch %q ref %q", tg.Branch, tg.HeadRef)
	}
	// The main work tree is unaffected.
	if got := statusOf(t, dir, Options{}); len(got) != 0 {
		t.Errorf("main work tree changes: %v", paths(got))
	}
}

func TestStatusSubmodule(t *testing.T) {
	sub := initRepo(t)
	write(t, sub, map[string]string{"lib.go": "package lib\n"})
	commitAll(t, sub, "lib")

	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n"})
	commitAll(t, dir, "init")
	runGit(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "deps/lib")
	commitAll(t, dir, "add submodule")
	checkStatus(t, dir)
	if got := statusOf(t, dir, Options{}); len(got) != 0 {
		t.Fatalf("clean submodule listed: %v", paths(got))
	}

	// A new commit checked out in the submodule changes the gitlink.
	subDir := filepath.Join(dir, "deps", "lib")
	write(t, subDir, map[string]string{"lib.go": "package lib\n\nfunc F() {}\n"})
	commitAll(t, subDir, "F")
	checkStatus(t, dir)

	r := open(t, dir, Options{})
	cs := scan(t, r, resolve(t, r, false, ""), nil)
	f := cs.File("deps/lib")
	if f == nil {
		t.Fatalf("submodule not listed: %v", cs.Paths())
	}
	if f.Skip != review.SkipSubmodule || f.Content != nil || f.Status != review.StatusModified || !f.Unstaged {
		t.Errorf("submodule file = %+v", f)
	}
	oldHead := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD:deps/lib"))
	newHead := strings.TrimSpace(runGit(t, subDir, "rev-parse", "HEAD"))
	want := []review.Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []string{"-Subproject commit " + oldHead, "+Subproject commit " + newHead}}}
	if diff := cmp.Diff(want, f.Hunks); diff != "" {
		t.Errorf("submodule hunks (-want +got):\n%s", diff)
	}

	// Staged, the new commit is a staged change of the gitlink.
	runGit(t, dir, "add", "deps/lib")
	checkStatus(t, dir)
}

func TestStatusStagedTarget(t *testing.T) {
	f := reviewtest.Repo(t, "../../testdata/repos/mixed.txtar")
	r := open(t, f.Dir, Options{})
	changes, err := r.Status(t.Context(), resolve(t, r, true, ""))
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{
		{Path: "app/main.go", Status: review.StatusModified, Staged: true},
		{Path: "app/new.go", Status: review.StatusAdded, Staged: true},
		{Path: "old.txt", Status: review.StatusDeleted, Staged: true},
	}
	if diff := cmp.Diff(want, changes, cmpopts.IgnoreUnexported(Change{})); diff != "" {
		t.Errorf("staged changes (-want +got):\n%s", diff)
	}
}

func TestStatusFixtureIndexWithoutCacheTree(t *testing.T) {
	// reviewtest writes the index with go-git, which records no
	// cache-tree: the HEAD comparison then hashes the index's trees.
	for _, name := range []string{"mixed", "detached", "unborn"} {
		t.Run(name, func(t *testing.T) {
			f := reviewtest.Repo(t, "../../testdata/repos/"+name+".txtar")
			idx, err := readIndex(filepath.Join(f.Dir, ".git", "index"), filepath.Join(f.Dir, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			if idx.tree != nil {
				t.Fatalf("go-git wrote a cache-tree; this test no longer covers the fallback")
			}
			checkStatus(t, f.Dir)
		})
	}
}

func TestStatusWithoutIndex(t *testing.T) {
	// A fresh repository has no index file at all.
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n"})
	if _, err := os.Stat(filepath.Join(dir, ".git", "index")); !os.IsNotExist(err) {
		t.Fatalf("index exists: %v", err)
	}
	checkStatus(t, dir)
}

func TestStatusIndexFileOption(t *testing.T) {
	// git commit -a runs the pre-commit hook with GIT_INDEX_FILE naming a
	// temporary index; Options.IndexFile reads that one.
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "1\n"})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{"a.txt": "2\n"})
	tmpIndex := filepath.Join(t.TempDir(), "index")
	if err := os.WriteFile(tmpIndex, mustRead(t, filepath.Join(dir, ".git", "index")), 0o644); err != nil {
		t.Fatal(err)
	}
	reviewtest.GitEnv(t, dir, []string{"GIT_INDEX_FILE=" + tmpIndex}, "add", "a.txt")

	for _, tc := range []struct {
		index string
		want  []string
	}{{"", nil}, {tmpIndex, []string{"a.txt"}}} {
		r := open(t, dir, Options{IndexFile: tc.index})
		changes, err := r.Status(t.Context(), resolve(t, r, true, ""))
		if err != nil {
			t.Fatal(err)
		}
		if got := paths(changes); !cmp.Equal(got, tc.want, cmpopts.EquateEmpty()) {
			t.Errorf("IndexFile %q: staged paths %v, want %v", tc.index, got, tc.want)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRacyAndSmudgedEntries(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "aaaa\n"})
	runGit(t, dir, "add", "a.txt")
	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "")
	st, err := r.newState(tg)
	if err != nil {
		t.Fatal(err)
	}
	i, _ := st.idx.find("a.txt")
	e := &st.idx.entries[i]
	dh, name := st.parentDir("a.txt")

	// Same size, same recorded stat data, other content: only a racily
	// clean entry (recorded no earlier than the index was written) is
	// hashed, and so found modified.
	write(t, dir, map[string]string{"a.txt": "bbbb\n"})
	s, err := dh.lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	e.mtimeSec, e.mtimeNsec, e.ctimeSec, e.ctimeNsec, e.ino = s.mtimeSec, s.mtimeNsec, s.ctimeSec, s.ctimeNsec, s.ino
	st.idx.id = fileID{mtimeSec: s.mtimeSec + 10}
	if obs := st.observeTracked(i, dh, name, &hasher{}); obs.kind != wtClean {
		t.Errorf("entry written long before the index: %v, want clean (stat data trusted)", obs.kind)
	}
	st.idx.id = fileID{mtimeSec: s.mtimeSec, mtimeNsec: s.mtimeNsec}
	if obs := st.observeTracked(i, dh, name, &hasher{}); obs.kind != wtModified {
		t.Errorf("racily clean entry: %v, want modified", obs.kind)
	}
	// git zeroes the size of racily clean entries it writes: the content
	// decides.
	st.idx.id = fileID{mtimeSec: s.mtimeSec + 10}
	e.size = 0
	e.mtimeSec++
	if obs := st.observeTracked(i, dh, name, &hasher{}); obs.kind != wtModified {
		t.Errorf("smudged entry with other content: %v, want modified", obs.kind)
	}
	write(t, dir, map[string]string{"a.txt": "aaaa\n"})
	if obs := st.observeTracked(i, dh, name, &hasher{}); obs.kind != wtClean {
		t.Errorf("smudged entry with the same content: %v, want clean", obs.kind)
	}
}
