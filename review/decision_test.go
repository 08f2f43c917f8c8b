package review

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// checked is the input of a review that checked everything it could: a
// reviewed Go file, the type-aware analysis, a model, a passing gate.
func checked() DecisionInput {
	return DecisionInput{
		Tier: TierLocal, Files: 1, Reviewed: 1, Perspectives: []Perspective{Functional, Standards, Readiness}, Depth: DepthComprehensive,
		Analysis: Analysis{State: AnalysisRan}, AnalysisApplies: true,
		Model: ModelStatus{Configured: true, Ran: true, Summary: "1 request, 0 candidates"},
		Gates: GateRun{Configured: []Gate{{Name: "tests", Command: "go test ./..."}},
			Results: []GateResult{{Name: "tests", Command: "go test ./...", Duration: time.Second}}},
		Oriented: true, SourceChanged: true, TestsChanged: true,
		Digest: "sha256:00",
	}
}

func finding(n int, rule string, p Perspective, sev Severity) *Finding {
	return &Finding{Number: n, ID: fmt.Sprintf("f%d", n), RuleID: rule, Perspective: p, Severity: sev, Title: "[" + p.Title() + "] Title " + strconv.Itoa(n),
		Span: Span{Path: "a.go", StartLine: n}}
}

// TestDecideRecommendation covers every recommendation, their precedence,
// and the verdict each stays consistent with.
func TestDecideRecommendation(t *testing.T) {
	with := func(fs ...*Finding) DecisionInput {
		in := checked()
		in.Findings = fs
		return in
	}
	failing := checked()
	failing.Gates.Results[0].ExitCode = 1
	nothing := checked()
	nothing.Reviewed, nothing.Files = 0, 2
	secretInSkipped := nothing
	secretInSkipped.Findings = []*Finding{finding(1, "security/hardcoded-secret", Security, SeverityCritical)}
	for _, tt := range []struct {
		name     string
		in       DecisionInput
		want     Recommendation
		blocking int
	}{
		{"nothing found", checked(), RecommendAccept, 0},
		{"low functional", with(finding(1, "functional/x", Functional, SeverityLow)), RecommendMinor, 0},
		{"medium standards", with(finding(1, "standards/x", Standards, SeverityMedium)), RecommendMinor, 0},
		{"medium readiness", with(finding(1, "readiness/x", Readiness, SeverityMedium)), RecommendMinor, 0},
		{"medium functional", with(finding(1, "functional/x", Functional, SeverityMedium)), RecommendMoreWork, 1},
		{"medium security", with(finding(1, "security/x", Security, SeverityMedium)), RecommendMoreWork, 1},
		{"high standards", with(finding(1, "standards/x", Standards, SeverityHigh)), RecommendMoreWork, 1},
		// A fixable critical bug is more work, not a rejection.
		{"critical", with(finding(1, "functional/x", Functional, SeverityCritical), finding(2, "standards/y", Standards, SeverityLow)), RecommendMoreWork, 1},
		{"failing gate", failing, RecommendMoreWork, 0},
		{"stub", with(finding(1, StubRule, Readiness, SeverityMedium)), RecommendInsufficient, 1},
		{"stub over a critical", with(finding(1, "functional/x", Functional, SeverityCritical), finding(2, StubRule, Readiness, SeverityMedium)), RecommendInsufficient, 2},
		{"policy", with(finding(1, PolicyRule, Readiness, SeverityHigh)), RecommendReject, 1},
		{"policy over a stub", with(finding(1, PolicyRule, Readiness, SeverityHigh), finding(2, StubRule, Readiness, SeverityMedium)), RecommendReject, 2},
		{"nothing reviewable", nothing, RecommendNull, 0},
		// A secret in a skipped file is a judgement all the same.
		{"secret in a skipped file", secretInSkipped, RecommendMoreWork, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.in)
			if d.Recommendation != tt.want || len(d.Blocking) != tt.blocking {
				t.Fatalf("recommendation %s with %d blocking, want %s with %d\nsummary: %s", d.Recommendation, len(d.Blocking), tt.want, tt.blocking, d.Summary)
			}
			if len(d.Blocking)+len(d.Minor) != len(tt.in.Findings) {
				t.Errorf("%d blocking + %d minor, want the %d findings", len(d.Blocking), len(d.Minor), len(tt.in.Findings))
			}
			if d.Summary == "" || d.Rationale == "" {
				t.Errorf("summary %q, rationale %q: want both", d.Summary, d.Rationale)
			}
			var c Counts
			for _, f := range tt.in.Findings {
				c.Add(f.Severity)
			}
			if !Consistent(VerdictFor(c), d.Recommendation) {
				t.Errorf("verdict %s is not consistent with %s", VerdictFor(c), d.Recommendation)
			}
			if (d.Recommendation == RecommendMoreWork) != (len(d.NextWork) > 0) && d.Recommendation != RecommendInsufficient && d.Recommendation != RecommendReject {
				t.Errorf("next work %q for %s", d.NextWork, d.Recommendation)
			}
		})
	}
}

