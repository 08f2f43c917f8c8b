package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// BenchmarkSaveRepo measures what the language server does for one save
// on a real repository: REVIEWLS_BENCH_REPO=<work tree> (a clone with a
// change in place, as bench/scanbench leaves one). After a full review,
// each iteration appends a TODO marker to one of 200 tracked Go files and
// runs the incremental review of that path (the save → diagnostics path,
// orientation deferred), then completes the orientation; "run-ms" and
// "orient-ms" report the two parts. It restores every file it edits.
func BenchmarkSaveRepo(b *testing.B) {
	dir := reviewtest.BenchRepo(b)
	var tracked []string
	for _, p := range strings.Split(reviewtest.Git(b, dir, "ls-files", "--", "*.go"), "\n") {
		if p != "" && !strings.Contains(p, "vendor/") {
			tracked = append(tracked, p)
		}
	}
	const saves = 200
	if len(tracked) < saves {
		b.Fatalf("%s has %d Go files; want at least %d", dir, len(tracked), saves)
	}
	picks := make([]string, saves)
	for i := range picks {
		picks[i] = tracked[(i*(len(tracked)/saves)+7)%len(tracked)]
	}
	for _, p := range picks {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		orig, err := os.ReadFile(abs)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.WriteFile(abs, orig, 0o644) })
	}
	eng, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	req := review.Request{Dir: dir, Mode: review.ModeInteractive, Analysis: review.AnalysisDefer, DeferOrientation: true}
	res, err := eng.Run(b.Context(), req)
	if err != nil {
		b.Fatal(err)
	}
	if err := eng.Orient(b.Context(), res); err != nil {
		b.Fatal(err)
	}
	var runs, orients time.Duration
	i := 0
	for b.Loop() {
		p := picks[i%saves]
		f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(p)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\n// TODO: bench edit %d\n", i)
		f.Close()
		i++
		start := time.Now()
		req.Paths = []string{p}
		res, err = eng.Run(b.Context(), req)
		if err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		if err := eng.Orient(b.Context(), res); err != nil {
			b.Fatal(err)
		}
		runs, orients = runs+mid.Sub(start), orients+time.Since(mid)
	}
	b.ReportMetric(float64(runs.Microseconds())/1e3/float64(i), "run-ms")
	b.ReportMetric(float64(orients.Microseconds())/1e3/float64(i), "orient-ms")
}

// BenchmarkReviewRepo measures what `reviewls review` does in process on
// a real repository: REVIEWLS_BENCH_REPO=<work tree> with its change in
// place (bench/scanbench -changes N leaves N changed files). Each
// iteration opens the engine and runs a workflow review, orientation
// included; artifacts are not written.
func BenchmarkReviewRepo(b *testing.B) {
	dir := reviewtest.BenchRepo(b)
	b.ReportAllocs()
	for b.Loop() {
		eng, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		eng.Repo().SetHistoryCacheWrites(false)
		if _, err := eng.Run(b.Context(), review.Request{Dir: dir}); err != nil {
			b.Fatal(err)
		}
		eng.Close()
	}
}
