package gitdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reviewls/reviewls/internal/treetest"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// TestMain isolates the package's tests from the machine's git
// configuration: this package reads HOME, XDG_CONFIG_HOME and
// GIT_CONFIG_NOSYSTEM as git does.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "gitdiff-home")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("HOME", home)
	os.Unsetenv("XDG_CONFIG_HOME")
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") && k != "GIT_CONFIG_NOSYSTEM" {
			os.Unsetenv(k)
		}
	}
	code := m.Run()
	for _, f := range cleanupHooks {
		f()
	}
	os.RemoveAll(home)
	os.Exit(code)
}

// cleanupHooks run when all tests and benchmarks are done.
var cleanupHooks []func()

// runGit runs the git binary in dir (see [reviewtest.Git]).
func runGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return reviewtest.Git(t, dir, args...)
}

// gitEnv runs git in dir with the current HOME and XDG_CONFIG_HOME, for
// tests that configure them with t.Setenv.
func gitEnv(t testing.TB, dir string, args ...string) string {
	t.Helper()
	env := []string{"HOME=" + os.Getenv("HOME")}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		env = append(env, "XDG_CONFIG_HOME="+x)
	}
	return reviewtest.GitEnv(t, dir, env, args...)
}

// initRepo creates an empty repository.
func initRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	runGit(t, dir, "init", "-q")
	return dir
}

// write writes files (path -> content) under dir, creating directories.
func write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	treetest.Write(t, dir, files)
}

func remove(t testing.TB, dir string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.RemoveAll(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t testing.TB, dir, target, link string) {
	t.Helper()
	abs := filepath.Join(dir, filepath.FromSlash(link))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, abs); err != nil {
		t.Fatal(err)
	}
}

// commitAll stages everything and commits.
func commitAll(t testing.TB, dir, msg string) {
	t.Helper()
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
}

