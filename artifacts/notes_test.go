package artifacts

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/schemas"
)

// notedResult is the workflow result with two review-level notes, their
// texts in the report lists as the engine puts them; one quotes the
// fixture's secret.
func notedResult() *review.Result {
	res := workflowResult()
	res.Notes = []review.Note{{
		Kind: review.NoteMissingTests, Rule: "readiness/missing-test-change", Perspective: review.Readiness,
		Message: "Go code changed in internal/auth/token.go, but no Go test changed anywhere in the change.", Suggested: "Add or update tests.",
		Paths: []string{"internal/auth/token.go"},
	}, {
		Kind: review.NoteUndocumentedAPI, Rule: "readiness/undocumented-change", Perspective: review.Readiness,
		Message: "The change alters the public API of library code (auth: key " + secretKey + ").", Paths: []string{"internal/auth/token.go"},
	}}
	res.Testing = append(res.Testing, res.Notes[0].Text())
	res.Actions = append(res.Actions, res.Notes[1].Text())
	return res
}

// TestNotesInFindingsJSON checks that the merged report carries the notes
// (schema-valid, redacted), that a perspective's findings file does not,
// and that notes change neither counts nor verdict.
func TestNotesInFindingsJSON(t *testing.T) {
	res := notedResult()
	data, err := FindingsJSON(res, "")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secretKey) {
		t.Error("a note leaks the secret")
	}
	var r struct {
		Verdict  review.Verdict `json:"verdict"`
		Counts   review.Counts  `json:"severity_counts"`
		Testing  []string       `json:"testing_recommendations"`
		Actions  []string       `json:"recommended_actions"`
		Findings []any          `json:"findings"`
		Notes    []struct {
			Kind, RuleID, Message string
			Paths                 []string
		} `json:"notes"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, n := range r.Notes {
		kinds = append(kinds, n.Kind+" "+strings.Join(n.Paths, ","))
	}
	if diff := cmp.Diff([]string{"missing-tests internal/auth/token.go", "undocumented-api internal/auth/token.go"}, kinds); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if r.Verdict != workflowResult().Verdict || r.Counts != workflowResult().Counts || len(r.Findings) != len(workflowResult().Findings) {
		t.Errorf("notes changed the verdict, counts or findings: %s %+v %d", r.Verdict, r.Counts, len(r.Findings))
	}
	if !strings.Contains(strings.Join(r.Testing, "\n"), "no Go test changed") || !strings.Contains(strings.Join(r.Actions, "\n"), "public API of library code") {
		t.Errorf("note texts missing from the lists: %q / %q", r.Testing, r.Actions)
	}
	lane, err := FindingsJSON(res, review.Readiness)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(lane), `"notes"`) {
		t.Error("a perspective's findings file carries the run-level notes")
	}
	// Without notes the key is absent, as before.
	plain, err := FindingsJSON(workflowResult(), "")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), `"notes"`) {
		t.Error("notes key without notes")
	}
}

// TestNotesInRiverAndMarkdown checks the River artifact (notes under
// debug.reviewls, never as findings) and review.md (testing
// recommendations and recommended actions, hve-spec 8.4 sections 7 and 8).
func TestNotesInRiverAndMarkdown(t *testing.T) {
	res := notedResult()
	data, err := River(res, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("review-artifact", data); err != nil {
		t.Fatal(err)
	}
	var a struct {
		Findings []struct{ RuleID string } `json:"findings"`
		Debug    struct {
			Reviewls struct {
				Notes []struct {
					Kind   string `json:"kind"`
					RuleID string `json:"rule_id"`
				} `json:"notes"`
			} `json:"reviewls"`
		} `json:"debug"`
	}
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Findings) != len(res.Findings) || len(a.Debug.Reviewls.Notes) != 2 || a.Debug.Reviewls.Notes[0].Kind != "missing-tests" {
		t.Errorf("river: %d findings, notes %+v", len(a.Findings), a.Debug.Reviewls.Notes)
	}
	if strings.Contains(string(data), secretKey) {
		t.Error("river leaks the secret")
	}

	md := string(ReviewMarkdown(res, Disclaimer{}))
	tests, _, _ := strings.Cut(md[strings.Index(md, "### Testing recommendations"):], "\n## ")
	actions, _, _ := strings.Cut(md[strings.Index(md, "### Recommended actions"):], "\n## ")
	if !strings.Contains(tests, "no Go test changed anywhere") || !strings.Contains(actions, "public API of library code") {
		t.Errorf("review.md sections:\n%s\n---\n%s", tests, actions)
	}
}
