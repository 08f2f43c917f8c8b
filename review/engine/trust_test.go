package engine

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// heavyCounter returns a lens whose one rule stands for the type-aware
// analysis (comprehensive and cross-file, for Go files) and counts its
// runs: a run of it is a run of the Go toolchain.
func heavyCounter(runs *atomic.Int32) []review.Lens {
	return []review.Lens{lens.New(review.Functional, &lens.Rule{
		RuleInfo: review.RuleInfo{ID: "functional/heavy", Perspective: review.Functional, Severity: review.SeverityLow,
			Languages: []review.Language{review.LangGo}, Depth: review.DepthComprehensive, CrossFile: true},
		Run: func(*lens.Pass) { runs.Add(1) },
	})}
}

// TestUntrustedRepositoryRunsNoTools checks that the .reviewls.yaml of a
// repository the user has not trusted cannot make the analysis run — by
// depth: comprehensive or an analysis budget, from the command line or
// the language server — while its other settings apply and the review
// says what was not done and how to allow it; that trusting it lets it
// run; and that a change to the file untrusts it again.
func TestUntrustedRepositoryRunsNoTools(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	write(t, dir, "a.go", []byte("package a\n\nfunc A() {}\n"))
	write(t, dir, ".reviewls.yaml", []byte("depth: comprehensive\nanalysis: {budget: 1m}\nfail-on: low\n"))
	user := t.TempDir()
	var runs atomic.Int32
	review1 := func(mode review.AnalysisMode) (*Engine, *review.Result) {
		t.Helper()
		eng, err := Open(dir, Options{Lenses: heavyCounter(&runs), UserDir: user})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close() })
		res, err := eng.Run(t.Context(), review.Request{Dir: dir, Analysis: mode})
		if err != nil {
			t.Fatal(err)
		}
		if res.Analysis.State == review.AnalysisPending {
			if res, err = eng.Analyze(t.Context(), res); err != nil {
				t.Fatal(err)
			}
		}
		return eng, res
	}
	const withheld = ".reviewls.yaml asks for depth: comprehensive (runs the Go toolchain) and analysis.budget: 1m0s (runs the Go toolchain); not done: this repository is not trusted (run `reviewls trust` to allow it)"
	for _, mode := range []review.AnalysisMode{review.AnalysisAuto, review.AnalysisDefer} {
		eng, res := review1(mode)
		if n := runs.Load(); n != 0 {
			t.Errorf("mode %d: the analysis ran %d times in an untrusted repository", mode, n)
		}
		if res.Depth == review.DepthComprehensive || res.Withheld != withheld {
			t.Errorf("mode %d: depth %s, withheld %q; want the depth not honoured and %q", mode, res.Depth, res.Withheld, withheld)
		}
		if got := eng.Config().FailOn; got != (review.FailOn{Set: true, Severity: review.SeverityLow}) {
			t.Errorf("mode %d: fail-on %v, want the repository's low", mode, got)
		}
	}

	// A depth the caller chooses is not the file's: only the budget is
	// said to be withheld.
	eng, err := Open(dir, Options{Lenses: heavyCounter(&runs), UserDir: user})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(t.Context(), review.Request{Dir: dir, Depth: review.DepthComprehensive})
	eng.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := ".reviewls.yaml asks for analysis.budget: 1m0s (runs the Go toolchain); not done: this repository is not trusted (run `reviewls trust` to allow it)"; res.Withheld != want || runs.Load() == 0 {
		t.Errorf("--depth comprehensive: withheld %q, %d runs; want %q and the analysis run", res.Withheld, runs.Load(), want)
	}

	if _, allowed, err := Trust(user, dir); err != nil || len(allowed) != 2 {
		t.Fatalf("Trust = %q, %v", allowed, err)
	}
	for _, mode := range []review.AnalysisMode{review.AnalysisAuto, review.AnalysisDefer} {
		runs.Store(0)
		_, res := review1(mode)
		if runs.Load() == 0 || res.Withheld != "" || res.Depth != review.DepthComprehensive || res.Analysis.State != review.AnalysisRan {
			t.Errorf("mode %d, trusted: %d runs, withheld %q, depth %s, analysis %q; want it run", mode, runs.Load(), res.Withheld, res.Depth, res.Analysis)
		}
	}

	write(t, dir, ".reviewls.yaml", []byte("depth: comprehensive\n"))
	runs.Store(0)
	_, res = review1(review.AnalysisAuto)
	if runs.Load() != 0 || !strings.Contains(res.Withheld, "changed since you trusted it") {
		t.Errorf("changed since trusted: %d runs, withheld %q; want none and the change said", runs.Load(), res.Withheld)
	}
}

