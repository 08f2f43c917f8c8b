package gitdiff

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

func TestOpenNotRepository(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(dir, Options{})
	if !errors.Is(err, review.ErrNotRepository) {
		t.Fatalf("Open(%s) error = %v, want review.ErrNotRepository", dir, err)
	}
	if !strings.Contains(err.Error(), dir) {
		t.Errorf("error %q does not name %s", err, dir)
	}
	if _, err := Open(filepath.Join(dir, "missing"), Options{}); err == nil || errors.Is(err, review.ErrNotRepository) {
		t.Errorf("Open(missing dir) error = %v, want a not-exist error", err)
	}
	// An empty .git directory is not a repository, as for git.
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, Options{}); !errors.Is(err, review.ErrNotRepository) {
		t.Errorf("Open with an empty .git = %v", err)
	}
	if _, err := Open(dir, Options{SizeCap: -1}); err == nil {
		t.Error("negative size cap accepted")
	}
	if _, err := Open(dir, Options{Ignore: []string{"a/[b"}}); err == nil {
		t.Error("bad glob accepted")
	}
}

func TestOpenFromSubdirectory(t *testing.T) {
	f := reviewtest.Repo(t, "../../testdata/repos/mixed.txtar")
	r := open(t, filepath.Join(f.Dir, "app"), Options{})
	if r.Root() != f.Dir || r.GitDir() != filepath.Join(f.Dir, ".git") || r.CommonDir() != r.GitDir() {
		t.Errorf("Root %s GitDir %s CommonDir %s", r.Root(), r.GitDir(), r.CommonDir())
	}
	hooks, err := r.HooksDir()
	if err != nil || hooks != filepath.Join(f.Dir, ".git", "hooks") {
		t.Errorf("HooksDir = %s, %v", hooks, err)
	}
	runGit(t, f.Dir, "config", "core.hooksPath", ".githooks")
	if hooks, _ := r.HooksDir(); hooks != filepath.Join(f.Dir, ".githooks") {
		t.Errorf("HooksDir with core.hooksPath = %s", hooks)
	}
}

func TestOpenRepositoryExtensions(t *testing.T) {
	// go-git refuses repositories with extensions it does not know; Open
	// must not.
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n"})
	commitAll(t, dir, "init")
	runGit(t, dir, "config", "core.repositoryFormatVersion", "1")
	runGit(t, dir, "config", "extensions.worktreeConfig", "true")
	write(t, dir, map[string]string{".git/config.worktree": "[core]\n\tfileMode = false\n"})
	if err := os.Chmod(filepath.Join(dir, "a.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "")
	changes, err := r.Status(t.Context(), tg)
	if err != nil {
		t.Fatal(err)
	}
	// core.fileMode=false from config.worktree: the mode change is ignored.
	if len(changes) != 0 {
		t.Errorf("changes = %v", paths(changes))
	}
	checkStatus(t, dir)

	runGit(t, dir, "config", "extensions.objectFormat", "sha256")
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("Open of a sha256 repository = %v", err)
	}
}

func TestResolve(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "1\n"})
	commitAll(t, dir, "one")
	runGit(t, dir, "tag", "-a", "-m", "v1", "v1")
	runGit(t, dir, "checkout", "-q", "-b", "feat/x")
	write(t, dir, map[string]string{"a.txt": "2\n"})
	commitAll(t, dir, "two")
	one := strings.TrimSpace(runGit(t, dir, "rev-parse", "main"))
	two := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
	r := open(t, dir, Options{})

	tests := []struct {
		staged bool
		base   string
		want   review.Target
	}{
		{false, "", review.Target{Kind: review.LocalChanges, Provider: "unknown", BaseRef: "HEAD", HeadRef: "refs/heads/feat/x", HeadSHA: two, BaseSHA: two, Branch: "feat/x"}},
		{true, "", review.Target{Kind: review.LocalChanges, Provider: "unknown", BaseRef: "HEAD", HeadRef: "refs/heads/feat/x", HeadSHA: two, BaseSHA: two, Branch: "feat/x", Staged: true}},
		{false, "main", review.Target{Kind: review.BranchDiff, Provider: "unknown", BaseRef: "main", HeadRef: "refs/heads/feat/x", HeadSHA: two, BaseSHA: one, Branch: "feat/x"}},
		{false, "v1", review.Target{Kind: review.BranchDiff, Provider: "unknown", BaseRef: "v1", HeadRef: "refs/heads/feat/x", HeadSHA: two, BaseSHA: one, Branch: "feat/x"}},
		{false, "HEAD~1", review.Target{Kind: review.BranchDiff, Provider: "unknown", BaseRef: "HEAD~1", HeadRef: "refs/heads/feat/x", HeadSHA: two, BaseSHA: one, Branch: "feat/x"}},
		{false, one[:10], review.Target{Kind: review.BranchDiff, Provider: "unknown", BaseRef: one[:10], HeadRef: "refs/heads/feat/x", HeadSHA: two, BaseSHA: one, Branch: "feat/x"}},
	}
	for _, tc := range tests {
		got, err := r.Resolve(t.Context(), tc.staged, tc.base)
		if err != nil {
			t.Errorf("Resolve(%v, %q): %v", tc.staged, tc.base, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Resolve(%v, %q) (-want +got):\n%s", tc.staged, tc.base, diff)
		}
	}

	_, err := r.Resolve(t.Context(), false, "nope")
	if err == nil || err.Error() != `resolve revision "nope": reference not found` {
		t.Errorf("bad ref error = %v", err)
	}
	if _, err := r.Resolve(t.Context(), true, "main"); err == nil {
		t.Error("a staged branch diff resolved")
	}
	// Branch diffs need a commit.
	u := reviewtest.Repo(t, "../../testdata/repos/unborn.txtar")
	ru := open(t, u.Dir, Options{})
	if _, err := ru.Resolve(t.Context(), false, "HEAD"); err == nil {
		t.Error("branch diff of an unborn repository resolved")
	}
}