// TestDecideGaps covers each gap: the id it opens, the readiness it
// leaves, its closure, and the confidence it costs (exactly its row of the
// table, from the tier's start).
func TestDecideGaps(t *testing.T) {
	for _, tt := range []struct {
		name      string
		edit      func(in *DecisionInput)
		gaps      []GapID
		readiness Verification
		closure   string
	}{
		{"none", func(in *DecisionInput) {}, nil, VerificationComplete, ""},
		{"analysis not requested", func(in *DecisionInput) {
			in.Analysis = Analysis{State: AnalysisSkipped, Reason: "not requested (use --depth comprehensive, or set analysis.budget in .reviewls.yaml)"}
		}, []GapID{GapTypeAwareNotRun}, VerificationIncomplete, "reviewls review --depth comprehensive"},
		{"analysis not part of the chosen depth", func(in *DecisionInput) { in.Analysis, in.Depth = Analysis{}, DepthStandard },
			[]GapID{GapTypeAwareNotRun}, VerificationIncomplete, "reviewls review --depth comprehensive"},
		{"analysis does not apply", func(in *DecisionInput) { in.Analysis, in.AnalysisApplies = Analysis{}, false }, nil, VerificationComplete, ""},
		{"analysis untrusted", func(in *DecisionInput) {
			in.Analysis = Analysis{State: AnalysisSkipped, Reason: "not requested, and this repository is not trusted to run the Go toolchain"}
		}, []GapID{GapTypeAwareNotRun}, VerificationIncomplete, "reviewls trust"},
		{"analysis pending", func(in *DecisionInput) { in.Analysis = Analysis{State: AnalysisPending} }, []GapID{GapTypeAwarePending}, VerificationIncomplete, "wait for the background analysis to finish"},
		{"analysis timed out", func(in *DecisionInput) { in.Analysis = Analysis{State: AnalysisTimedOut, Budget: time.Minute} },
			[]GapID{GapTypeAwareTimedOut}, VerificationIncomplete, "analysis: {budget: 2m0s} in .reviewls.yaml"},
		{"module missing", func(in *DecisionInput) {
			in.Analysis = Analysis{State: AnalysisSkipped, Blocked: true, Reason: "the module of example.com/x is not in the module cache (run 'go mod download'; reviewls never downloads modules)"}
		}, []GapID{GapTypeAwareBlocked}, VerificationBlocked, "go mod download"},
		{"toolchain missing", func(in *DecisionInput) {
			in.Analysis = Analysis{State: AnalysisSkipped, Blocked: true, Reason: "go.mod needs go1.99 (not installed; reviewls never downloads toolchains)"}
		}, []GapID{GapTypeAwareBlocked}, VerificationBlocked, "install go1.99 (go install golang.org/dl/go1.99@latest)"},
		{"no model", func(in *DecisionInput) { in.Model = ModelStatus{} }, []GapID{GapModelNotConfigured}, VerificationIncomplete, "configure a model (docs/model.md)"},
		{"model pending", func(in *DecisionInput) { in.Model = ModelStatus{Configured: true, Pending: true} }, []GapID{GapModelPending}, VerificationIncomplete, "wait for the model review to finish"},
		{"model down", func(in *DecisionInput) { in.Model = ModelStatus{Configured: true, Unavailable: "connection refused"} },
			[]GapID{GapModelUnavailable}, VerificationBlocked, "check the model endpoint (reviewls review -v shows its requests)"},
		{"no gates", func(in *DecisionInput) { in.Gates = GateRun{} }, []GapID{GapGatesNotConfigured}, VerificationIncomplete, "list them under gates: in .reviewls.yaml, then reviewls review --gates"},
		{"gates not run", func(in *DecisionInput) { in.Gates.Results = nil }, []GapID{GapGatesNotRun}, VerificationIncomplete, "reviewls review --gates"},
		{"gates untrusted", func(in *DecisionInput) { in.Gates = GateRun{Withheld: true} }, []GapID{GapGatesUntrusted}, VerificationIncomplete, "reviewls trust, then reviewls review --gates"},
		{"gate timed out", func(in *DecisionInput) {
			in.Gates.Results[0] = GateResult{Name: "tests", Command: "go test ./...", ExitCode: -1, TimedOut: true, Timeout: time.Minute}
		}, []GapID{GapGateTimedOut}, VerificationIncomplete, `raise the timeout of gate "tests" under gates: in .reviewls.yaml`},
		{"file over the size cap", func(in *DecisionInput) {
			in.Files++
			in.SizeCapped = []*File{{Path: "big.go", Skip: "size 2.5 MiB exceeds the 1 MiB cap", OverCap: 5 << 19}}
		}, []GapID{GapSizeCap}, VerificationIncomplete, "size-cap: 4MiB in .reviewls.yaml"},
		{"binary not scanned", func(in *DecisionInput) { in.Unscanned = []Unscanned{{Path: "a.bin", Reason: "binary"}} },
			[]GapID{GapNotScanned}, VerificationIncomplete, "check these files for secrets by hand"},
		{"shallow clone", func(in *DecisionInput) { in.Shallow = true }, []GapID{GapShallowClone}, VerificationBlocked, "git fetch --deepen=50"},
		{"findings capped", func(in *DecisionInput) { in.Cut = 3 }, []GapID{GapFindingsCapped}, VerificationIncomplete, "raise max-findings in .reviewls.yaml (per-file, per-review)"},
		{"check failed", func(in *DecisionInput) { in.Problems = []string{"functional lens: boom"} }, []GapID{GapCheckFailed}, VerificationIncomplete, "rerun with --log-level debug and report the failure"},
		{"orientation pending", func(in *DecisionInput) { in.Oriented = false }, []GapID{GapOrientationDeferred}, VerificationComplete, "wait for the next review status"},
		{"nothing reviewed", func(in *DecisionInput) { in.Reviewed = 0 }, []GapID{GapNothingReviewed}, VerificationBlocked,
			"review the skipped files by hand, or change what the review skips (size-cap:, ignore: in .reviewls.yaml)"},
		// Blocked wins over incomplete.
		{"blocked and incomplete", func(in *DecisionInput) { in.Shallow, in.Gates.Results = true, nil },
			[]GapID{GapGatesNotRun, GapShallowClone}, VerificationBlocked, "reviewls review --gates"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := checked()
			tt.edit(&in)
			d := Decide(in)
			var ids []GapID
			points := 0
			for _, g := range d.Gaps {
				ids = append(ids, g.ID)
				points += g.Points
				if g.Points != ruleOf(g.ID).Points || g.Text == "" || g.Closure == "" {
					t.Errorf("gap %+v: want the table's deduction, a text and a closure", g)
				}
			}
			if !slices.Equal(ids, tt.gaps) || d.Readiness != tt.readiness {
				t.Fatalf("gaps %v, readiness %s; want %v, %s", ids, d.Readiness, tt.gaps, tt.readiness)
			}
			if top, ok := d.TopGap(); ok && top.Closure != tt.closure || !ok && tt.closure != "" {
				t.Errorf("top gap %+v, want closure %q", top, tt.closure)
			}
			if d.InitialPoints != 90 || d.Points != 90-points {
				t.Errorf("confidence %d from %d, want %d from 90", d.Points, d.InitialPoints, 90-points)
			}
		})
	}
}

