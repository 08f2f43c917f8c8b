package gitdiff

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/review/reviewtest"
)

// The benchmarks run on a generated repository: benchFiles tracked files
// in about benchFiles/13 directories, plus an ignored node_modules tree of
// 3/8 as many files, with a few modified, staged and untracked files. Set
// REVIEWLS_BENCH_FILES=40000 to measure at the scale of the whole-repo
// benchmark (building it takes a few seconds); the default keeps
// `go test -bench .` quick. BenchmarkGitStatus times `git status` on the
// same repository for comparison. REVIEWLS_BENCH_DIR=<dir> keeps the
// generated repository in <dir>/repo-<files> and reuses it on later runs.

func benchFiles() int {
	if n, err := strconv.Atoi(os.Getenv("REVIEWLS_BENCH_FILES")); err == nil && n > 0 {
		return n
	}
	return 5000
}

var benchRepos struct {
	sync.Mutex
	dirs map[int]string
}

// benchRepo returns the generated repository of n files, building it once
// per test binary run.
func benchRepo(b *testing.B, n int) string {
	b.Helper()
	benchRepos.Lock()
	defer benchRepos.Unlock()
	if d, ok := benchRepos.dirs[n]; ok {
		return d
	}
	var dir string
	if keep := os.Getenv("REVIEWLS_BENCH_DIR"); keep != "" {
		dir = filepath.Join(keep, fmt.Sprintf("repo-%d", n))
		if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
			os.RemoveAll(dir)
			generateRepo(b, dir, n)
		}
	} else {
		tmp, err := os.MkdirTemp("", "gitdiff-bench")
		if err != nil {
			b.Fatal(err)
		}
		benchCleanup = append(benchCleanup, tmp)
		dir = filepath.Join(tmp, "repo")
		generateRepo(b, dir, n)
	}
	if benchRepos.dirs == nil {
		benchRepos.dirs = map[int]string{}
	}
	benchRepos.dirs[n] = dir
	return dir
}

// benchCleanup lists the directories removed when the tests end.
var benchCleanup []string

func init() {
	cleanupHooks = append(cleanupHooks, func() {
		for _, d := range benchCleanup {
			os.RemoveAll(d)
		}
	})
}

// benchDir returns the directory of file i among n files: three levels
// ("pkgNN/subN/modN"), about 13 files per directory.
func benchDir(i, n int) string {
	dirs := max(1, n/13)
	d := i % dirs
	return fmt.Sprintf("pkg%02d/sub%d/mod%d", d%40, (d/40)%9, d/360)
}

