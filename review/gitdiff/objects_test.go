package gitdiff

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// upstream makes a repository with four commits touching a.txt and
// d/b.txt, packed, and returns it.
func upstream(t *testing.T) string {
	t.Helper()
	dir := initRepo(t)
	for i, s := range []string{"one", "two", "three", "four"} {
		write(t, dir, map[string]string{"a.txt": s + "\n", "d/b.txt": strings.Repeat(s+"\n", i+1)})
		commitAll(t, dir, s)
	}
	runGit(t, dir, "gc", "-q")
	return dir
}

// checkBorrowed checks that the clone at dir reviews right although its
// objects live elsewhere: local changes, a branch diff from its root
// commit named by an abbreviated hash (compared with git diff, which git
// runs), and the history of a file.
func checkBorrowed(t *testing.T, dir string, opts Options, git func(t testing.TB, dir string, args ...string) string) {
	t.Helper()
	write(t, dir, map[string]string{"a.txt": "five\n"})
	r := open(t, dir, opts)
	cs := scan(t, r, resolve(t, r, false, ""), nil)
	if len(cs.Files) != 1 || cs.Files[0].Path != "a.txt" || cs.Files[0].Skip != "" || cs.Files[0].Added != 1 {
		t.Fatalf("local review: %+v", cs.Files)
	}
	root := strings.TrimSpace(git(t, dir, "rev-list", "--max-parents=0", "HEAD"))
	tg := resolve(t, r, false, root[:8])
	if tg.BaseSHA != root {
		t.Errorf("base %s, want %s", tg.BaseSHA, root)
	}
	cs = scan(t, r, tg, nil)
	want := strings.Fields(git(t, dir, "diff", "--name-only", root))
	if got := paths2(cs); !cmp.Equal(got, want) {
		t.Errorf("branch diff files %v, git diff %v", got, want)
	}
	for _, f := range cs.Files {
		if f.Skip != "" {
			t.Errorf("%s skipped: %s", f.Path, f.Skip)
		}
	}
	h, err := r.History(t.Context(), []string{"d/b.txt"}, 0)
	if err != nil || len(h.Commits) != 4 {
		t.Errorf("History = %+v, %v", h, err)
	}
}

func paths2(cs *review.ChangeSet) []string {
	var out []string
	for _, f := range cs.Files {
		out = append(out, f.Path)
	}
	return out
}

