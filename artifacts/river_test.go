package artifacts

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/schemas"
)

// TestDeriveVerdict replays the worked cases of river.md section 3.1.
func TestDeriveVerdict(t *testing.T) {
	f := func(rule, sev string) riverFinding { return riverFinding{RuleID: rule, Severity: sev} }
	many := func(n int, rule, sev string) []riverFinding {
		var out []riverFinding
		for range n {
			out = append(out, f(rule, sev))
		}
		return out
	}
	tests := []struct {
		name     string
		findings []riverFinding
		want     string
	}{
		{"none", nil, RiverAutoApprove},
		{"1 minor, non-security", []riverFinding{f("functional/nil-map", "minor")}, RiverAutoApprove},
		{"1 info, security", []riverFinding{f("security/weak-hash", "info")}, RiverAutoApprove},
		{"2 info, security", many(2, "security/weak-hash", "info"), RiverHumanReviewSuggested},
		{"1 minor, security", []riverFinding{f("security/weak-hash", "minor")}, RiverHumanReviewSuggested},
		{"1 major, maintainability", []riverFinding{f("lsp-midstream-error-handling", "major")}, RiverHumanReviewSuggested},
		{"any critical", []riverFinding{f("functional/x", "critical")}, RiverHumanReviewRequired},
		{"2 security + 3 maint + 3 perf majors", append(append(many(2, "security/x", "major"), many(3, "docs/x", "major")...), many(3, "perf/x", "major")...), RiverHumanReviewRequired},
		// security floors at 0 (-100), maintainability loses 50: overall 70.
		{"overall 70 is not below the threshold", append(many(5, "security/x", "major"), append(many(2, "docs/x", "major"), f("docs/x", "minor"))...), RiverHumanReviewSuggested},
		// One more minor on another axis: overall 68.
		{"overall 68 requires review", append(many(5, "security/x", "major"), append(many(2, "docs/x", "major"), f("docs/x", "minor"), f("style/x", "minor"))...), RiverHumanReviewRequired},
		// Overall 90 and security 95: auto-approved despite minors.
		{"overall 90 and security 95", []riverFinding{f("security/x", "info"), f("perf/x", "minor"), f("style/x", "minor"), f("docs/x", "minor"), f("arch/x", "info"), f("arch/x", "info"), f("arch/x", "info"), f("arch/x", "info"), f("arch/x", "info")}, RiverAutoApprove},
		{"unknown severity counts as info", []riverFinding{f("security/x", "urgent")}, RiverAutoApprove},
		{"blocker alias is critical", []riverFinding{f("style/x", "blocker")}, RiverHumanReviewRequired},
	}
	for _, tc := range tests {
		if got := deriveVerdict(tc.findings); got != tc.want {
			t.Errorf("%s: deriveVerdict = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestRiverAxis(t *testing.T) {
	tests := map[string]string{
		"security/hardcoded-secret":  "security",
		"second-pass":                "security", // no trailing boundary, as in River
		"functional/auth-bypass":     "security",
		"standards/n1":               "performance",
		"standards/n1x":              "maintainability",
		"perf/slow-loop":             "performance",
		"functional/unchecked-error": "maintainability",
		"readiness/doc-drift":        "readability", // "read" prefixes "readiness"
		"standards/dependency-cycle": "extensibility",
		"standards/test-gap":         "maintainability",
		"Security/UPPER":             "security",
	}
	for rule, want := range tests {
		if got := riverAxis(rule); got != want {
			t.Errorf("riverAxis(%q) = %s, want %s", rule, got, want)
		}
	}
}

// TestRiverArtifactShape checks the v1.15 constraints river.md section 6
// warns about on real output.
func TestRiverArtifactShape(t *testing.T) {
	res := workflowResult()
	res.ChangeSet.Root = "/home/dev/secret-project"
	data, err := River(res, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("review-artifact", data); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "null") {
		t.Error("artifact contains null")
	}
	if strings.Contains(string(data), "repoRoot") || strings.Contains(string(data), "/home/dev") {
		t.Error("artifact leaks the repository root")
	}
	var a struct {
		Timestamp string `json:"timestamp"`
		Findings  []struct {
			ID       string `json:"id"`
			Severity string `json:"severity"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	var ids, sevs []string
	for _, f := range a.Findings {
		ids = append(ids, f.ID)
		sevs = append(sevs, f.Severity)
	}
	if diff := cmp.Diff([]string{"rr-1", "rr-2", "rr-3", "rr-4"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"critical", "major", "minor", "info"}, sevs); diff != "" {
		t.Errorf("severities (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(a.Timestamp, "Z") {
		t.Errorf("timestamp %q is not UTC", a.Timestamp)
	}
}

func TestRiverSkipsSuppressedFindings(t *testing.T) {
	res := workflowResult()
	res.Findings = nil
	data, err := River(res, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "standards/long-function") {
		t.Error("suppressed finding emitted")
	}
	if !strings.Contains(string(data), `"decision": "auto-approve"`) {
		t.Errorf("decision without findings:\n%s", data)
	}
}

func TestFindingsJSONUnknownPerspective(t *testing.T) {
	if _, err := FindingsJSON(workflowResult(), review.Perspective("pr")); err == nil {
		t.Error("FindingsJSON accepted the pr perspective")
	}
}
