// Command scanbench measures reviewls against `git status`, the reference
// measured in the same run, on a generated large repository or on a
// throwaway clone of a real one (-repo).
//
// Generated (the default): about 40,000 tracked files in about 3,000
// directories plus an ignored node_modules-like tree of about 15,000
// files, one commit. Real (-repo DIR): a clone of DIR's history, with its
// pack and its Go packages as they are; DIR itself is never written.
//
// It applies the standard change (20 modified Go files, 2 untracked ones;
// the modified files are staged, so a staged review sees them too), then
// runs, in interleaved rounds, `git status --porcelain=v2`, `reviewls
// status`, `reviewls review` (default flags), `reviewls review --depth
// standard`, `reviewls review --staged --perspectives security` and, when
// a gitleaks binary is found, its staged scan; each reviewls command also
// with an empty GOCACHE (-cold). It prints the median wall time of each,
// its ratio to git status and its peak RSS as a markdown table. With
// -changes it then measures the cost per changed file: for each count, a
// fresh change of that many modified files, and the time of `reviewls
// status` and `reviewls review` above git status.
//
// Usage (bench/scan.sh and bench/real.sh build reviewls and run this):
//
//	go run ./bench/scanbench -reviewls PATH [-repo DIR] [-rounds 7] [-changes 1,10,100,1000]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/reviewls/reviewls/bench/internal/genrepo"
	"github.com/reviewls/reviewls/bench/internal/stats"
)

