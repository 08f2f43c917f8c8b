package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/llm/llmtest"
	"github.com/reviewls/reviewls/review/orient"
)

// gapIDs returns the ids of a decision's gaps.
func gapIDs(d *review.Decision) []review.GapID {
	var ids []review.GapID
	for _, g := range d.Gaps {
		ids = append(ids, g.ID)
	}
	return ids
}

// runWith reviews the local changes of dir under the configuration cfg.
func runWith(t *testing.T, dir string, cfg *review.Config) (*review.Result, *Engine) {
	t.Helper()
	eng, err := Open(dir, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	res, err := eng.Run(t.Context(), review.Request{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return res, eng
}

// TestDecisionOfARun checks the decision the engine gives a real run: the
// recommendation from the findings, the gaps of what did not run (the
// type-aware analysis of a Go change, a model, the gates), a confidence of
// the tier's start less those gaps, and the digest of the reviewed bytes.
func TestDecisionOfARun(t *testing.T) {
	dir := repo(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "a.go": "package m\n\nfunc A() int { return 1 }\n"})
	write(t, dir, "a.go", []byte("package m\n\nfunc A() int { return 2 }\n"))
	res := run(t, dir, review.Request{})
	d := res.Decision
	if d == nil {
		t.Fatal("no decision")
	}
	want := []review.GapID{review.GapTypeAwareNotRun, review.GapModelNotConfigured, review.GapGatesNotConfigured}
	if d.Recommendation != review.RecommendAccept || d.Readiness != review.VerificationIncomplete || !slices.Equal(gapIDs(d), want) {
		t.Fatalf("decision %s, %s, gaps %v; want accept-as-is, incomplete, %v", d.Recommendation, d.Readiness, gapIDs(d), want)
	}
	if d.Digest != review.Digest(res.ChangeSet) || d.Digest == "" {
		t.Errorf("digest %q, want that of the change set", d.Digest)
	}
	if !review.Consistent(res.Verdict, d.Recommendation) {
		t.Errorf("verdict %s and recommendation %s disagree", res.Verdict, d.Recommendation)
	}

	// The same change reviewed at comprehensive depth closes the
	// type-aware gap: the confidence rises by its deduction, no more.
	deep := run(t, dir, review.Request{Depth: review.DepthComprehensive}).Decision
	if slices.Contains(gapIDs(deep), review.GapTypeAwareNotRun) {
		t.Fatalf("comprehensive: gaps %v, want the type-aware gap closed", gapIDs(deep))
	}
	rule := review.ConfidenceRules[slices.IndexFunc(review.ConfidenceRules, func(r review.ConfidenceRule) bool { return r.Gap == review.GapTypeAwareNotRun })]
	if deep.Points-d.Points != rule.Points {
		t.Errorf("confidence %d -> %d at comprehensive depth, want +%d", d.Points, deep.Points, rule.Points)
	}

	// Another byte reviewed is another digest.
	write(t, dir, "a.go", []byte("package m\n\nfunc A() int { return 3 }\n"))
	if again := run(t, dir, review.Request{}).Decision; again.Digest == d.Digest {
		t.Error("the digest did not change with the reviewed bytes")
	}
}

// TestDecisionStubAndPolicy checks that a stub makes the change
// insufficient-but-promising and a policy violation rejects it, each
// cited.
func TestDecisionStubAndPolicy(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package m\n"})
	write(t, dir, "a.go", []byte("package m\n\nimport _ \"github.com/pkg/errors\"\n\nfunc Save() error {\n\tpanic(\"not implemented\")\n}\n"))
	d := run(t, dir, review.Request{}).Decision
	if d.Recommendation != review.RecommendInsufficient || len(d.Blocking) != 1 || d.Blocking[0].RuleID != review.StubRule || d.Blocking[0].Line != 6 {
		t.Errorf("stub: %s, blocking %v; want insufficient-but-promising citing a.go:6", d.Recommendation, d.Blocking)
	}
	res, _ := runWith(t, dir, &review.Config{Policy: review.Policy{Imports: []string{"github.com/pkg/errors"}}})
	if d := res.Decision; d.Recommendation != review.RecommendReject || !strings.Contains(d.Summary, "policy") || res.Verdict != review.VerdictRequestChanges {
		t.Errorf("policy: %s (%q), verdict %s; want reject, request_changes", d.Recommendation, d.Summary, res.Verdict)
	}
}

// TestDecisionNothingReviewable checks null: every changed file skipped.
func TestDecisionNothingReviewable(t *testing.T) {
	dir := repo(t, map[string]string{"a.txt": "a\n"})
	write(t, dir, "blob.bin", []byte{0, 1, 2, 3, 0, 0, 7})
	d := run(t, dir, review.Request{}).Decision
	if d.Recommendation != review.RecommendNull || d.Readiness != review.VerificationBlocked {
		t.Errorf("binary only: %s, %s; want null, blocked", d.Recommendation, d.Readiness)
	}
}

// TestRunGates runs the gates of a configuration: a passing one, a
// failing one (needs-more-work, with its exit code and the tail of its
// output), and one killed by its timeout (a gap); each in the work tree.
func TestRunGates(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package m\n"})
	write(t, dir, "a.go", []byte("package m\n\nconst a = 1\n"))
	gates := []review.Gate{
		{Name: "where", Command: "pwd > gate-ran"},
		{Name: "tests", Command: "echo FAIL: TestA; echo token ghp_Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa0SdFgHjKlZ; exit 3"},
		{Name: "hang", Command: "sleep 60", Timeout: 50 * time.Millisecond},
	}
	res, eng := runWith(t, dir, &review.Config{Gates: gates})
	if res.Decision.Recommendation != review.RecommendAccept || !slices.Contains(gapIDs(res.Decision), review.GapGatesNotRun) {
		t.Fatalf("before the gates: %s, gaps %v; want accept-as-is with gates-not-run", res.Decision.Recommendation, gapIDs(res.Decision))
	}
	if _, err := os.Stat(filepath.Join(dir, "gate-ran")); err == nil {
		t.Fatal("a gate ran without RunGates")
	}
	eng.RunGates(t.Context(), res)
	rs := res.ProjectGates.Results
	if len(rs) != 3 {
		t.Fatalf("%d results, want 3", len(rs))
	}
	if where, err := os.ReadFile(filepath.Join(dir, "gate-ran")); err != nil || !rs[0].Passed() || strings.TrimSpace(string(where)) != eng.Root() {
		t.Errorf("gate where: %+v, ran in %q (%v); want passed in %s", rs[0], where, err, eng.Root())
	}
	if r := rs[1]; r.Passed() || r.ExitCode != 3 || !strings.Contains(r.Tail, "FAIL: TestA") || strings.Contains(r.Tail, "Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa0SdFgHjKlZ") {
		t.Errorf("gate tests: %+v; want exit 3, its output's tail, the token redacted", r)
	}
	if r := rs[2]; !r.TimedOut || r.Passed() {
		t.Errorf("gate hang: %+v, want timed out", r)
	}
	d := res.Decision
	if d.Recommendation != review.RecommendMoreWork || !slices.Contains(gapIDs(d), review.GapGateTimedOut) || slices.Contains(gapIDs(d), review.GapGatesNotRun) {
		t.Errorf("after the gates: %s, gaps %v; want needs-more-work, the timeout a gap", d.Recommendation, gapIDs(d))
	}
	if !slices.ContainsFunc(d.NextWork, func(s string) bool { return strings.Contains(s, `Make gate "tests" pass`) }) {
		t.Errorf("next work %q, want the failing gate", d.NextWork)
	}
}

// TestBoardNeverCompleteWithOpenFindings checks that a board item with an
// open finding is never complete: not after a sweep, not after an
// investigation, not carried over from the loop.
func TestBoardNeverCompleteWithOpenFindings(t *testing.T) {
	dir := repo(t, map[string]string{"a/a.go": "package a\n", "b/b.go": "package b\n"})
	write(t, dir, "a/a.go", []byte("package a\n\nfunc Save() error {\n\tpanic(\"not implemented\")\n}\n"))
	write(t, dir, "b/b.go", []byte("package b\n\nconst b = 2\n"))
	res := run(t, dir, review.Request{Mode: review.ModeInteractive})
	status := func(l *review.Loop) map[string]string {
		out := map[string]string{}
		for _, it := range l.Board {
			out[it.Area] = it.Status
		}
		return out
	}
	loop := res.Loop
	orient.Sweep(loop)
	if got := status(loop); got["a"] != review.StatusInProgress || got["b"] != review.StatusComplete {
		t.Errorf("after a sweep: %v, want a (open finding) in progress and b complete", got)
	}
	if _, err := orient.Investigated(loop, loop.Board[0].ID, "board-1-001", "is it safe?", "walkback/board-1-001-register-2.md", nil); err != nil {
		t.Fatal(err)
	}
	if got := status(loop); got["a"] != review.StatusInProgress {
		t.Errorf("after an investigation: %v, want a in progress", got)
	}
	loop.Board[0].Status = review.StatusComplete // as an older loop on disk may say
	again := run(t, dir, review.Request{Mode: review.ModeInteractive, Loop: loop})
	if got := status(again.Loop); got["a"] != review.StatusInProgress {
		t.Errorf("next review: %v, want a in progress", got)
	}
}

// TestDecisionAfterAnalyze checks that the engine decides again when the
// deferred type-aware analysis ends: the pending gap closes, the
// confidence rises by its deduction, and the decision is still bound to
// the bytes of the same change.
func TestDecisionAfterAnalyze(t *testing.T) {
	dir := printfRepo(t, "show.go")
	eng, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	first, err := eng.Run(t.Context(), review.Request{Dir: dir, Depth: review.DepthComprehensive, Analysis: review.AnalysisDefer})
	if err != nil {
		t.Fatal(err)
	}
	second, err := eng.Analyze(t.Context(), first)
	if err != nil {
		t.Fatal(err)
	}
	before, after := first.Decision, second.Decision
	if !slices.Contains(gapIDs(before), review.GapTypeAwarePending) || slices.Contains(gapIDs(after), review.GapTypeAwarePending) {
		t.Fatalf("gaps %v, then %v; want type-aware-pending, then closed", gapIDs(before), gapIDs(after))
	}
	rule := review.ConfidenceRules[slices.IndexFunc(review.ConfidenceRules, func(r review.ConfidenceRule) bool { return r.Gap == review.GapTypeAwarePending })]
	if after.Points-before.Points != rule.Points {
		t.Errorf("confidence %d -> %d after the analysis, want +%d", before.Points, after.Points, rule.Points)
	}
	if after.Digest == "" || after.Digest != before.Digest || after.Digest != review.Digest(second.ChangeSet) {
		t.Errorf("digest %q after the analysis, %q before; want that of the change set, both", after.Digest, before.Digest)
	}
}

// TestDecisionLeavesAdvisoryOut checks that the decision weighs the
// findings the verdict weighs: an advisory model finding (the model is
// not blocking) neither blocks nor asks for changes, and a blocking
// model's finding does both.
func TestDecisionLeavesAdvisoryOut(t *testing.T) {
	for _, tt := range []struct {
		blocking bool
		want     review.Recommendation
		cited    int
	}{
		{false, review.RecommendAccept, 0},
		{true, review.RecommendMoreWork, 1},
	} {
		s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(offByOneAnswer)})
		eng := modelEngine(t, calcRepo(t, offByOne), s, review.ModelConfig{Blocking: tt.blocking})
		_, res := reviewWithModel(t, eng, review.Request{})
		if len(modelFindings(res)) != 1 {
			t.Fatalf("blocking %v: model findings %q, want the off-by-one", tt.blocking, modelFindings(res))
		}
		d := res.Decision
		if d.Recommendation != tt.want || len(d.Blocking)+len(d.Minor) != tt.cited || !review.Consistent(res.Verdict, d.Recommendation) {
			t.Errorf("blocking %v: %s citing %d findings, verdict %s; want %s citing %d", tt.blocking, d.Recommendation, len(d.Blocking)+len(d.Minor), res.Verdict, tt.want, tt.cited)
		}
	}
}