// TestDecideConfidence checks the score: it starts from the tier, never
// leaves [0, 1], and only closing a gap raises it, by exactly the gap's
// deduction.
func TestDecideConfidence(t *testing.T) {
	for _, c := range InitialConfidence {
		in := checked()
		in.Tier = c.Tier
		if d := Decide(in); d.Points != c.Points || d.Confidence() != float64(c.Points)/100 {
			t.Errorf("%s: confidence %d, want %d", c.Tier, d.Points, c.Points)
		}
	}
	worst := checked()
	worst.Tier, worst.Reviewed, worst.Shallow, worst.Cut = TierHighRisk, 0, true, 1
	worst.Problems, worst.Unscanned = []string{"x"}, []Unscanned{{Path: "b", Reason: "binary"}}
	worst.SizeCapped = []*File{{Path: "a", OverCap: 1}}
	if d := Decide(worst); d.Points != 0 || d.Readiness != VerificationBlocked {
		t.Errorf("worst case: confidence %d, readiness %s; want 0, blocked", d.Points, d.Readiness)
	}
	// Closing the type-aware gap raises the confidence by its deduction,
	// and findings never change it.
	open := checked()
	open.Analysis = Analysis{State: AnalysisSkipped, Reason: "not requested"}
	open.Findings = []*Finding{finding(1, "functional/x", Functional, SeverityHigh)}
	closed := open
	closed.Analysis = Analysis{State: AnalysisRan}
	a, b := Decide(open), Decide(closed)
	if b.Points-a.Points != ruleOf(GapTypeAwareNotRun).Points || b.Points != Decide(checked()).Points {
		t.Errorf("closing the type-aware gap: %d -> %d, want +%d to %d", a.Points, b.Points, ruleOf(GapTypeAwareNotRun).Points, Decide(checked()).Points)
	}
}