func TestAlternates(t *testing.T) {
	up := upstream(t)
	base := t.TempDir()

	// git clone --shared: every object lives in the upstream repository,
	// named by an absolute path.
	shared := filepath.Join(base, "shared")
	runGit(t, base, "clone", "-q", "--shared", up, shared)
	if _, err := os.Stat(filepath.Join(shared, ".git", "objects", "info", "alternates")); err != nil {
		t.Fatal(err)
	}
	checkBorrowed(t, shared, Options{}, runGit)

	// git clone --reference over a transport: only what the reference
	// lacks is fetched.
	ref := filepath.Join(base, "ref")
	runGit(t, base, "clone", "-q", "--reference", up, "file://"+up, ref)
	checkBorrowed(t, ref, Options{}, runGit)

	// A relative entry is relative to the objects directory holding the
	// alternates file.
	rel, err := filepath.Rel(filepath.Join(shared, ".git", "objects"), filepath.Join(up, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, shared, map[string]string{".git/objects/info/alternates": "# upstream\n\n" + rel + "\n"})
	checkBorrowed(t, shared, Options{}, runGit)

	// Chained: a clone of the shared clone borrows from it, and through
	// its alternates from the upstream; the newest commit lives only in
	// the middle one.
	write(t, shared, map[string]string{"a.txt": "four\n", "c.txt": "c\n"})
	commitAll(t, shared, "five")
	chained := filepath.Join(base, "chained")
	runGit(t, base, "clone", "-q", "--shared", shared, chained)
	checkBorrowed(t, chained, Options{}, runGit)

	// $GIT_ALTERNATE_OBJECT_DIRECTORIES, relative to the top of the work
	// tree; without it the objects are missing.
	envClone := filepath.Join(base, "env")
	runGit(t, base, "clone", "-q", "--shared", up, envClone)
	remove(t, envClone, ".git/objects/info/alternates")
	if _, err := Open(envClone, Options{}); err == nil {
		r := open(t, envClone, Options{})
		if _, err := r.Resolve(t.Context(), false, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Scan(t.Context(), resolve(t, r, false, ""), nil); !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Fatalf("scan without the alternates = %v, want object not found", err)
		}
	}
	relUp, err := filepath.Rel(envClone, filepath.Join(up, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	alts := "/nonexistent:" + relUp
	checkBorrowed(t, envClone, Options{Env: Env{AlternateObjectDirectories: alts}}, gitWith("GIT_ALTERNATE_OBJECT_DIRECTORIES="+alts))

	// An alternate that is gone is named in the error.
	gone := filepath.Join(base, "gone")
	runGit(t, base, "clone", "-q", "--shared", up, gone)
	write(t, gone, map[string]string{".git/objects/info/alternates": filepath.Join(base, "moved", "objects") + "\n"})
	r := open(t, gone, Options{})
	_, err = r.Scan(t.Context(), resolve(t, r, false, ""), nil)
	if err == nil || !strings.Contains(err.Error(), "moved/objects named by objects/info/alternates does not exist") {
		t.Errorf("scan with a missing alternate = %v", err)
	}
}

func TestSplitAlternates(t *testing.T) {
	tests := []struct {
		in   string
		sep  byte
		want []string
	}{
		{"/a/objects\n../b/objects\n", '\n', []string{"/a/objects", "../b/objects"}},
		{"# comment\n\n/a\n", '\n', []string{"/a"}},
		{`"/with\nnewline"` + "\n/b", '\n', []string{"/with\nnewline", "/b"}},
		{`"/x:y":/z`, ':', []string{"/x:y", "/z"}},
		{"/a::/b:", ':', []string{"/a", "/b"}},
		{`"unterminated`, '\n', []string{`"unterminated`}},
		{"", '\n', nil},
	}
	for _, tc := range tests {
		if got := splitAlternates(tc.in, tc.sep); !cmp.Equal(got, tc.want) {
			t.Errorf("splitAlternates(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestResolveShallow(t *testing.T) {
	up := upstream(t)
	// A side branch forked from the third commit.
	runGit(t, up, "checkout", "-q", "-b", "side", "HEAD~1")
	write(t, up, map[string]string{"side.txt": "s\n"})
	commitAll(t, up, "side")
	runGit(t, up, "checkout", "-q", "main")
	fork := strings.TrimSpace(runGit(t, up, "rev-parse", "main~1"))

	dir := filepath.Join(t.TempDir(), "shallow")
	runGit(t, up, "clone", "-q", "--depth", "2", "--no-single-branch", "file://"+up, dir)
	r := open(t, dir, Options{})

	// The merge-base lies within the shallow history: found, although the
	// history beyond it is not local.
	tg := resolve(t, r, false, "origin/side")
	if tg.BaseSHA != fork {
		t.Errorf("merge base with origin/side = %s, want %s", tg.BaseSHA, fork)
	}
	if tg := resolve(t, r, false, "HEAD~1"); tg.BaseSHA != fork {
		t.Errorf("HEAD~1 = %s, want %s", tg.BaseSHA, fork)
	}

	// Beyond the boundary: say so, and how to deepen.
	_, err := r.Resolve(t.Context(), false, "HEAD~3")
	if err == nil || !strings.Contains(err.Error(), "beyond the history of this shallow clone") || !strings.Contains(err.Error(), "git fetch --deepen=<N>") {
		t.Errorf("Resolve(HEAD~3) = %v", err)
	}
	runGit(t, dir, "checkout", "-q", "--orphan", "other")
	runGit(t, dir, "commit", "-q", "-m", "other")
	_, err = r.Resolve(t.Context(), false, "main")
	if err == nil || !strings.Contains(err.Error(), "no common ancestor within the history of this shallow clone") || !strings.Contains(err.Error(), "git fetch --unshallow") {
		t.Errorf("Resolve(main) from an unrelated branch = %v", err)
	}

	// Outside a shallow clone an unrelated history is just that.
	runGit(t, up, "checkout", "-q", "--orphan", "other")
	runGit(t, up, "commit", "-q", "-m", "other")
	ru := open(t, up, Options{})
	if _, err := ru.Resolve(t.Context(), false, "main"); err == nil || strings.Contains(err.Error(), "shallow") || !strings.Contains(err.Error(), "no common ancestor") {
		t.Errorf("Resolve(main) in a full clone = %v", err)
	}
}

func TestMergeBaseCrissCross(t *testing.T) {
	// Two merge-bases, as git merge-base --all reports them.
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "0\n"})
	commitAll(t, dir, "root")
	runGit(t, dir, "checkout", "-q", "-b", "b1")
	write(t, dir, map[string]string{"b1.txt": "1\n"})
	commitAll(t, dir, "b1")
	runGit(t, dir, "checkout", "-q", "-b", "b2", "main")
	write(t, dir, map[string]string{"b2.txt": "2\n"})
	commitAll(t, dir, "b2")
	runGit(t, dir, "checkout", "-q", "-b", "x", "b1")
	runGit(t, dir, "merge", "-q", "--no-edit", "b2")
	runGit(t, dir, "checkout", "-q", "-b", "y", "b2")
	runGit(t, dir, "merge", "-q", "--no-edit", "b1")
	want := strings.Fields(runGit(t, dir, "merge-base", "--all", "x", "y"))

	r := open(t, dir, Options{})
	r.objMu.Lock()
	defer r.objMu.Unlock()
	w, err := r.newMergeBaseWalker()
	if err != nil {
		t.Fatal(err)
	}
	x, _ := r.repo.CommitObject(plumbing.NewHash(strings.TrimSpace(runGit(t, dir, "rev-parse", "x"))))
	y, _ := r.repo.CommitObject(plumbing.NewHash(strings.TrimSpace(runGit(t, dir, "rev-parse", "y"))))
	mbs, err := w.mergeBases(x, y)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range mbs {
		got = append(got, c.Hash.String())
	}
	slices.Sort(got)
	slices.Sort(want)
	if !cmp.Equal(got, want) {
		t.Errorf("merge bases %v, want %v", got, want)
	}
}

func TestPartialClone(t *testing.T) {
	up := upstream(t)
	runGit(t, up, "config", "uploadpack.allowFilter", "true")
	base := t.TempDir()

	// Blobless: the base versions of a.txt and d/b.txt were never
	// fetched. They are skipped with the reason and how to fetch them; the
	// rest is reviewed.
	blobless := filepath.Join(base, "blobless")
	runGit(t, base, "clone", "-q", "--filter=blob:none", "file://"+up, blobless)
	write(t, blobless, map[string]string{"new.txt": "new\n"})
	r := open(t, blobless, Options{})
	cs := scan(t, r, resolve(t, r, false, "HEAD~3"), nil)
	var skipped, reviewed []string
	for _, f := range cs.Files {
		if f.Skip == "" {
			reviewed = append(reviewed, f.Path)
			continue
		}
		skipped = append(skipped, f.Path)
		if skip := f.Skip.String(); !strings.HasPrefix(skip, "partial clone: blob ") || !strings.Contains(skip, " is not local; 'git cat-file -e ") {
			t.Errorf("%s: skip reason %q", f.Path, f.Skip)
		}
	}
	if !cmp.Equal(skipped, []string{"a.txt", "d/b.txt"}) || !cmp.Equal(reviewed, []string{"new.txt"}) {
		t.Errorf("skipped %q, reviewed %q", skipped, reviewed)
	}
	// Local changes need only what the checkout fetched.
	if cs := scan(t, r, resolve(t, r, false, ""), nil); len(cs.Files) != 1 || cs.Files[0].Skip != "" {
		t.Errorf("local review: %+v", cs.Files)
	}

	// Treeless: the base tree itself is missing; the error says so.
	treeless := filepath.Join(base, "treeless")
	runGit(t, base, "clone", "-q", "--filter=tree:0", "file://"+up, treeless)
	r = open(t, treeless, Options{})
	_, err := r.Scan(t.Context(), resolve(t, r, false, "HEAD~3"), nil)
	if err == nil || !strings.Contains(err.Error(), "partial clone: tree ") || !strings.Contains(err.Error(), "'git ls-tree -r ") {
		t.Errorf("treeless branch diff = %v", err)
	}
}
