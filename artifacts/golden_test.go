package artifacts

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/golden-<name>, rewriting it under
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", "golden-"+name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", file, diff)
	}
}

// document is one rendered output of a scenario; schema is empty for
// non-JSON documents.
type document struct {
	name, schema string
	data         []byte
}

func render(t *testing.T, res *review.Result) []document {
	t.Helper()
	must := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	enc := func(schema string, v any) []byte {
		t.Helper()
		return must(encodeValid(schema, v, newRedactor(res)))
	}
	docs := []document{
		{"review.md", "", ReviewMarkdown(res, DefaultDisclaimer)},
		{"metadata.json", "metadata", enc("metadata", Metadata(res, testOpts, "explanations/board-1-Login.md", "walkback/board-1-001-register-2.md", "walkback/notes.md"))},
		{"diff-state.json", "diff-state", enc("diff-state", DiffState(res, testOpts))},
		{"dispatch-manifest.json", "dispatch-manifest", enc("dispatch-manifest", Manifest(res, testOpts))},
		{"findings.json", "findings", must(FindingsJSON(res, ""))},
		{"review-artifact.json", "review-artifact", must(River(res, testOpts))},
		{"pr-reference.xml", "", PRReference(res)},
		{"sarif", "", must(SARIF(res, testOpts))},
	}
	for _, p := range canonical(res.Perspectives) {
		docs = append(docs, document{FindingsFile(p), "findings", must(FindingsJSON(res, p))})
	}
	if v := newView(res, testOpts); v.hasLedger() {
		docs = append(docs, document{"model-review.json", "model-review", enc("model-review", v.modelReview())})
	}
	if res.Mode == review.ModeInteractive {
		docs = append(docs,
			document{"dispatch-board.md", "", DispatchBoardMarkdown(res)},
			document{"walkthrough.md", "", WalkthroughMarkdown(res)},
			document{"emission-record.json", "emission-record", enc("emission-record", EmissionRecord(res))},
		)
	}
	return docs
}

var scenarios = map[string]func() *review.Result{
	"workflow":    decided(workflowResult),
	"interactive": decided(interactiveResult),
	"clean":       decided(cleanResult),
	"unborn":      decided(unbornResult),
	"model":       decided(modelResult),
}

// decided returns build with the result's decision made as the engine
// makes it.
func decided(build func() *review.Result) func() *review.Result {
	return func() *review.Result {
		res := build()
		res.Digest = review.Digest(res.ChangeSet)
		d := review.Decide(review.DecisionInputOf(res))
		res.Decision = &d
		return res
	}
}

// TestGolden renders every document of every scenario and compares it with
// its golden file. Every JSON golden also passes its schema, so the format
// and the schema cannot drift apart.
func TestGolden(t *testing.T) {
	for name, build := range scenarios {
		t.Run(name, func(t *testing.T) {
			for _, d := range render(t, build()) {
				file := name + "-" + d.name
				if d.name == "sarif" {
					file = name + ".sarif"
				}
				golden(t, file, d.data)
				if d.schema != "" {
					if err := schemas.Validate(d.schema, d.data); err != nil {
						t.Errorf("%s: %v", file, err)
					}
				}
				if bytes.Contains(d.data, []byte(secretKey)) || bytes.Contains(d.data, []byte(secretQuote)) {
					t.Errorf("%s contains a secret", file)
				}
			}
		})
	}
}