// TestDecideReadinessWords checks that an approval with incomplete
// readiness says so in words, and a complete one does not.
func TestDecideReadinessWords(t *testing.T) {
	in := checked()
	in.Gates.Results = nil
	d := Decide(in)
	if d.Recommendation != RecommendAccept || !strings.Contains(d.Summary, "verification incomplete") || !strings.Contains(d.Summary, "gates-not-run") {
		t.Errorf("incomplete approval: %s: %q, want it to say verification incomplete and why", d.Recommendation, d.Summary)
	}
	if d := Decide(checked()); strings.Contains(d.Summary, "incomplete") {
		t.Errorf("complete approval: %q says incomplete", d.Summary)
	}
}

// TestDecideResidual checks the no-finding residual risks: stated only
// when nothing was found, as facts about what the review could not see.
func TestDecideResidual(t *testing.T) {
	in := checked()
	in.Hotspots = []Hotspot{{Path: "db/store.go", Classes: []string{"persistence"}}, {Path: "auth/login.go", Classes: []string{"auth"}}}
	in.PublicAPIs = []string{"api.go:3 func Serve()"}
	in.TestsChanged = false
	want := []string{
		"The change touches auth code (auth/login.go): the security rules check known patterns, not the access logic itself.",
		"The change touches persistence code (db/store.go): no rule checks persistence logic (queries, migrations, transactions).",
		"The change alters 1 symbol of the public API: callers outside the reviewed files were not checked.",
		"No test changed with the code: nothing shows the new behaviour is tested.",
	}
	if diff := cmp.Diff(want, Decide(in).Residual); diff != "" {
		t.Errorf("residual risks (-want +got):\n%s", diff)
	}
	in.Findings = []*Finding{finding(1, "standards/x", Standards, SeverityLow)}
	if r := Decide(in).Residual; r != nil {
		t.Errorf("residual risks %q with a finding, want none", r)
	}
}

