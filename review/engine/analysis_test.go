package engine

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reviewls/reviewls/review"
)

const goAnalysisRule = "functional/go-analysis"

// printfRepo returns a repository whose module has a committed file and
// an edit that adds a Printf verb of the wrong type: a defect only the
// type-aware analysis (functional/go-analysis, printf) reports. path
// names the file; a path under creds/ makes comprehensive the
// recommended depth (a secrets hotspot without a test).
func printfRepo(t *testing.T, path string) string {
	t.Helper()
	dir := repo(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		path:     "package m\n\nimport \"fmt\"\n\nfunc Show(name string) {\n\tfmt.Println(name)\n}\n",
	})
	write(t, dir, path, []byte("package m\n\nimport \"fmt\"\n\nfunc Show(name string) {\n\tfmt.Println(name)\n\tfmt.Printf(\"%d items\\n\", name)\n}\n"))
	return dir
}

func analysisFindings(res *review.Result) int {
	n := 0
	for _, f := range res.Findings {
		if f.RuleID == goAnalysisRule {
			n++
		}
	}
	return n
}

// TestAnalysisNotByRecommendation checks that a comprehensive depth that
// is only recommended does not run the type-aware analysis, and that the
// result says it was skipped and how to ask for it.
func TestAnalysisNotByRecommendation(t *testing.T) {
	dir := printfRepo(t, "creds/creds.go")
	res := run(t, dir, review.Request{})
	if res.Depth != review.DepthComprehensive || res.Risk.RecommendedDepth != review.DepthComprehensive {
		t.Fatalf("depth %s, recommended %s: the fixture must recommend comprehensive", res.Depth, res.Risk.RecommendedDepth)
	}
	if n := analysisFindings(res); n != 0 {
		t.Errorf("%d %s findings at the recommended depth, want none", n, goAnalysisRule)
	}
	if res.Analysis.State != review.AnalysisSkipped || !strings.Contains(res.Analysis.String(), "not requested (use --depth comprehensive") {
		t.Errorf("analysis = %q, want skipped: not requested", res.Analysis)
	}
}

// TestAnalysisAskedFor checks that an explicit comprehensive depth, from
// the request or the configuration, runs the analysis, and that a
// configured budget runs it at the recommended depth too.
func TestAnalysisAskedFor(t *testing.T) {
	for name, tc := range map[string]struct {
		path string
		req  review.Request
	}{
		"request":            {"show.go", review.Request{Depth: review.DepthComprehensive}},
		"config depth":       {"show.go", review.Request{Config: &review.Config{Depth: review.DepthComprehensive}}},
		"budget":             {"creds/creds.go", review.Request{Config: &review.Config{AnalysisBudget: time.Minute}}},
		"request and budget": {"show.go", review.Request{Depth: review.DepthComprehensive, Config: &review.Config{AnalysisBudget: time.Minute}}},
	} {
		t.Run(name, func(t *testing.T) {
			res := run(t, printfRepo(t, tc.path), tc.req)
			if n := analysisFindings(res); n != 1 {
				t.Errorf("%d %s findings, want 1 (printf)", n, goAnalysisRule)
			}
			if res.Analysis.State != review.AnalysisRan {
				t.Errorf("analysis = %q, want ran", res.Analysis)
			}
		})
	}
}

// TestAnalysisBelowComprehensive checks that a recommended standard depth
// says the analysis is not part of it, and a chosen one says nothing.
func TestAnalysisBelowComprehensive(t *testing.T) {
	dir := printfRepo(t, "show.go")
	res := run(t, dir, review.Request{})
	if res.Depth == review.DepthComprehensive {
		t.Fatalf("depth %s: the fixture must not recommend comprehensive", res.Depth)
	}
	if res.Analysis.State != review.AnalysisSkipped || !strings.Contains(res.Analysis.Reason, "not part of depth") {
		t.Errorf("analysis = %q, want skipped: not part of the depth", res.Analysis)
	}
	if res := run(t, dir, review.Request{Depth: review.DepthStandard}); res.Analysis.State != "" {
		t.Errorf("analysis at a chosen standard depth = %q, want nothing to say", res.Analysis)
	}
	if n := analysisFindings(res); n != 0 {
		t.Errorf("%d %s findings below comprehensive", n, goAnalysisRule)
	}
}

// TestAnalysisTimesOut checks that a budget too short for any load ends
// the analysis as timed out, without its findings, and keeps the others.
func TestAnalysisTimesOut(t *testing.T) {
	dir := printfRepo(t, "show.go")
	res := run(t, dir, review.Request{Depth: review.DepthComprehensive, Config: &review.Config{AnalysisBudget: time.Nanosecond}})
	if res.Analysis.State != review.AnalysisTimedOut || res.Analysis.String() != "type-aware analysis timed out after 1ns: its findings are incomplete (raise analysis.budget in .reviewls.yaml)" {
		t.Errorf("analysis = %q, want timed out after 1ns", res.Analysis)
	}
	if n := analysisFindings(res); n != 0 {
		t.Errorf("%d %s findings after a timeout before any load", n, goAnalysisRule)
	}
}

// TestAnalyzeDeferred checks the language server's two phases: a deferred
// run leaves the analysis pending and reports no type-aware finding;
// Analyze adds it in a new result; a newer run makes the old result stale.
func TestAnalyzeDeferred(t *testing.T) {
	dir := printfRepo(t, "show.go")
	eng, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	req := review.Request{Dir: dir, Depth: review.DepthComprehensive, Analysis: review.AnalysisDefer}
	first, err := eng.Run(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if first.Analysis.State != review.AnalysisPending || analysisFindings(first) != 0 {
		t.Fatalf("deferred run: analysis %q, %d type-aware findings; want pending, none", first.Analysis, analysisFindings(first))
	}
	second, err := eng.Analyze(t.Context(), first)
	if err != nil {
		t.Fatal(err)
	}
	if second.Analysis.State != review.AnalysisRan || analysisFindings(second) != 1 {
		t.Errorf("after Analyze: analysis %q, %d type-aware findings; want ran, 1", second.Analysis, analysisFindings(second))
	}
	if len(second.Findings) != len(first.Findings)+1 {
		t.Errorf("after Analyze: %d findings, want the %d of the first phase and the printf one", len(second.Findings), len(first.Findings))
	}
	// An incremental run carries the analysed findings of unchanged files.
	third, err := eng.Run(t.Context(), review.Request{Dir: dir, Depth: review.DepthComprehensive, Analysis: review.AnalysisDefer, Paths: []string{"go.mod"}})
	if err != nil {
		t.Fatal(err)
	}
	if analysisFindings(third) != 1 || third.Analysis.State != review.AnalysisPending {
		t.Errorf("incremental run: analysis %q, %d type-aware findings; want pending with the carried one", third.Analysis, analysisFindings(third))
	}
	if _, err := eng.Analyze(t.Context(), second); !errors.Is(err, ErrStale) {
		t.Errorf("Analyze of a replaced result: err = %v, want ErrStale", err)
	}
}
