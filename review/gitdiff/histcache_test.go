package gitdiff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// histGen builds a git history with the git CLI: edits, adds, deletes,
// renames, a file that becomes a directory, merges (clean ones, and ones
// that keep one side with -s ours), an unrelated root merged in, empty
// commits, and committer times that tie and go backwards.
type histGen struct {
	t     testing.TB
	dir   string
	rng   *rand.Rand
	when  int64
	n     int
	files []string // tracked files of the current branch
	ever  map[string]bool
}

func newHistGen(t testing.TB, seed uint64) *histGen {
	g := &histGen{t: t, dir: initRepo(t), rng: rand.New(rand.NewPCG(seed, 1)), when: 1_600_000_000, ever: map[string]bool{}}
	runGit(t, g.dir, "checkout", "-q", "-b", "main")
	return g
}

// git runs git with the next commit time: mostly later, sometimes the
// same second, sometimes earlier (a skewed clock).
func (g *histGen) git(args ...string) string {
	g.t.Helper()
	switch r := g.rng.IntN(10); {
	case r == 0:
	case r == 1:
		g.when -= 500
	default:
		g.when += int64(1 + g.rng.IntN(3600))
	}
	date := fmt.Sprintf("@%d +0000", g.when)
	return reviewtest.GitEnv(g.t, g.dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, args...)
}

// names are the paths the generator picks from: siblings whose names sort
// between a directory and its children ("d-x", "d.go" beside "d/").
var histNames = []string{"a.txt", "d/b.txt", "d/e/c.go", "d/e/f/g.go", "d-x/q.txt", "d.go", "x/y/z.md", "top", "d/e2.txt", "vendor/m/n.go"}

func (g *histGen) pick() string { return g.files[g.rng.IntN(len(g.files))] }

func (g *histGen) fresh() string {
	for {
		p := histNames[g.rng.IntN(len(histNames))]
		if g.rng.IntN(3) == 0 {
			p = path.Join(path.Dir(p), fmt.Sprintf("n%d_%s", g.n, path.Base(p)))
		}
		if !slices.Contains(g.files, p) && !g.conflicts(p) {
			return p
		}
	}
}

// conflicts reports whether p would be a file below a file or a directory
// above one.
func (g *histGen) conflicts(p string) bool {
	for _, f := range g.files {
		if strings.HasPrefix(f, p+"/") || strings.HasPrefix(p, f+"/") {
			return true
		}
	}
	return false
}

func (g *histGen) edit(p string) {
	g.n++
	write(g.t, g.dir, map[string]string{p: fmt.Sprintf("%s %d\n", p, g.n)})
	if !slices.Contains(g.files, p) {
		g.files = append(g.files, p)
	}
	g.ever[p] = true
}

func (g *histGen) commit(msg string) {
	g.t.Helper()
	runGit(g.t, g.dir, "add", "-A")
	g.git("commit", "-q", "--allow-empty", "-m", msg+"\n\nbody of "+msg)
}

func (g *histGen) reload() {
	g.files = strings.Fields(runGit(g.t, g.dir, "ls-files"))
}

// step makes one or a few commits.
func (g *histGen) step() {
	g.n++
	switch op := g.rng.IntN(12); {
	case len(g.files) == 0 || op < 3:
		g.edit(g.fresh())
		g.commit(fmt.Sprintf("add %d", g.n))
	case op < 6:
		for range 1 + g.rng.IntN(3) {
			g.edit(g.pick())
		}
		g.commit(fmt.Sprintf("edit %d", g.n))
	case op == 6 && len(g.files) > 2:
		runGit(g.t, g.dir, "rm", "-q", g.pick())
		g.reload()
		g.commit(fmt.Sprintf("delete %d", g.n))
	case op == 7:
		from, to := g.pick(), g.fresh()
		if err := os.MkdirAll(filepath.Join(g.dir, path.Dir(to)), 0o755); err != nil {
			g.t.Fatal(err)
		}
		runGit(g.t, g.dir, "mv", from, to)
		g.reload()
		g.ever[to] = true
		g.commit(fmt.Sprintf("rename %d", g.n))
	case op == 8:
		// A file becomes a directory.
		p := g.pick()
		runGit(g.t, g.dir, "rm", "-q", p)
		g.reload()
		g.edit(p + "/inner.txt")
		g.commit(fmt.Sprintf("file to dir %d", g.n))
	case op == 9 || op == 10:
		g.merge(op == 10)
	default:
		g.commit(fmt.Sprintf("empty %d", g.n))
	}
}