// TestConsistent checks the verdict-recommendation pairs a review can
// produce.
func TestConsistent(t *testing.T) {
	for _, tt := range []struct {
		v    Verdict
		r    Recommendation
		want bool
	}{
		{VerdictApprove, RecommendAccept, true},
		{VerdictApprove, RecommendNull, true},
		{VerdictApprove, RecommendMoreWork, true}, // a failing gate
		{VerdictApprove, RecommendMinor, false},
		{VerdictApproveWithComments, RecommendAccept, false},
		{VerdictApproveWithComments, RecommendMinor, true},
		{VerdictRequestChanges, RecommendMinor, false},
		{VerdictRequestChanges, RecommendAccept, false},
		{VerdictRequestChanges, RecommendReject, true},
	} {
		if got := Consistent(tt.v, tt.r); got != tt.want {
			t.Errorf("Consistent(%s, %s) = %t, want %t", tt.v, tt.r, got, tt.want)
		}
	}
}

// TestDecisionDoc checks that docs/decision.md prints the confidence
// table as the code has it: the initial confidence of each tier and each
// gap's readiness and deduction.
func TestDecisionDoc(t *testing.T) {
	doc, err := os.ReadFile("../docs/decision.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([A-Za-z_-]+)` \\| ([a-z]+ \\| )?([0-9.]+) \\|")
	var gotTiers, gotGaps []string
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		if m[2] == "" {
			gotTiers = append(gotTiers, m[1]+" "+m[3])
		} else {
			gotGaps = append(gotGaps, m[1]+" "+strings.TrimSuffix(m[2], " | ")+" "+m[3])
		}
	}
	var wantTiers, wantGaps []string
	for _, c := range InitialConfidence {
		wantTiers = append(wantTiers, fmt.Sprintf("%s %.2f", c.Tier, float64(c.Points)/100))
	}
	for _, r := range ConfidenceRules {
		wantGaps = append(wantGaps, fmt.Sprintf("%s %s %.2f", r.Gap, r.Readiness, float64(r.Points)/100))
	}
	if diff := cmp.Diff(wantTiers, gotTiers); diff != "" {
		t.Errorf("docs/decision.md initial confidence (-code +doc):\n%s", diff)
	}
	if diff := cmp.Diff(wantGaps, gotGaps); diff != "" {
		t.Errorf("docs/decision.md gaps (-code +doc):\n%s", diff)
	}
}

// TestDigest checks that the digest changes with the reviewed bytes and
// nothing else.
func TestDigest(t *testing.T) {
	cs := func(line string, skipped bool) *ChangeSet {
		f := &File{Path: "a.go", Status: StatusModified, Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []string{"-a", "+" + line}}}}
		u := UntrackedFile("new.txt", []byte("hello\n"))
		if skipped {
			u.Skip = SkipBinary
		}
		return &ChangeSet{Files: []*File{f, u}}
	}
	a, b, c := Digest(cs("b", false)), Digest(cs("c", false)), Digest(cs("b", true))
	if a == b || a == c || !strings.HasPrefix(a, "sha256:") || len(a) != len("sha256:")+64 {
		t.Errorf("digests %s, %s, %s: want three distinct sha256 digests", a, b, c)
	}
	if a != Digest(cs("b", false)) {
		t.Error("the digest of the same change differs")
	}
}