// TestUntrustedRecommendedDepth checks the language server's background
// analysis at a recommended comprehensive depth: it runs only in a
// repository the user trusts, and says why not elsewhere; an explicit
// depth (the editor's setting) runs it anyway.
func TestUntrustedRecommendedDepth(t *testing.T) {
	dir := printfRepo(t, "creds/creds.go")
	user := t.TempDir()
	var runs atomic.Int32
	run := func(req review.Request) *review.Result {
		t.Helper()
		eng, err := Open(dir, Options{Lenses: heavyCounter(&runs), UserDir: user})
		if err != nil {
			t.Fatal(err)
		}
		defer eng.Close()
		req.Dir, req.Analysis = dir, review.AnalysisDefer
		res, err := eng.Run(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(review.Request{})
	if res.Risk.RecommendedDepth != review.DepthComprehensive {
		t.Fatalf("recommended %s: the fixture must recommend comprehensive", res.Risk.RecommendedDepth)
	}
	if res.Analysis.State != review.AnalysisSkipped || res.Analysis.Reason != "not requested, and this repository is not trusted to run the Go toolchain (run `reviewls trust`, or set depth: comprehensive in the editor's settings)" {
		t.Errorf("untrusted: analysis %q, want skipped because untrusted", res.Analysis)
	}
	if res := run(review.Request{Depth: review.DepthComprehensive}); res.Analysis.State != review.AnalysisPending {
		t.Errorf("untrusted, depth chosen in the editor: analysis %q, want pending", res.Analysis)
	}
	if _, _, err := Trust(user, dir); err != nil {
		t.Fatal(err)
	}
	if res := run(review.Request{}); res.Analysis.State != review.AnalysisPending {
		t.Errorf("trusted: analysis %q, want pending", res.Analysis)
	}
}

// TestUserConfigRunsAnalysis checks that the user's own configuration
// file may ask for the analysis in any repository: the user decides.
func TestUserConfigRunsAnalysis(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	write(t, dir, "a.go", []byte("package a\n\nfunc A() {}\n"))
	user := t.TempDir()
	write(t, user, UserConfigFile, []byte("depth: comprehensive\n"))
	var runs atomic.Int32
	eng, err := Open(dir, Options{Lenses: heavyCounter(&runs), UserDir: user})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Run(t.Context(), review.Request{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if runs.Load() == 0 || res.Analysis.State != review.AnalysisRan || res.Withheld != "" {
		t.Errorf("%d runs, analysis %q, withheld %q; want the user's depth honoured", runs.Load(), res.Analysis, res.Withheld)
	}
	if want := "comprehensive depth set in your configuration (config.yaml)"; res.DepthRationale != want {
		t.Errorf("depth rationale %q, want %q", res.DepthRationale, want)
	}
}

// TestAnalysisLoadedNothing checks that an analysis that could load no
// package says it was skipped and why, instead of "ran": here a go.mod
// that needs a Go toolchain that is not installed, which it never
// downloads.
func TestAnalysisLoadedNothing(t *testing.T) {
	dir := repo(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.99\n", "m.go": "package m\n"})
	write(t, dir, "m.go", []byte("package m\n\nfunc M() {}\n"))
	res := run(t, dir, review.Request{Depth: review.DepthComprehensive})
	if res.Analysis.State != review.AnalysisSkipped || res.Analysis.String() != "type-aware analysis skipped: go.mod needs go1.99 (not installed; reviewls never downloads toolchains)" {
		t.Errorf("analysis = %q, want skipped for the toolchain", res.Analysis)
	}
}