func main() {
	bin := flag.String("reviewls", "reviewls", "path of the reviewls binary")
	src := flag.String("repo", "", "measure a throwaway clone of this repository (work tree or bare) instead of a generated one")
	dir := flag.String("dir", "", "where to generate or clone the repository (default: a new temporary directory)")
	rounds := flag.Int("rounds", 7, "number of interleaved measured rounds (after one warm-up round)")
	files := flag.Int("files", 40000, "generated: number of tracked files")
	dirs := flag.Int("dirs", 3000, "generated: number of directories holding them")
	ignored := flag.Int("ignored", 15000, "generated: number of files in the ignored node_modules tree")
	cold := flag.Bool("cold", true, "also run each reviewls command with an empty GOCACHE")
	gitleaksFlag := flag.String("gitleaks", "", "path of a gitleaks binary (default: gitleaks on PATH, skipped if absent)")
	changes := flag.String("changes", "", "comma-separated changed-file counts for the cost per changed file (e.g. 1,10,100,1000)")
	changeRounds := flag.Int("change-rounds", 3, "measured rounds for each changed-file count")
	flag.Parse()
	log.SetFlags(0)

	counts, err := parseCounts(*changes)
	if err != nil {
		log.Fatalf("-changes: %v", err)
	}
	root := *dir
	if root == "" {
		tmp, err := os.MkdirTemp("", "scanbench-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		root = tmp + "/repo"
	}
	repo, what := open(*src, root, *files, *dirs, *ignored)
	staged, err := change(repo, 20, 2)
	if err != nil {
		log.Fatal(err)
	}

	git := benchCmd{name: "git status --porcelain=v2", bin: "git", args: []string{"status", "--porcelain=v2"}}
	var reviewls []benchCmd
	for _, c := range []struct {
		name string
		args []string
	}{
		{"reviewls status", []string{"status"}},
		{"reviewls review (default)", []string{"review", "--fail-on", "never"}},
		{"reviewls review --depth standard", []string{"review", "--depth", "standard", "--fail-on", "never"}},
		{"reviewls review --staged --perspectives security", []string{"review", "--staged", "--perspectives", "security", "--fail-on", "never"}},
	} {
		reviewls = append(reviewls, benchCmd{name: c.name, bin: *bin, args: c.args})
	}
	cmds := append([]benchCmd{git}, reviewls...)
	if gl, ok := gitleaks(*gitleaksFlag); ok {
		cmds = append(cmds, gl)
	} else {
		log.Printf("gitleaks: no binary on PATH or -gitleaks; its row is skipped (go install github.com/zricethezav/gitleaks/v8@latest provides one)")
	}
	if *cold {
		for _, c := range reviewls {
			c.name += ", empty GOCACHE"
			c.coldCache = true
			cmds = append(cmds, c)
		}
	}

	results := interleave(repo.Root, cmds, *rounds, true)
	fmt.Printf("Repository: %s; %d modified (staged) + 2 untracked Go files.\n", what, len(staged))
	fmt.Printf("Medians of %d interleaved rounds after a warm-up round.\n\n", *rounds)
	fmt.Printf("| command | median | range | vs git status | peak RSS |\n| --- | --- | --- | --- | --- |\n")
	ref := results[0].median()
	for i, c := range cmds {
		m := results[i].median()
		fmt.Printf("| %s | %s | %s–%s | %.2f× | %d MB |\n", c.name, fmtMS(m),
			fmtMS(stats.Percentile(results[i].wall, 0)), fmtMS(stats.Percentile(results[i].wall, 100)),
			float64(m)/float64(ref), results[i].maxRSSKiB()/1024)
	}

	if len(counts) == 0 {
		return
	}
	perFile := []benchCmd{git, reviewls[0], reviewls[1]}
	fmt.Printf("\nCost per changed file: N modified Go files (no untracked ones), medians of %d interleaved rounds.\n\n", *changeRounds)
	fmt.Printf("| changed files | git status | reviewls status | above git status | reviewls review | above git status | review peak RSS |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, n := range counts {
		if n > len(repo.Tracked) {
			fmt.Printf("| %d | not measured: the repository has %d editable Go files | | | | | |\n", n, len(repo.Tracked))
			continue
		}
		if err := repo.Reset(); err != nil {
			log.Fatal(err)
		}
		if _, err := change(repo, n, 0); err != nil {
			log.Fatal(err)
		}
		res := interleave(repo.Root, perFile, *changeRounds, false)
		g, s, r := res[0].median(), res[1].median(), res[2].median()
		fmt.Printf("| %d | %s | %s | %s | %s | %s | %d MB |\n", n, fmtMS(g), fmtMS(s), fmtMS(s-g), fmtMS(r), fmtMS(r-g), res[2].maxRSSKiB()/1024)
	}
}

// open generates the repository at root, or clones src there, and
// describes it.
func open(src, root string, files, dirs, ignored int) (*genrepo.Repo, string) {
	start := time.Now()
	if src == "" {
		r, err := genrepo.Generate(root, files, dirs, ignored)
		if err != nil {
			log.Fatal(err)
		}
		log.Printf("generated %d tracked + %d ignored files in %d directories in %s", files, ignored, dirs, time.Since(start).Round(time.Millisecond))
		return r, fmt.Sprintf("generated, %d tracked files in %d directories, %d ignored files", files, dirs, ignored)
	}
	r, err := genrepo.Clone(src, root)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("cloned %s to %s in %s", src, root, time.Since(start).Round(time.Millisecond))
	return r, describe(r, src)
}

// describe names a cloned repository by its size: tracked files, commits,
// objects and pack size, as git counts them.
func describe(r *genrepo.Repo, src string) string {
	count := func(args ...string) string {
		out, err := r.Output(args...)
		if err != nil {
			log.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	tracked := strings.Count(count("ls-files", "-z"), "\x00")
	commits := count("rev-list", "--count", "HEAD")
	var objects, packKiB int
	for _, line := range strings.Split(count("count-objects", "-v"), "\n") {
		k, v, _ := strings.Cut(line, ": ")
		n, _ := strconv.Atoi(v)
		switch k {
		case "count", "in-pack":
			objects += n
		case "size-pack":
			packKiB = n
		}
	}
	return fmt.Sprintf("clone of %s, %d tracked files (%d editable Go package files), %s commits, %d objects, %d MB pack",
		src, tracked, len(r.Tracked), commits, objects, packKiB/1024)
}

// change applies a change of modified + untracked files and stages the
// modified ones.
func change(r *genrepo.Repo, modified, untracked int) ([]string, error) {
	paths, err := r.Change(modified, untracked)
	if err != nil {
		return nil, err
	}
	// Stage in batches: a thousand paths fit any command line.
	for i := 0; i < len(paths); i += 200 {
		if err := r.Git(append([]string{"add", "--"}, paths[i:min(i+200, len(paths))]...)...); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// gitleaks returns the staged secret scan of the gitleaks binary at path
// (or on PATH), in the form its version understands: `gitleaks git
// --pre-commit --staged` (8.19 and later) or `gitleaks protect --staged`.
func gitleaks(path string) (benchCmd, bool) {
	if path == "" {
		p, err := exec.LookPath("gitleaks")
		if err != nil {
			return benchCmd{}, false
		}
		path = p
	}
	common := []string{"--no-banner", "--redact", "--exit-code", "0", "--log-level", "error"}
	if exec.Command(path, "git", "--help").Run() == nil {
		return benchCmd{name: "gitleaks git --pre-commit --staged", bin: path, args: append([]string{"git", "--pre-commit", "--staged"}, common...)}, true
	}
	return benchCmd{name: "gitleaks protect --staged", bin: path, args: append([]string{"protect", "--staged"}, common...)}, true
}

func parseCounts(s string) ([]int, error) {
	var counts []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive count", f)
		}
		counts = append(counts, n)
	}
	return counts, nil
}

type benchCmd struct {
	name      string
	bin       string
	args      []string
	coldCache bool // run with an empty GOCACHE of its own
}

// samples are the measured runs of one command.
type samples struct {
	wall   []time.Duration
	rssKiB []int64
}

func (s samples) median() time.Duration { return stats.Median(s.wall) }

func (s samples) maxRSSKiB() int64 {
	var m int64
	for _, x := range s.rssKiB {
		m = max(m, x)
	}
	return m
}

// interleave runs the commands in turn, rounds times (after a warm-up
// round that warms the page cache, if warmUp), and returns the samples of
// each command.
func interleave(dir string, cmds []benchCmd, rounds int, warmUp bool) []samples {
	res := make([]samples, len(cmds))
	first := 1
	if warmUp {
		first = 0
	}
	for r := first; r <= rounds; r++ {
		for i, c := range cmds {
			wall, rss := c.run(dir)
			if r > 0 {
				res[i].wall = append(res[i].wall, wall)
				res[i].rssKiB = append(res[i].rssKiB, rss)
			}
		}
		log.Printf("round %d/%d done", r, rounds)
	}
	return res
}

// run runs the command once in dir and returns its wall time and peak RSS
// in KiB (the largest of the process and its waited-for children).
func (c benchCmd) run(dir string) (time.Duration, int64) {
	cmd := exec.Command(c.bin, c.args...)
	cmd.Dir = dir
	if c.coldCache {
		cache, err := os.MkdirTemp("", "scanbench-gocache-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(cache)
		cmd.Env = append(os.Environ(), "GOCACHE="+cache)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		log.Fatalf("%s: %v\n%s", c.name, err, stderr.Bytes())
	}
	wall := time.Since(start)
	return wall, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
}

func fmtMS(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