// merge commits on a side branch and on main, then merges; ours keeps
// main's tree whole.
func (g *histGen) merge(ours bool) {
	base := slices.Clone(g.files)
	branch := fmt.Sprintf("side%d", g.n)
	runGit(g.t, g.dir, "checkout", "-q", "-b", branch)
	sideTouched := map[string]bool{}
	for range 1 + g.rng.IntN(2) {
		p := g.pick()
		if g.rng.IntN(2) == 0 {
			p = g.fresh()
		}
		g.edit(p)
		sideTouched[p] = true
		g.commit(fmt.Sprintf("side %d", g.n))
	}
	runGit(g.t, g.dir, "checkout", "-q", "main")
	g.files = base
	for _, p := range base {
		if !sideTouched[p] {
			g.edit(p)
			break
		}
	}
	g.commit(fmt.Sprintf("main %d", g.n))
	args := []string{"merge", "-q", "--no-ff", "-m", "merge " + branch}
	if ours {
		args = append(args, "-s", "ours")
	}
	g.git(append(args, branch)...)
	g.reload()
}

// unrelated merges a second root commit into main.
func (g *histGen) unrelated() {
	runGit(g.t, g.dir, "checkout", "-q", "--orphan", "other")
	runGit(g.t, g.dir, "rm", "-rq", "--cached", ".")
	for _, f := range g.files {
		os.Remove(filepath.Join(g.dir, f))
	}
	g.files = nil
	g.edit("other/root.txt")
	g.edit("a2.txt")
	g.commit("second root")
	runGit(g.t, g.dir, "checkout", "-q", "-f", "main")
	g.git("merge", "-q", "--no-ff", "--allow-unrelated-histories", "-m", "merge other", "other")
	g.reload()
}

// queries returns the path sets to ask about: every path (and directory)
// ever committed, each alone, random subsets, and paths never committed.
func (g *histGen) queries() [][]string {
	set := map[string]bool{"nope": true, "d/nope": true, "d-": true, "": true, "../up": true, ".git/HEAD": true}
	for p := range g.ever {
		for ; p != "."; p = path.Dir(p) {
			set[p] = true
		}
	}
	all := make([]string, 0, len(set))
	for p := range set {
		all = append(all, p)
	}
	slices.Sort(all)
	out := [][]string{all}
	for _, i := range g.rng.Perm(len(all))[:min(12, len(all))] {
		out = append(out, []string{all[i]})
	}
	for range 4 {
		var sub []string
		for _, p := range all {
			if g.rng.IntN(4) == 0 {
				sub = append(sub, p)
			}
		}
		out = append(out, sub)
	}
	return out
}

// walkWithoutCache is History as it was before the cache: nothing read
// from the cache file, nothing written, every commit's trees compared
// along the asked paths by the trie walk (with maxTouchedPaths 0 every
// commit that changed anything is wide).
func walkWithoutCache(t *testing.T, dir string, paths []string, limit int) *review.History {
	t.Helper()
	return uncached(t, dir)(paths, limit)
}

// uncached returns History without a cache (see walkWithoutCache) on one
// Repo, which keeps nothing between calls but the commits' headers.
func uncached(t testing.TB, dir string) func(paths []string, limit int) *review.History {
	r := open(t, dir, Options{})
	r.SetHistoryCacheWrites(false)
	r.hist = newHistCache(r.histKey())
	return func(paths []string, limit int) *review.History {
		t.Helper()
		defer func(n int) { maxTouchedPaths = n }(maxTouchedPaths)
		maxTouchedPaths = 0
		h, err := r.History(t.Context(), paths, limit)
		if err != nil {
			t.Fatalf("History without cache: %v", err)
		}
		return h
	}
}

var histLimits = []int{0, 7, 40}