func TestHistory(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "1\n", "d/b.txt": "1\n", "c.txt": "1\n"})
	commitAll(t, dir, "one")
	for i, p := range []string{"a.txt", "c.txt", "d/b.txt", "a.txt", "c.txt"} {
		write(t, dir, map[string]string{p: strings.Repeat("x", i+2) + "\n"})
		runGit(t, dir, "add", "-A")
		runGit(t, dir, "commit", "-q", "-m", "edit "+p+"\n\nbody")
	}
	r := open(t, dir, Options{})

	h, err := r.History(t.Context(), []string{"a.txt", "d"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range h.Commits {
		got = append(got, c.Subject+" "+strings.Join(c.Paths, ","))
		if c.Author != reviewtest.Signature.Name || len(c.Hash) != 40 {
			t.Errorf("commit %+v", c)
		}
	}
	want := []string{"edit a.txt a.txt", "edit d/b.txt d", "edit a.txt a.txt", "one a.txt,d"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	if !h.Available || h.Shallow || h.Limit != 6 {
		t.Errorf("history = available %v shallow %v limit %d", h.Available, h.Shallow, h.Limit)
	}

	// The limit bounds the commits examined.
	h, err = r.History(t.Context(), []string{"a.txt"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if h.Limit != 2 || len(h.Commits) != 1 {
		t.Errorf("limited history: examined %d, found %d", h.Limit, len(h.Commits))
	}

	// A shallow clone stops at its boundary.
	clone := filepath.Join(t.TempDir(), "clone")
	runGit(t, dir, "clone", "-q", "--depth", "2", "file://"+dir, clone)
	rc := open(t, clone, Options{})
	h, err = rc.History(t.Context(), []string{"c.txt"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Shallow || !h.Available || len(h.Commits) != 1 || h.Commits[0].Subject != "edit c.txt" {
		t.Errorf("shallow history = %+v", h)
	}
	h, err = rc.History(t.Context(), []string{"d/b.txt"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Shallow || h.Available || h.Reason == "" {
		t.Errorf("shallow history without a match = %+v", h)
	}

	u := reviewtest.Repo(t, "../../testdata/repos/unborn.txtar")
	h, err = open(t, u.Dir, Options{}).History(t.Context(), []string{"main.go"}, 0)
	if err != nil || h.Available || h.Reason != "no commits yet" {
		t.Errorf("unborn history = %+v, %v", h, err)
	}
}

func TestHistoryMerge(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "1\n", "b.txt": "1\n"})
	commitAll(t, dir, "one")
	runGit(t, dir, "checkout", "-q", "-b", "side")
	write(t, dir, map[string]string{"b.txt": "side\n"})
	commitAll(t, dir, "side edits b")
	runGit(t, dir, "checkout", "-q", "main")
	write(t, dir, map[string]string{"a.txt": "main\n"})
	commitAll(t, dir, "main edits a")
	runGit(t, dir, "merge", "-q", "--no-edit", "side")
	h, err := open(t, dir, Options{}).History(t.Context(), []string{"a.txt", "b.txt"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, c := range h.Commits {
		subjects = append(subjects, c.Subject)
	}
	// The merge took each file unchanged from one side: it touched neither.
	if want := []string{"main edits a", "side edits b", "one"}; !cmp.Equal(subjects, want) {
		t.Errorf("subjects = %v", subjects)
	}
}

// TestHistoryAcrossCalls: the commits and trees History keeps between
// calls give the same answers as a fresh repository, for other paths and
// after a new commit moves HEAD (the language server's long-lived Repo).
func TestHistoryAcrossCalls(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "1\n", "d/b.txt": "1\n"})
	commitAll(t, dir, "one")
	write(t, dir, map[string]string{"d/b.txt": "2\n"})
	commitAll(t, dir, "two")
	subjects := func(r *Repo, paths ...string) []string {
		t.Helper()
		h, err := r.History(t.Context(), paths, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range h.Commits {
			out = append(out, c.Subject+" "+strings.Join(c.Paths, ","))
		}
		return out
	}
	r := open(t, dir, Options{})
	subjects(r, "a.txt")
	if diff := cmp.Diff(subjects(open(t, dir, Options{}), "d/b.txt"), subjects(r, "d/b.txt")); diff != "" {
		t.Errorf("second call (-fresh +kept):\n%s", diff)
	}
	write(t, dir, map[string]string{"a.txt": "3\n", "d/b.txt": "3\n"})
	commitAll(t, dir, "three")
	want := []string{"three d/b.txt", "two d/b.txt", "one d/b.txt"}
	if diff := cmp.Diff(want, subjects(r, "d/b.txt")); diff != "" {
		t.Errorf("after a commit (-want +got):\n%s", diff)
	}
}

// TestResolveHeadFromFiles checks the local target read from the ref
// files against go-git's reading of HEAD, in the states HEAD can be in.
func TestResolveHeadFromFiles(t *testing.T) {
	dir := initRepo(t)
	check := func(state string) {
		t.Helper()
		r := open(t, dir, Options{})
		st, err := readHead(r.gitDir, r.commonDir)
		if err != nil {
			t.Fatalf("%s: readHead: %v", state, err)
		}
		base := review.Target{Kind: review.LocalChanges, Provider: "unknown", BaseRef: "HEAD"}
		want, err := r.resolveHead(base)
		if err != nil {
			t.Fatalf("%s: go-git: %v", state, err)
		}
		if diff := cmp.Diff(want, headTarget(base, st)); diff != "" {
			t.Errorf("%s: from the files (-go-git +files):\n%s", state, diff)
		}
		if got, err := r.Resolve(t.Context(), false, ""); err != nil || !cmp.Equal(want, got) {
			t.Errorf("%s: Resolve = %+v, %v; want %+v", state, got, err, want)
		}
	}
	check("unborn")
	write(t, dir, map[string]string{"a.txt": "1\n"})
	commitAll(t, dir, "one")
	check("a branch")
	runGit(t, dir, "checkout", "-q", "-b", "feat/deep/x")
	check("a nested branch name")
	runGit(t, dir, "pack-refs", "--all")
	check("packed refs")
	runGit(t, dir, "symbolic-ref", "refs/heads/alias", "refs/heads/feat/deep/x")
	runGit(t, dir, "symbolic-ref", "HEAD", "refs/heads/alias")
	check("a symbolic ref to a symbolic ref")
	runGit(t, dir, "checkout", "-q", "--detach")
	check("detached")
	runGit(t, dir, "checkout", "-q", "--orphan", "fresh")
	check("an orphan branch")
	wt := filepath.Join(t.TempDir(), "wt")
	runGit(t, dir, "worktree", "add", "-q", "-b", "other", wt, "main")
	dir = wt
	check("a linked worktree")
}