// TestGoldenFilesValidate re-reads the JSON goldens from disk, so a golden
// edited by hand is checked too.
func TestGoldenFilesValidate(t *testing.T) {
	files, err := filepath.Glob("testdata/golden-*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no JSON goldens")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		name = name[strings.Index(name, "-")+1:]
		name = name[strings.Index(name, "-")+1:] // drop golden-<scenario>-
		schema, ok := schemas.ForFile(name + ".json")
		if !ok {
			if name == "findings" {
				schema = "findings"
			} else {
				t.Errorf("%s: no schema", f)
				continue
			}
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := schemas.Validate(schema, data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestReviewMarkdownShape(t *testing.T) {
	for name, build := range scenarios {
		t.Run(name, func(t *testing.T) {
			res := build()
			out := string(ReviewMarkdown(res, DefaultDisclaimer))
			if !strings.HasSuffix(out, "\n## Disclaimer and Human Review\n\n"+DefaultDisclaimer.Block+"\n\n"+HumanReviewCheckbox+"\n") {
				t.Errorf("review.md does not end with the disclaimer section:\n%s", tail(out, 600))
			}
			if strings.Count(out, "## Disclaimer and Human Review") != 1 {
				t.Error("disclaimer section appears more than once")
			}
			if strings.Contains(out, "PR Comment Draft") {
				t.Error("local review has a PR Comment Draft")
			}
			// Sections in hve-spec 8.4 order.
			order := []string{"# Code Review:", "## Changed Files Overview", "## Merged Findings", "## Risk Assessment", "## Disclaimer and Human Review"}
			last := -1
			for _, h := range order {
				i := strings.Index(out, h)
				if i < 0 || i < last {
					t.Errorf("section %q missing or out of order", h)
				}
				last = i
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// TestWalkthroughIsRegisterOne checks that the factual narrative carries no
// severity and no verdict.
func TestWalkthroughIsRegisterOne(t *testing.T) {
	out := string(WalkthroughMarkdown(interactiveResult()))
	for _, word := range []string{"Critical", "High", "Medium", "Low", "severity", "Severity", "verdict", "Verdict", "Approve", "request_changes"} {
		if strings.Contains(out, word) {
			t.Errorf("walkthrough.md contains %q", word)
		}
	}
}

func TestPRReferenceIsWellFormedXML(t *testing.T) {
	for name, build := range scenarios {
		t.Run(name, func(t *testing.T) {
			res := build()
			data := PRReference(res)
			var doc struct {
				XMLName       xml.Name `xml:"commit_history"`
				CurrentBranch string   `xml:"current_branch"`
				BaseBranch    string   `xml:"base_branch"`
				Commits       []struct {
					Hash    string `xml:"hash,attr"`
					Date    string `xml:"date,attr"`
					Subject string `xml:"message>subject"`
				} `xml:"commits>commit"`
				FullDiff string `xml:"full_diff"`
				Skipped  []struct {
					Path   string `xml:"path,attr"`
					Reason string `xml:"reason,attr"`
				} `xml:"skipped_files>file"`
			}
			if err := xml.Unmarshal(data, &doc); err != nil {
				t.Fatalf("not well-formed: %v\n%s", err, data)
			}
			// Every hunk line of every diffed file is in the diff, verbatim
			// once the CDATA is decoded.
			for _, f := range res.ChangeSet.Files {
				if f.Skip != "" {
					continue
				}
				for _, h := range f.Hunks {
					for _, l := range h.Lines {
						if want := res.Redactor.String(l); !strings.Contains(doc.FullDiff, want+"\n") {
							t.Errorf("diff lacks line %q", want)
						}
					}
				}
			}
			if got, want := len(doc.Skipped), len(res.Skipped()); got != want {
				t.Errorf("%d skipped files listed, want %d", got, want)
			}
		})
	}
	t.Run("commits between base and head", func(t *testing.T) {
		data := string(PRReference(workflowResult()))
		if !strings.Contains(data, `<commit hash="3b1f0c2" date="2026-06-20">`) || !strings.Contains(data, `<commit hash="5555555" date="2026-06-19">`) {
			t.Errorf("branch commits missing:\n%s", data)
		}
		if strings.Contains(data, "base commit") || strings.Contains(data, "older") {
			t.Errorf("commits at or before the merge-base listed:\n%s", data)
		}
	})
}

func TestSARIFShape(t *testing.T) {
	data, err := SARIF(workflowResult(), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID                   string `json:"id"`
						HelpURI              string `json:"helpUri"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID              string            `json:"ruleId"`
				RuleIndex           int               `json:"ruleIndex"`
				Level               string            `json:"level"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Locations           []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Suppressions []any `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	levels := map[string]string{}
	for _, r := range run.Results {
		levels[r.RuleID] = r.Level
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("%s: ruleIndex %d points at %s", r.RuleID, r.RuleIndex, run.Tool.Driver.Rules[r.RuleIndex].ID)
		}
		if r.Locations[0].PhysicalLocation.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("%s: uriBaseId %q", r.RuleID, r.Locations[0].PhysicalLocation.ArtifactLocation.URIBaseID)
		}
		if r.PartialFingerprints["reviewls/v1"] == "" && r.RuleID != "" {
			t.Errorf("%s: no fingerprint", r.RuleID)
		}
	}
	want := map[string]string{
		"security/hardcoded-secret":  "error",
		"functional/unchecked-error": "error",
		"standards/context-error":    "warning",
		"readiness/doc-drift":        "note",
		"standards/long-function":    "note",
	}
	if diff := cmp.Diff(want, levels); diff != "" {
		t.Errorf("levels (-want +got):\n%s", diff)
	}
	if uri := run.Results[3].Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "docs/auth%20guide.md" {
		t.Errorf("uri of a path with a space = %q", uri)
	}
}

// decisionResult is a review of one changed Go file with findings of the
// given rules (rule id and severity), decided; gates ran when any is
// given.
func decisionResult(findings []*review.Finding, gates ...review.GateResult) *review.Result {
	f := &review.File{
		Path: "store/store.go", Status: review.StatusModified, Language: review.LangGo, Added: 2, Deleted: 1,
		Hunks: []review.Hunk{{OldStart: 3, OldLines: 2, NewStart: 3, NewLines: 3,
			Lines: []string{" func Save(k string) error {", "-\treturn nil", "+\tpanic(\"not implemented\")", "+\t// TODO: write it", " }"}}},
		Lines:   map[int]review.LineState{4: review.LineUnstaged, 5: review.LineUnstaged},
		Content: []byte("package store\n\nfunc Save(k string) error {\n\tpanic(\"not implemented\")\n\t// TODO: write it\n}\n"),
	}
	res := &review.Result{
		ChangeSet: &review.ChangeSet{
			Target: review.Target{Kind: review.LocalChanges, Provider: "unknown", BaseRef: "HEAD", HeadRef: "refs/heads/feat/store", HeadSHA: headSHA, BaseSHA: headSHA, Branch: "feat/store"},
			Files:  []*review.File{f},
		},
		Risk:         &review.Risk{Tier: review.TierLocal, Hotspots: []review.Hotspot{{Path: "store/store.go", Classes: []string{"persistence"}}}},
		Perspectives: []review.Perspective{review.Functional, review.Standards, review.Readiness},
		Depth:        review.DepthStandard,
		Analysis:     review.Analysis{State: review.AnalysisSkipped, Reason: "not requested (use --depth comprehensive, or set analysis.budget in .reviewls.yaml)"},
		Findings:     findings,
		ProjectGates: &review.GateRun{Configured: []review.Gate{{Name: "tests", Command: "go test ./..."}}, Results: gates},
		Finished:     finished,
	}
	for _, fd := range findings {
		res.Counts.Add(fd.Severity)
	}
	res.Verdict = review.VerdictFor(res.Counts)
	return decided(func() *review.Result { return res })()
}

func decisionFinding(n int, rule string, sev review.Severity, line int, title string) *review.Finding {
	p, _, _ := strings.Cut(rule, "/")
	return &review.Finding{Number: n, ID: fmt.Sprintf("rv-%012d", n), RuleID: rule, Perspective: review.Perspective(p), Severity: sev,
		Title: "[" + review.Perspective(p).Title() + "] " + title, Message: title + ".", Category: "Test",
		Span: review.Span{Path: "store/store.go", StartLine: line, EndLine: line}}
}

// TestGoldenDecision renders review.md for a review of each
// recommendation: the Decision Summary it opens with, and the Confidence
// Gaps, Confidence Calibration and No-Finding Residual Risks sections.
func TestGoldenDecision(t *testing.T) {
	nothing := decisionResult(nil)
	nothing.ChangeSet.Files[0].Skip = review.SkipBinary
	nothing.ChangeSet.Files[0].Content = nil
	d := review.Decide(review.DecisionInputOf(nothing))
	nothing.Decision = &d
	for _, tt := range []struct {
		res  *review.Result
		want review.Recommendation
	}{
		{decisionResult(nil, review.GateResult{Name: "tests", Command: "go test ./...", Duration: 1200 * time.Millisecond}), review.RecommendAccept},
		{decisionResult([]*review.Finding{decisionFinding(1, "standards/long-function", review.SeverityLow, 3, "Long function Save")}), review.RecommendMinor},
		{decisionResult([]*review.Finding{decisionFinding(1, "functional/ignored-error", review.SeverityHigh, 4, "Error of Write ignored")},
			review.GateResult{Name: "tests", Command: "go test ./...", ExitCode: 1, Duration: 3 * time.Second, Tail: "--- FAIL: TestSave (0.00s)\nFAIL\n"}), review.RecommendMoreWork},
		{decisionResult([]*review.Finding{decisionFinding(1, review.StubRule, review.SeverityMedium, 4, `Stub left in Save: panic("not implemented")`)}), review.RecommendInsufficient},
		{decisionResult([]*review.Finding{decisionFinding(1, review.PolicyRule, review.SeverityHigh, 4, "Forbidden by policy.forbidden-paths: store/**")}), review.RecommendReject},
		{nothing, review.RecommendNull},
	} {
		t.Run(string(tt.want), func(t *testing.T) {
			if got := tt.res.Decision.Recommendation; got != tt.want {
				t.Fatalf("recommendation %s, want %s", got, tt.want)
			}
			out := ReviewMarkdown(tt.res, DefaultDisclaimer)
			golden(t, "decision-"+string(tt.want)+"-review.md", out)
			if !bytes.Contains(out, []byte("## Decision Summary\n")) || bytes.Index(out, []byte("## Decision Summary")) > bytes.Index(out, []byte("## Changed Files Overview")) {
				t.Error("review.md does not open with the Decision Summary")
			}
			for _, s := range []string{"## Confidence Gaps", "## Confidence Calibration", "## No-Finding Residual Risks"} {
				if !bytes.Contains(out, []byte(s)) {
					t.Errorf("review.md lacks %q", s)
				}
			}
			for _, doc := range render(t, tt.res) {
				if doc.schema != "" {
					if err := schemas.Validate(doc.schema, doc.data); err != nil {
						t.Errorf("%s: %v", doc.name, err)
					}
				}
			}
		})
	}
}