// TestModelStatus checks what a decision reads of the model review: off
// is not configured, an endpoint that did not answer some requests is
// unavailable (blocked), requests not asked between saves are pending.
func TestModelStatus(t *testing.T) {
	for _, tt := range []struct {
		name string
		m    ModelReview
		gaps []GapID
	}{
		{"off", ModelReview{}, []GapID{GapModelNotConfigured}},
		{"pending", ModelReview{State: ModelPending}, []GapID{GapModelPending}},
		{"invalid settings", ModelReview{State: ModelUnavailable, Reason: "no key in $KEY"}, []GapID{GapModelUnavailable}},
		{"ran", ModelReview{State: ModelRan, Counts: ModelCounts{Requests: 2}}, nil},
		{"endpoint down", ModelReview{State: ModelRan, Counts: ModelCounts{Requests: 2, Unverified: map[string]int{"unavailable": 2}}}, []GapID{GapModelUnavailable}},
		{"unparseable answer", ModelReview{State: ModelRan, Counts: ModelCounts{Requests: 2, Unverified: map[string]int{"unparseable": 1}}}, nil},
		{"cache only", ModelReview{State: ModelRan, Counts: ModelCounts{Requests: 2, Unverified: map[string]int{"not-asked": 1}}}, []GapID{GapModelPending}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := checked()
			in.Model = modelStatusOf(tt.m)
			var ids []GapID
			for _, g := range Decide(in).Gaps {
				ids = append(ids, g.ID)
			}
			if !slices.Equal(ids, tt.gaps) {
				t.Errorf("gaps %v, want %v (status %+v)", ids, tt.gaps, in.Model)
			}
		})
	}
}

// TestDecideGateWords checks how the decision words the gates that ran:
// the next work names the gate and its exit code, or why it did not
// start; the evidence says how each ran, its command beside a name.
func TestDecideGateWords(t *testing.T) {
	in := checked()
	in.Gates.Results = []GateResult{
		{Name: "tests", Command: "go test ./...", Duration: time.Second},
		{Name: "lint", Command: "golangci-lint run", ExitCode: 1, Duration: 2 * time.Second},
		{Name: "vet", Command: "vet", ExitCode: -1, Err: "exec: \"/bin/sh\": permission denied"},
	}
	d := Decide(in)
	wantWork := []string{`Make gate "lint" pass (exit 1).`, `Make gate "vet" pass (it did not start: exec: "/bin/sh": permission denied).`}
	if diff := cmp.Diff(wantWork, d.NextWork); diff != "" {
		t.Errorf("next work (-want +got):\n%s", diff)
	}
	wantEvidence := []string{
		`gate "tests" passed in 1s (go test ./...)`,
		`gate "lint" failed: exit 1 after 2s (golangci-lint run)`,
		`gate "vet" did not start: exec: "/bin/sh": permission denied`,
	}
	gates := slices.DeleteFunc(slices.Clone(d.Evidence), func(e string) bool { return !strings.HasPrefix(e, "gate ") })
	if diff := cmp.Diff(wantEvidence, gates); diff != "" {
		t.Errorf("evidence of the gates (-want +got):\n%s", diff)
	}
}

// TestDecideHeldSecret checks how the decision cites a secret held by an
// inline ignore, which the findings neither list nor number: no "#0",
// and the way that lets it through (allow-secrets), not a fix to its code.
func TestDecideHeldSecret(t *testing.T) {
	held := &Finding{RuleID: "security/hardcoded-secret", Perspective: Security, Severity: SeverityCritical, Title: "Hardcoded GitHub token",
		Span: Span{Path: "a.go", StartLine: 3}, Secrets: []string{"ghp_x"}}
	res := &Result{ChangeSet: &ChangeSet{Files: []*File{{Path: "a.go", Content: []byte("x\n")}}},
		Suppressed: []Suppressed{{Finding: held, Held: true}}}
	d := Decide(DecisionInputOf(res))
	if d.Recommendation != RecommendMoreWork {
		t.Fatalf("recommendation = %s, want needs-more-work for a held secret", d.Recommendation)
	}
	all := d.Summary + "\n" + strings.Join(d.NextWork, "\n")
	if strings.Contains(all, "#0") {
		t.Errorf("the decision numbers the held secret #0:\n%s", all)
	}
	if !strings.Contains(all, "allow-secrets") || !strings.Contains(all, "a secret held by an inline ignore") {
		t.Errorf("the decision does not say the secret is held and how to allow it:\n%s", all)
	}
}