func generateRepo(b *testing.B, dir string, n int) {
	b.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	benchGit(b, dir, "init", "-q")
	write(b, dir, map[string]string{".gitignore": "node_modules/\n*.log\n/build/\n"})
	for i := range n {
		p := filepath.Join(dir, benchDir(i, n), fmt.Sprintf("file%d.go", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		content := fmt.Sprintf("package p\n\n// File %d.\nfunc F%d() int {\n\treturn %d\n}\n%s", i, i, i, strings.Repeat("// padding line\n", i%20))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := range n * 3 / 8 {
		p := filepath.Join(dir, "node_modules", fmt.Sprintf("pkg%d", i/50), "lib", fmt.Sprintf("m%d.js", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("module.exports = 1;\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	benchGit(b, dir, "add", "-A")
	benchGit(b, dir, "commit", "-q", "-m", "generated")
	// A typical working state: a few staged, modified and new files.
	for i := range 13 {
		p := filepath.Join(dir, benchDir(i*97%n, n), fmt.Sprintf("file%d.go", i*97%n))
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\nfunc Edited%d() {}\n", i)
		f.Close()
		if i < 3 {
			benchGit(b, dir, "add", p)
		}
	}
	for i := range 5 {
		write(b, dir, map[string]string{fmt.Sprintf("%s/new%d.go", benchDir(i*31, n), i): "package p\n", fmt.Sprintf("x%d.log", i): "log\n"})
	}
	// Let git refresh the index's stat data, as any git command does.
	benchGit(b, dir, "status", "--porcelain")
}

func benchGit(b *testing.B, dir string, args ...string) {
	b.Helper()
	runGit(b, dir, args...)
}

func BenchmarkStatus(b *testing.B) {
	dir := benchRepo(b, benchFiles())
	r := open(b, dir, Options{})
	tg := resolve(b, r, false, "")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		changes, err := r.Status(b.Context(), tg)
		if err != nil {
			b.Fatal(err)
		}
		if len(changes) != 18 {
			b.Fatalf("%d changes, want 18", len(changes))
		}
	}
}

func BenchmarkScan(b *testing.B) {
	dir := benchRepo(b, benchFiles())
	b.ReportAllocs()
	for b.Loop() {
		// What a CLI run does: open, resolve, scan.
		r, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		tg, err := r.Resolve(b.Context(), false, "")
		if err != nil {
			b.Fatal(err)
		}
		cs, err := r.Scan(b.Context(), tg, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(cs.Files) != 18 {
			b.Fatalf("%d files, want 18", len(cs.Files))
		}
		r.Close()
	}
}

func BenchmarkRefresh(b *testing.B) {
	dir := benchRepo(b, benchFiles())
	r := open(b, dir, Options{})
	tg := resolve(b, r, false, "")
	prev := scan(b, r, tg, nil)
	p := filepath.ToSlash(filepath.Join(benchDir(0, benchFiles()), "file0.go"))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Refresh(b.Context(), prev, nil, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGitStatus times the git binary on the same repository, for
// comparison with BenchmarkStatus (it includes starting the process).
func BenchmarkGitStatus(b *testing.B) {
	dir := benchRepo(b, benchFiles())
	for b.Loop() {
		gitStatusOnce(b, dir)
	}
}

func gitStatusOnce(b *testing.B, dir string) {
	cmd := exec.Command("git", "status", "--porcelain=v2", "--untracked-files=all")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkScanVsGit alternates `git status` and what a CLI run does (open,
// resolve, scan) and reports the medians and their ratio: on a machine
// shared with other work, alternating is what makes the two comparable.
func BenchmarkScanVsGit(b *testing.B) {
	dir := benchRepo(b, benchFiles())
	var git, ours []time.Duration
	for b.Loop() {
		t0 := time.Now()
		gitStatusOnce(b, dir)
		t1 := time.Now()
		r, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		tg, err := r.Resolve(b.Context(), false, "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Scan(b.Context(), tg, nil); err != nil {
			b.Fatal(err)
		}
		r.Close()
		ours = append(ours, time.Since(t1))
		git = append(git, t1.Sub(t0))
	}
	g, o := medianDuration(git), medianDuration(ours)
	b.ReportMetric(float64(g.Microseconds())/1000, "git-ms")
	b.ReportMetric(float64(o.Microseconds())/1000, "scan-ms")
	b.ReportMetric(float64(o)/float64(g), "x-git")
}

func medianDuration(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func BenchmarkReadIndex(b *testing.B) {
	dir := benchRepo(b, benchFiles())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readIndex(filepath.Join(dir, ".git", "index"), filepath.Join(dir, ".git")); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDiff(b *testing.B) {
	var old, new strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i%100 == 0 {
			fmt.Fprintf(&new, "changed %d\n", i)
			continue
		}
		fmt.Fprintf(&new, "line %d\n", i)
	}
	a, c := []byte(old.String()), []byte(new.String())
	b.ReportAllocs()
	for b.Loop() {
		Diff(a, c)
	}
}

// BenchmarkHistory walks DefaultHistoryLimit commits of a generated
// history (made with git fast-import) asking about a few paths.
func BenchmarkHistory(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	const commits, files = 1000, 2000
	fastImport(b, dir, commits, files, func(f, c int) (string, string) {
		return fmt.Sprintf("%s/f%d.txt", benchDir(f, files), f), fmt.Sprintf("file %d version %d\n", f, c)
	})
	r := open(b, dir, Options{})
	paths := []string{benchDir(7, files) + "/f7.txt", benchDir(14, files), "pkg01"}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h, err := r.History(b.Context(), paths, 0)
		if err != nil {
			b.Fatal(err)
		}
		if h.Limit != DefaultHistoryLimit || len(h.Commits) == 0 {
			b.Fatalf("examined %d, found %d", h.Limit, len(h.Commits))
		}
	}
}

// benchCommits is the number of commits of the history that
// BenchmarkLargePack generates, each adding about six objects (a blob,
// four trees and the commit). Set REVIEWLS_BENCH_COMMITS to change it.
func benchCommits() int {
	if n, err := strconv.Atoi(os.Getenv("REVIEWLS_BENCH_COMMITS")); err == nil && n > 0 {
		return n
	}
	return 40000
}

// BenchmarkLargePack opens a repository whose one pack holds a long
// history (about 240,000 objects by default, made with git fast-import)
// and reads what a review reads of HEAD: "head-tree" compares HEAD's tree
// with the index, which has one changed file and a cache-tree, "status"
// is the whole status of the work tree. Both cost what the change costs,
// not what the history does. REVIEWLS_BENCH_DIR=<dir> keeps the
// repository in <dir>/largepack-<commits> and reuses it.
func BenchmarkLargePack(b *testing.B) {
	commits, files := benchCommits(), 2000
	dir := filepath.Join(b.TempDir(), "repo")
	if keep := os.Getenv("REVIEWLS_BENCH_DIR"); keep != "" {
		dir = filepath.Join(keep, fmt.Sprintf("largepack-%d", commits))
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		fastImport(b, dir, commits, files, func(f, c int) (string, string) {
			return fmt.Sprintf("%s/f%d.go", benchDir(f, files), f),
				fmt.Sprintf("package p\n\n// File %d, version %d.\nfunc F%d() int { return %d }\n", f, c, f, c)
		})
	}
	objects := strings.Fields(runGit(b, dir, "count-objects", "-v"))
	edited := filepath.Join(dir, benchDir(7, files), "f7.go")
	if err := os.WriteFile(edited, []byte("package p\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	runGit(b, dir, "add", edited)
	runGit(b, dir, "status", "--porcelain")
	b.Logf("%s", strings.Join(objects, " "))
	headSHA := strings.TrimSpace(runGit(b, dir, "rev-parse", "HEAD"))

	b.Run("head-tree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := Open(dir, Options{})
			if err != nil {
				b.Fatal(err)
			}
			head, err := r.commitTree(headSHA)
			if err != nil {
				b.Fatal(err)
			}
			idx, err := r.readIndex()
			if err != nil {
				b.Fatal(err)
			}
			diff, err := r.diffTreeIndex(b.Context(), head, idx)
			if err != nil || len(diff) != 1 {
				b.Fatalf("diff %v, %v", diff, err)
			}
			r.Close()
		}
	})
	b.Run("status", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := Open(dir, Options{})
			if err != nil {
				b.Fatal(err)
			}
			changes, err := r.Status(b.Context(), resolve(b, r, false, ""))
			if err != nil || len(changes) != 1 {
				b.Fatalf("changes %v, %v", changes, err)
			}
			r.Close()
		}
	})
}

// fastImport makes a new repository at dir whose branch main has commits
// commits, made with git fast-import: the first adds files files, each
// later one changes file (c*7919)%files; file(f, c) gives the path and
// content of file f at commit c. main is checked out.
func fastImport(b *testing.B, dir string, commits, files int, file func(f, c int) (string, string)) {
	b.Helper()
	runGit(b, dir, "init", "-q")
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	pr, pw := io.Pipe()
	cmd.Stdin = pr
	go func() {
		w := bufio.NewWriter(pw)
		for c := range commits {
			fmt.Fprintf(w, "commit refs/heads/main\ncommitter t <t@t> %d +0000\ndata 9\ncommit %02d\n", 1000000+c, c%100)
			n := 1
			if c == 0 {
				n = files
			}
			for f := range n {
				if c > 0 {
					f = (c * 7919) % files
				}
				path, content := file(f, c)
				fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
			}
		}
		w.Flush()
		pw.Close()
	}()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v\n%s", err, out)
	}
	runGit(b, dir, "reset", "-q", "--hard", "main")
}

// BenchmarkHistoryRepo measures History on a real repository:
// REVIEWLS_BENCH_REPO=<work tree> (a clone with a change in place, as
// bench/scanbench leaves one), asking about the paths git status lists,
// with the engine's limit of 200. Sub-benchmarks: nowrite (no cache file,
// none written: --no-artifacts), cold (no cache file, a new Repo), file (a new Repo reading the cache file), memory (the same
// Repo again) and commit (the file as it was one commit before HEAD: what
// a pre-commit hook sees after a commit). It restores the cache file it
// found.
func BenchmarkHistoryRepo(b *testing.B) {
	dir := reviewtest.BenchRepo(b)
	var paths []string
	for _, l := range strings.Split(reviewtest.Git(b, dir, "status", "--porcelain", "--untracked-files=all"), "\n") {
		if len(l) > 3 && !strings.Contains(l, trackingDir) {
			paths = append(paths, l[3:])
		}
	}
	const limit = 200
	file := cachePath(dir)
	saved, err := os.ReadFile(file)
	if err == nil {
		b.Cleanup(func() { os.WriteFile(file, saved, 0o644) })
	}
	run := func(b *testing.B, r *Repo, head plumbing.Hash) {
		n := objectReads(r, func() {
			h, err := r.historyFrom(b.Context(), head, paths, limit)
			if err != nil || h.Limit != limit {
				b.Fatalf("History: %v", err)
			}
		})
		b.ReportMetric(float64(n), "objects/op")
	}
	head := plumbing.NewHash(strings.TrimSpace(reviewtest.Git(b, dir, "rev-parse", "HEAD")))
	parent := plumbing.NewHash(strings.TrimSpace(reviewtest.Git(b, dir, "rev-parse", "HEAD~1")))
	b.Logf("%d paths", len(paths))
	b.Run("nowrite", func(b *testing.B) {
		for b.Loop() {
			r := open(b, dir, Options{})
			r.SetHistoryCacheWrites(false)
			r.hist = newHistCache(r.histKey())
			run(b, r, head)
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			os.Remove(file)
			run(b, open(b, dir, Options{}), head)
		}
	})
	b.Run("file", func(b *testing.B) {
		run(b, open(b, dir, Options{}), head)
		for b.Loop() {
			run(b, open(b, dir, Options{}), head)
		}
	})
	b.Run("memory", func(b *testing.B) {
		r := open(b, dir, Options{})
		run(b, r, head)
		for b.Loop() {
			run(b, r, head)
		}
	})
	b.Run("commit", func(b *testing.B) {
		os.Remove(file)
		run(b, open(b, dir, Options{}), parent)
		before, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			os.WriteFile(file, before, 0o644)
			run(b, open(b, dir, Options{}), head)
		}
	})
}