func open(t testing.TB, dir string, opts Options) *Repo {
	t.Helper()
	r, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func resolve(t testing.TB, r *Repo, staged bool, base string) review.Target {
	t.Helper()
	tg, err := r.Resolve(t.Context(), staged, base)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func scan(t testing.TB, r *Repo, tg review.Target, overlay map[string][]byte) *review.ChangeSet {
	t.Helper()
	cs, err := r.Scan(t.Context(), tg, overlay)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// gitStatus runs `git status --porcelain=v2 --untracked-files=all` and
// translates it into the Changes Status should return for a local review.
// git lists a path deleted from the index and present untracked twice;
// Status lists it once (modified, staged and untracked), as does this.
// env holds the variables run sets for git (GIT_DIR, ...), which the
// rename round needs as well.
func gitStatus(t testing.TB, dir string, run func(t testing.TB, dir string, args ...string) string, env ...string) []Change {
	t.Helper()
	out := run(t, dir, "status", "--porcelain=v2", "--untracked-files=all", "-z")
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	byPath := map[string]*Change{}
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "" {
			continue
		}
		switch f[0] {
		case '1', '2':
			n := 9
			if f[0] == '2' {
				n = 10
			}
			parts := strings.SplitN(f, " ", n)
			xy, sub, p := parts[1], parts[2], parts[n-1]
			c := &Change{Path: p, Staged: xy[0] != '.', Unstaged: xy[1] != '.', Submodule: sub[0] == 'S'}
			switch {
			case xy[0] == 'R':
				c.Status = review.StatusRenamed
				c.Similarity, _ = strconv.Atoi(parts[8][1:])
				i++
				c.OldPath = fields[i]
			case xy[0] == 'A' && xy[1] == 'D':
				continue // added, then deleted: no change left
			case xy[0] == 'A', xy[1] == 'A':
				c.Status = review.StatusAdded
			case xy[0] == 'D', xy[1] == 'D':
				c.Status = review.StatusDeleted
			default:
				c.Status = review.StatusModified
			}
			byPath[p] = c
		case 'u':
			parts := strings.SplitN(f, " ", 11)
			byPath[parts[10]] = &Change{Path: parts[10], Status: review.StatusModified, Unstaged: true, Conflicted: true}
		case '?':
			p := f[2:]
			nested := strings.HasSuffix(p, "/")
			p = strings.TrimSuffix(p, "/")
			if c, ok := byPath[p]; ok && c.Status == review.StatusDeleted {
				c.Status, c.Untracked = review.StatusModified, true
				continue
			}
			byPath[p] = &Change{Path: p, Status: review.StatusUntracked, Untracked: true, Nested: nested}
		}
	}
	workTreeRenames(t, dir, run, env, byPath)
	var out2 []Change
	for _, c := range byPath {
		out2 = append(out2, *c)
	}
	sort.Slice(out2, func(i, j int) bool { return out2[i].Path < out2[j].Path })
	return out2
}

// workTreeRenames pairs the deleted and the added or untracked paths of a
// git status as Status's work tree round does: git's renames among those
// paths once they are staged, in a copy of the index.
func workTreeRenames(t testing.TB, dir string, run func(t testing.TB, dir string, args ...string) string, vars []string, byPath map[string]*Change) {
	t.Helper()
	var srcs, dsts []string
	for p, c := range byPath {
		switch {
		case c.Status == review.StatusDeleted:
			srcs = append(srcs, p)
		case (c.Status == review.StatusAdded || c.Status == review.StatusUntracked) && !c.Nested && !c.Submodule:
			dsts = append(dsts, p)
		}
	}
	if len(srcs) == 0 || len(dsts) == 0 {
		return
	}
	gitDir := strings.TrimSpace(run(t, dir, "rev-parse", "--absolute-git-dir"))
	tmp := filepath.Join(t.TempDir(), "index")
	index := filepath.Join(gitDir, "index")
	for _, v := range vars {
		if p, ok := strings.CutPrefix(v, "GIT_INDEX_FILE="); ok {
			index = p
			if !filepath.IsAbs(p) {
				index = filepath.Join(dir, p)
			}
		}
	}
	if b, err := os.ReadFile(index); err == nil {
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(slices.Clone(vars), "GIT_INDEX_FILE="+tmp, "HOME="+os.Getenv("HOME"))
	paths := append(append([]string{"--"}, srcs...), dsts...)
	reviewtest.GitEnv(t, dir, env, "add", "-A")
	out := reviewtest.GitEnv(t, dir, env, append([]string{"diff", "--cached", "-z", "--name-status", "HEAD"}, paths...)...)
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	for i := 0; i < len(fields); i++ {
		if !strings.HasPrefix(fields[i], "R") || i+2 >= len(fields) {
			continue
		}
		score, _ := strconv.Atoi(fields[i][1:])
		from, to := fields[i+1], fields[i+2]
		i += 2
		src, dst := byPath[from], byPath[to]
		if src == nil || dst == nil {
			continue
		}
		dst.Status, dst.OldPath, dst.Similarity = review.StatusRenamed, from, score
		dst.Staged = dst.Staged || src.Staged
		dst.Unstaged = dst.Unstaged || src.Unstaged
		delete(byPath, from)
	}
}

// statusOf runs Status on a fresh Repo for the local target.
func statusOf(t testing.TB, dir string, opts Options) []Change {
	t.Helper()
	r := open(t, dir, opts)
	changes, err := r.Status(t.Context(), resolve(t, r, false, ""))
	if err != nil {
		t.Fatal(err)
	}
	return changes
}

// checkStatus compares Status with git status in dir. Status runs first:
// git status may rewrite the index (refreshing its stat data).
func checkStatus(t *testing.T, dir string) {
	t.Helper()
	checkStatusWith(t, dir, runGit)
}

func checkStatusWith(t *testing.T, dir string, run func(t testing.TB, dir string, args ...string) string) {
	t.Helper()
	got := statusOf(t, dir, Options{})
	want := gitStatus(t, dir, run)
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Change{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Status differs from git status (-git +Status):\n%s", diff)
	}
	// A second scan, after git refreshed the index, agrees too.
	got = statusOf(t, dir, Options{})
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Change{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Status after git status differs (-git +Status):\n%s", diff)
	}
}

// fileOpts compares review files without their memo and content.
var fileOpts = cmp.Options{
	cmpopts.IgnoreUnexported(review.File{}, review.ChangeSet{}),
	cmpopts.IgnoreFields(review.File{}, "Base"), // TestFileBase checks it
	cmpopts.EquateEmpty(),
}
