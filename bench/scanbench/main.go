// Command scanbench measures reviewls on a generated large repository
// against `git status`, the reference measured in the same run.
//
// It generates a repository of about 40,000 tracked files in about 3,000
// directories plus an ignored node_modules-like tree of about 15,000
// files, changes 20 tracked files and adds 2 untracked ones, then runs, in
// interleaved rounds, `git status --porcelain=v2`, `reviewls status` (the
// changed-file scan) and `reviewls review` (the full review, artifacts
// included), and prints the median wall time of each, its ratio to git
// status, and its peak RSS as a markdown table.
//
// Usage (bench/scan.sh builds reviewls and runs this):
//
//	go run ./bench/scanbench -reviewls PATH [-dir DIR] [-rounds 7] [-files 40000]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"sort"
	"syscall"
	"time"

	"github.com/reviewls/reviewls/bench/internal/genrepo"
)

func main() {
	bin := flag.String("reviewls", "reviewls", "path of the reviewls binary")
	dir := flag.String("dir", "", "where to generate the repository (default: a new temporary directory)")
	rounds := flag.Int("rounds", 7, "number of interleaved measured rounds (after one warm-up round)")
	files := flag.Int("files", 40000, "number of tracked files")
	dirs := flag.Int("dirs", 3000, "number of directories holding them")
	ignored := flag.Int("ignored", 15000, "number of files in the ignored node_modules tree")
	flag.Parse()
	log.SetFlags(0)

	root := *dir
	if root == "" {
		var err error
		if root, err = os.MkdirTemp("", "scanbench-"); err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(root)
	}
	start := time.Now()
	generate(root, *files, *dirs, *ignored)
	log.Printf("generated %d tracked + %d ignored files in %d directories in %s", *files, *ignored, *dirs, time.Since(start).Round(time.Millisecond))

	cmds := []benchCmd{
		{"git status --porcelain=v2", "git", []string{"status", "--porcelain=v2"}},
		{"reviewls status (changed-file scan)", *bin, []string{"status"}},
		{"reviewls review (full review + artifacts)", *bin, []string{"review", "--fail-on", "never"}},
	}
	results := make([][]sample, len(cmds))
	for r := 0; r <= *rounds; r++ {
		for i, c := range cmds {
			s := c.run(root)
			if r > 0 { // round 0 warms the page cache
				results[i] = append(results[i], s)
			}
		}
	}
	ref := median(results[0])
	fmt.Printf("Repository: %d tracked files in %d directories, %d ignored files; 20 modified, 2 untracked.\n", *files, *dirs, *ignored)
	fmt.Printf("Medians of %d interleaved rounds.\n\n", *rounds)
	fmt.Printf("| command | median | vs git status | peak RSS |\n| --- | --- | --- | --- |\n")
	for i, c := range cmds {
		m := median(results[i])
		fmt.Printf("| %s | %.1f ms | %.2f× | %.0f MB |\n", c.name, ms(m.wall), float64(m.wall)/float64(ref.wall), float64(maxRSS(results[i]))/1024)
	}
}

type benchCmd struct {
	name string
	bin  string
	args []string
}

type sample struct {
	wall   time.Duration
	rssKiB int64
}

func (c benchCmd) run(dir string) sample {
	cmd := exec.Command(c.bin, c.args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout = nil
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		log.Fatalf("%s: %v\n%s", c.name, err, stderr.Bytes())
	}
	wall := time.Since(start)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return sample{wall: wall, rssKiB: ru.Maxrss}
}

func median(s []sample) sample {
	c := append([]sample(nil), s...)
	sort.Slice(c, func(i, j int) bool { return c[i].wall < c[j].wall })
	return c[len(c)/2]
}

func maxRSS(s []sample) int64 {
	var m int64
	for _, x := range s {
		m = max(m, x.rssKiB)
	}
	return m
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// generate writes the repository and applies the measured change.
func generate(root string, files, dirs, ignored int) {
	r, err := genrepo.Generate(root, files, dirs, ignored)
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Change(20); err != nil {
		log.Fatal(err)
	}
}