// checkHistory compares r's History with the walk without a cache for
// every query and limit.
func checkHistory(t *testing.T, name string, r *Repo, dir string, queries [][]string) {
	t.Helper()
	walk := uncached(t, dir)
	for _, limit := range histLimits {
		for _, q := range queries {
			want := walk(q, limit)
			got, err := r.History(t.Context(), q, limit)
			if err != nil {
				t.Fatalf("%s: History(%q, %d): %v", name, q, limit, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: History(%q, %d) (-walk +cached):\n%s", name, q, limit, diff)
			}
		}
	}
}

func cachePath(dir string) string {
	return filepath.Join(dir, trackingDir, histCacheDir, histCacheName)
}

func genRepo(t testing.TB, seed uint64, steps int) *histGen {
	g := newHistGen(t, seed)
	g.edit("a.txt")
	g.edit("d/b.txt")
	g.commit("root")
	for i := range steps {
		if i == steps/2 {
			g.unrelated()
			continue
		}
		g.step()
	}
	return g
}

// TestHistoryCacheDifferential: History with its cache cold, warm (in
// memory and from the file), after a new commit, an amend, a reset, with
// a corrupt cache file and with a .copilot-tracking it cannot write,
// answers exactly as the walk without a cache.
func TestHistoryCacheDifferential(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g := genRepo(t, seed, 40)
			dir, queries := g.dir, g.queries()

			kept := open(t, dir, Options{})
			checkHistory(t, "cold", kept, dir, queries)
			if _, err := os.Stat(cachePath(dir)); err != nil {
				t.Fatalf("no cache written: %v", err)
			}
			if st := runGit(t, dir, "status", "--porcelain", "--ignored=no"); st != "" {
				t.Errorf("the cache shows in git status:\n%s", st)
			}
			checkHistory(t, "warm from the file", open(t, dir, Options{}), dir, queries)
			checkHistory(t, "warm in memory", kept, dir, queries)

			// A subject may hold a secret: the file keeps no subject, and
			// no author.
			const secret = "ASIAKPDHIEYGSNO2FRNZ"
			g.edit(g.pick())
			g.commit("rotate " + secret)
			checkHistory(t, "after a commit, from the file", open(t, dir, Options{}), dir, queries)
			checkHistory(t, "after a commit, in memory", kept, dir, queries)
			data, err := os.ReadFile(cachePath(dir))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{secret, reviewtest.Signature.Name, "body of"} {
				if strings.Contains(string(data), s) {
					t.Errorf("the cache file holds %q", s)
				}
			}

			g.edit(g.pick())
			runGit(t, dir, "add", "-A")
			g.git("commit", "-q", "--amend", "-m", "amended")
			checkHistory(t, "after an amend", open(t, dir, Options{}), dir, queries)
			checkHistory(t, "after an amend, in memory", kept, dir, queries)

			runGit(t, dir, "reset", "-q", "--hard", "HEAD~3")
			checkHistory(t, "after a reset", open(t, dir, Options{}), dir, queries)
			checkHistory(t, "after a reset, in memory", kept, dir, queries)

			good, err := os.ReadFile(cachePath(dir))
			if err != nil {
				t.Fatal(err)
			}
			for name, bad := range map[string][]byte{
				"flipped byte":    flip(good, len(good)/2),
				"truncated":       good[:len(good)/2],
				"empty":           {},
				"unknown version": append([]byte(histCacheMagic+"\x07"), good[len(histCacheMagic)+1:]...),
				"not a cache":     []byte("hello\n"),
			} {
				if err := os.WriteFile(cachePath(dir), bad, 0o644); err != nil {
					t.Fatal(err)
				}
				checkHistory(t, "cache "+name, open(t, dir, Options{}), dir, queries)
				// The next walk rewrote it whole.
				if data, _ := os.ReadFile(cachePath(dir)); !slices.Equal(data, good) {
					if _, err := decodeHistCache(data); err != nil {
						t.Errorf("cache %s: not rewritten: %v", name, err)
					}
				}
			}

			// .copilot-tracking a file, then a symbolic link: nothing can
			// be written, nothing is written elsewhere, History answers.
			tracking := filepath.Join(dir, trackingDir)
			if err := os.RemoveAll(tracking); err != nil {
				t.Fatal(err)
			}
			write(t, dir, map[string]string{trackingDir: "not a folder\n"})
			checkHistory(t, "unwritable .copilot-tracking", open(t, dir, Options{}), dir, queries)
			os.Remove(tracking)
			elsewhere := t.TempDir()
			if err := os.Symlink(elsewhere, tracking); err != nil {
				t.Fatal(err)
			}
			checkHistory(t, "symlinked .copilot-tracking", open(t, dir, Options{}), dir, queries)
			if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
				t.Errorf("written through the symbolic link: %v", ents)
			}
		})
	}
}

func flip(b []byte, i int) []byte {
	out := slices.Clone(b)
	out[i] ^= 0x55
	return out
}

// TestHistoryCacheWide: commits that touched more than maxTouchedPaths
// entries are walked along the asked paths each time, and answer the same.
func TestHistoryCacheWide(t *testing.T) {
	defer func(n int) { maxTouchedPaths = n }(maxTouchedPaths)
	maxTouchedPaths = 2
	g := genRepo(t, 9, 30)
	queries := g.queries()
	kept := open(t, g.dir, Options{})
	checkHistory(t, "wide cold", kept, g.dir, queries)
	checkHistory(t, "wide from the file", open(t, g.dir, Options{}), g.dir, queries)
	checkHistory(t, "wide in memory", kept, g.dir, queries)
	wide := 0
	for _, c := range kept.hist.commits {
		if c.state == touchWide {
			wide++
		}
	}
	if wide == 0 {
		t.Error("no commit is wide: the test tests nothing")
	}
}

