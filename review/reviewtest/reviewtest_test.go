package reviewtest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/review/reviewtest"
)

func TestRepoSections(t *testing.T) {
	ar := txtar.Parse([]byte(`A fixture using every section.
-- repo.json --
{"branch": "feat/x"}
-- base/a.txt --
a1
-- base/b.txt --
b1
-- base/gone.txt --
gone
-- head/a.txt --
a2
-- head/.deleted --
gone.txt
-- staged/c.txt --
c
-- staged/.deleted --
b.txt
-- work/a.txt --
a3
-- work/new.txt --
new
-- config.json --
{"profile": "full"}
-- @golden/out --
expected
`))
	f := reviewtest.RepoFromArchive(t, ar)

	if got := reviewtest.Git(t, f.Dir, "symbolic-ref", "--short", "HEAD"); got != "feat/x\n" {
		t.Errorf("HEAD = %q, want feat/x", got)
	}
	log := reviewtest.Git(t, f.Dir, "log", "--format=%s %an <%ae> %at", "HEAD")
	if want := "head reviewtest <reviewtest@example.com> 0\nbase reviewtest <reviewtest@example.com> 0\n"; log != want {
		t.Errorf("log:\n%s\nwant:\n%s", log, want)
	}
	if got := reviewtest.Git(t, f.Dir, "rev-parse", "main"); got != reviewtest.Git(t, f.Dir, "rev-parse", "HEAD~1") {
		t.Errorf("main is not the base commit")
	}
	status := reviewtest.Git(t, f.Dir, "status", "--porcelain", "--untracked-files=all")
	want := " M a.txt\nD  b.txt\nA  c.txt\n?? new.txt\n"
	if diff := cmp.Diff(want, status); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
	if got := reviewtest.Git(t, f.Dir, "show", "HEAD:a.txt"); got != "a2\n" {
		t.Errorf("HEAD:a.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(f.Dir, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("gone.txt still in the work tree: %v", err)
	}
	if string(f.Config) != "{\"profile\": \"full\"}\n" {
		t.Errorf("Config = %q", f.Config)
	}
	if diff := cmp.Diff(map[string][]byte{"out": []byte("expected\n")}, f.Golden); diff != "" {
		t.Errorf("Golden (-want +got):\n%s", diff)
	}
}

func TestRepoStableHashes(t *testing.T) {
	ar := txtar.Parse([]byte("-- base/a.txt --\na\n-- head/a.txt --\nb\n"))
	h1 := reviewtest.Git(t, reviewtest.RepoFromArchive(t, ar).Dir, "rev-parse", "HEAD")
	h2 := reviewtest.Git(t, reviewtest.RepoFromArchive(t, ar).Dir, "rev-parse", "HEAD")
	if h1 != h2 {
		t.Fatalf("hashes differ between builds: %s vs %s", h1, h2)
	}
	// The same commits made by the git binary, with the same identity and
	// date, have the same hashes.
	dir := t.TempDir()
	reviewtest.Git(t, dir, "init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reviewtest.Git(t, dir, "add", "a.txt")
	reviewtest.Git(t, dir, "commit", "-q", "-m", "base")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reviewtest.Git(t, dir, "commit", "-q", "-a", "-m", "head")
	if h3 := reviewtest.Git(t, dir, "rev-parse", "HEAD"); h3 != h1 {
		t.Errorf("git binary commit %s, fixture commit %s", h3, h1)
	}
}

func TestRepoDetachedAndUnborn(t *testing.T) {
	f := reviewtest.Repo(t, filepath.Join("..", "..", "testdata", "repos", "detached.txtar"))
	if got := reviewtest.Git(t, f.Dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "HEAD\n" {
		t.Errorf("HEAD is %q, want detached", got)
	}
	if got, want := reviewtest.Git(t, f.Dir, "rev-parse", "HEAD"), reviewtest.Git(t, f.Dir, "rev-parse", "topic"); got != want {
		t.Errorf("HEAD %s, topic %s", got, want)
	}

	u := reviewtest.Repo(t, filepath.Join("..", "..", "testdata", "repos", "unborn.txtar"))
	status := reviewtest.Git(t, u.Dir, "status", "--porcelain", "--untracked-files=all")
	if want := "A  go.mod\nAM main.go\n?? extra.txt\n"; status != want {
		t.Errorf("status:\n%s\nwant:\n%s", status, want)
	}
}

func TestUpdateGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.txtar")
	src := "Prose.\n-- base/a.txt --\na\n-- @golden/one --\nold\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f := reviewtest.Repo(t, path)
	f.UpdateGolden(t, "one", []byte("new\n"))
	f.UpdateGolden(t, "two", []byte("added"))
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "Prose.\n-- base/a.txt --\na\n-- @golden/one --\nnew\n-- @golden/two --\nadded\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("file (-want +got):\n%s", diff)
	}
	if string(f.Golden["two"]) != "added" {
		t.Errorf("Golden[two] = %q", f.Golden["two"])
	}
}

func TestGitIsolated(t *testing.T) {
	t.Setenv("GIT_DIR", "/nonexistent")
	dir := t.TempDir()
	reviewtest.Git(t, dir, "init", "-q")
	cfg := reviewtest.Git(t, dir, "config", "--list", "--show-origin")
	for _, line := range strings.Split(cfg, "\n") {
		if strings.HasPrefix(line, "file:") && !strings.HasPrefix(line, "file:.git/config") {
			t.Errorf("config read from outside the repository: %s", line)
		}
	}
	if got := reviewtest.GitEnv(t, dir, []string{"GIT_AUTHOR_NAME=other"}, "var", "GIT_AUTHOR_IDENT"); !strings.HasPrefix(got, "other <reviewtest@example.com> 0 +0000") {
		t.Errorf("GIT_AUTHOR_IDENT = %q", got)
	}
}