// TestHistoryCacheShallow: in a shallow clone the boundary commits are not
// reported, with the cache as without; deepening the clone changes the
// shallow file, which drops the cache.
func TestHistoryCacheShallow(t *testing.T) {
	g := genRepo(t, 4, 30)
	queries := g.queries()
	clone := filepath.Join(t.TempDir(), "clone")
	runGit(t, g.dir, "clone", "-q", "--no-local", "--depth", "5", "--branch", "main", "file://"+g.dir, clone)
	kept := open(t, clone, Options{})
	checkHistory(t, "shallow cold", kept, clone, queries)
	checkHistory(t, "shallow warm", open(t, clone, Options{}), clone, queries)
	runGit(t, clone, "fetch", "-q", "--deepen", "4")
	runGit(t, clone, "reset", "-q", "--hard", "origin/main")
	checkHistory(t, "deepened, in memory", kept, clone, queries)
	checkHistory(t, "deepened, from the file", open(t, clone, Options{}), clone, queries)
	runGit(t, clone, "fetch", "-q", "--unshallow")
	checkHistory(t, "unshallowed", open(t, clone, Options{}), clone, queries)
	checkHistory(t, "unshallowed, in memory", kept, clone, queries)
}

// objectReads runs f and returns the number of objects it read from r.
func objectReads(r *Repo, f func()) int {
	r.store.objs.mu.Lock()
	before := r.store.objs.reads.Load()
	r.store.objs.mu.Unlock()
	f()
	r.store.objs.mu.Lock()
	defer r.store.objs.mu.Unlock()
	return int(r.store.objs.reads.Load() - before)
}

// TestHistoryCacheUsed: a warm cache answers without walking: from the
// file, History reads only the commits it reports (for their author and
// subject, which the file leaves out), in memory nothing at all, and
// after a new commit that commit and its trees.
func TestHistoryCacheUsed(t *testing.T) {
	g := genRepo(t, 5, 20)
	queries := g.queries()[:6]
	history := func(r *Repo, q []string) *review.History {
		t.Helper()
		h, err := r.History(t.Context(), q, 0)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	cold := open(t, g.dir, Options{})
	var h *review.History
	if n := objectReads(cold, func() { h = history(cold, queries[0]) }); n < h.Limit {
		t.Errorf("cold History read %d objects for %d commits", n, h.Limit)
	}
	for _, q := range queries[1:] {
		history(cold, q)
	}
	for _, q := range queries {
		warm := open(t, g.dir, Options{})
		if n := objectReads(warm, func() { h = history(warm, q) }); n != len(h.Commits) {
			t.Errorf("History(%q) from the file read %d objects, want the %d commits it reports", q, n, len(h.Commits))
		}
		if n := objectReads(warm, func() { history(warm, q) }); n != 0 {
			t.Errorf("History(%q) again read %d objects, want none", q, n)
		}
	}
	g.edit(g.pick())
	g.commit("one more")
	for _, q := range queries {
		if n := objectReads(cold, func() { history(cold, q) }); n > 8 {
			t.Errorf("History(%q) after a commit read %d objects: more than the new commit and its trees", q, n)
		}
	}
}

// TestHistoryCacheReadOnly: with writes off (the CLI's --no-artifacts)
// History writes nothing, and still reads an existing cache.
func TestHistoryCacheReadOnly(t *testing.T) {
	g := genRepo(t, 6, 10)
	r := open(t, g.dir, Options{})
	r.SetHistoryCacheWrites(false)
	if _, err := r.History(t.Context(), []string{"a.txt"}, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(g.dir, trackingDir)); err == nil {
		t.Fatalf("History wrote %s with writes off", trackingDir)
	}
	if _, err := open(t, g.dir, Options{}).History(t.Context(), []string{"a.txt"}, 0); err != nil {
		t.Fatal(err)
	}
	ro := open(t, g.dir, Options{})
	ro.SetHistoryCacheWrites(false)
	var h *review.History
	n := objectReads(ro, func() {
		var err error
		if h, err = ro.History(t.Context(), []string{"a.txt", "d"}, 0); err != nil {
			t.Fatal(err)
		}
	})
	if n != len(h.Commits) {
		t.Errorf("read-only History read %d objects, want the %d commits it reports: the existing cache unused", n, len(h.Commits))
	}
}
