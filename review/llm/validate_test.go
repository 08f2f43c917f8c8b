package llm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/llm/llmtest"
	"github.com/reviewls/reviewls/review/secret"
)

// calc is the change the validator tests check candidates against. Its
// new side, line by line:
//
//	 5 +  for i := 0; i <= len(xs); i++ {   (replaces the < version)
//	 8    return total                      (unchanged)
//	12    return a / b                      (after the deleted b == 0 check)
//	14-17 + func Scale(x int) int { return x * factor }
const calc = `package app

func Sum(xs []int) int {
	total := 0
-	for i := 0; i < len(xs); i++ {
+	for i := 0; i <= len(xs); i++ {
		total += xs[i]
	}
	return total
}

func Div(a, b int) int {
-	if b == 0 {
-		return 0
-	}
	return a / b
}
+
+func Scale(x int) int {
+	return x * factor
+}
`

func calcChange() Change {
	skipped := llmtest.File("app/calc.pb.go", "+package app\n")
	skipped.Skip = review.SkipGenerated
	return Change{
		Files: []*review.File{llmtest.File("app/calc.go", calc), skipped, llmtest.File("app/other.go", "+package app\n")},
		Context: map[string]*Context{"app/calc.go": {Enclosing: []Symbol{
			{Name: "Sum", Relation: RelEnclosing, Path: "app/calc.go", Line: 3, EndLine: 9, Signature: "func Sum(xs []int) int"},
			{Name: "Div", Relation: RelEnclosing, Path: "app/calc.go", Line: 11, EndLine: 13, Signature: "func Div(a, b int) int"},
			{Name: "Scale", Relation: RelEnclosing, Path: "app/calc.go", Line: 15, EndLine: 17, Signature: "func Scale(x int) int"},
		}}},
		Findings: []*review.Finding{{RuleID: "functional/undefined-name", Perspective: review.Functional, Severity: review.SeverityHigh,
			Title: "factor is not defined", Span: review.Span{Path: "app/calc.go", StartLine: 16}}},
	}
}

// cand returns a well-formed candidate on app/calc.go.
func cand(line int, quote string) Candidate {
	return Candidate{File: "app/calc.go", Line: line, Quote: quote, Perspective: "functional", Severity: "high",
		Title: "Off by one", Rationale: "The loop reads past the end.", Confidence: "high"}
}

func with(c Candidate, edit func(*Candidate)) Candidate { edit(&c); return c }

// TestValidate gives each candidate alone to the validator: one row per
// disposition and reason.
func TestValidate(t *testing.T) {
	sent := []string{"app/calc.go"}
	for _, tc := range []struct {
		name      string
		c         Candidate
		want      Disposition
		reason    Reason
		relocated *Relocation
		evidence  string // a part of the evidence
	}{
		{"the quote on an added line", cand(5, "for i := 0; i <= len(xs); i++ {"), Confirmed, "", nil, "line 5 of app/calc.go changed"},
		{"the line number and marker copied into the quote", cand(5, " 5 + \tfor i := 0; i <= len(xs); i++ {"), Confirmed, "", nil, ""},
		{"white space differs", cand(5, "for  i := 0;\ti <= len(xs);  i++ {  "), Confirmed, "", nil, ""},
		{"a part of the line", cand(5, "i <= len(xs)"), Confirmed, "", nil, ""},
		{"two lines", with(cand(15, "func Scale(x int) int {\n\treturn x * factor"), func(c *Candidate) { c.EndLine, c.Perspective = 16, "security" }), Confirmed, "", nil, "lines 15-16"},
		{"a diff prefix on the path", with(cand(5, "for i := 0; i <= len(xs); i++ {"), func(c *Candidate) { c.File = "b/app/calc.go" }), Confirmed, "", nil, ""},
		{"the line after a deletion", cand(12, "return a / b"), Confirmed, "", nil, ""},
		{"a removed line quoted at the deletion", cand(12, "if b == 0 {"), Confirmed, "", nil, ""},
		{"off by one onto the next changed line", with(cand(15, "return x * factor"), func(c *Candidate) { c.Perspective = "security" }), Confirmed, "", &Relocation{From: 15, To: 16}, "on changed line 16"},
		{"an unchanged line of the hunk, the quote on a changed one", cand(6, "for i := 0; i <= len(xs); i++ {"), Confirmed, "", &Relocation{From: 6, To: 5}, ""},

		{"a file outside the change", with(cand(5, "x"), func(c *Candidate) { c.File = "app/nope.go" }), Refuted, ReasonUnknownFile, nil, `"app/nope.go" is not a file of the change`},
		{"a changed file not sent", with(cand(1, "package app"), func(c *Candidate) { c.File = "app/other.go" }), Refuted, ReasonOutOfScope, nil, "was not sent"},
		{"a skipped file", with(cand(1, "package app"), func(c *Candidate) { c.File = "app/calc.pb.go" }), Refuted, ReasonOutOfScope, nil, "was not sent"},
		{"a style perspective", with(cand(5, "for i := 0; i <= len(xs); i++ {"), func(c *Candidate) {
			c.Perspective, c.Problem = "standards", `/perspective: "standards" is not one of functional, security, accessibility, readiness`
		}), Refuted, ReasonOutOfScope, nil, `perspective "standards"`},
		{"a severity that is none", with(cand(5, "for i := 0; i <= len(xs); i++ {"), func(c *Candidate) {
			c.Severity, c.Problem = "urgent", `/severity: "urgent" is not one of critical, high, medium, low`
		}), Refuted, ReasonInvalid, nil, "/severity"},
		{"line 0", cand(0, "package app"), Refuted, ReasonInvalid, nil, "line 0"},
		{"an empty quote", cand(5, "  "), Refuted, ReasonInvalid, nil, "quote is empty"},

		{"an unchanged line", cand(8, "return total"), Refuted, ReasonUnchangedLine, nil, "the quote is on unchanged line 8"},
		{"the line before a replaced one", cand(4, "total := 0"), Refuted, ReasonUnchangedLine, nil, "the quote is on unchanged line 4"},
		{"a line past the end", cand(99, "return total"), Refuted, ReasonUnchangedLine, nil, "past the end of app/calc.go (17 lines)"},
		{"a quote not on the changed line", cand(5, "for _, x := range xs {"), Refuted, ReasonQuoteNotFound, nil, "line 5 of app/calc.go reads"},
		{"a short part of the line", cand(5, "len(xs)"), Refuted, ReasonQuoteNotFound, nil, ""},
		{"an unchanged line and a quote nowhere", cand(9, "panic(err)"), Refuted, ReasonQuoteNotFound, nil, "nowhere in the file"},
		{"a duplicate of a rule finding", cand(16, "return x * factor"), Refuted, ReasonDuplicate, nil, "rule finding functional/undefined-name"},
		{"the rule finding's line from another perspective", with(cand(16, "return x * factor"), func(c *Candidate) { c.Perspective = "security" }), Confirmed, "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Validate(calcChange(), []Proposed{{Request: "k", Files: sent, Candidate: tc.c}}, ValidateOptions{Model: "m", MaxFindings: 3, Redactor: review.NewRedactor(nil)})
			if len(got) != 1 {
				t.Fatalf("got %d entries, want 1", len(got))
			}
			e := got[0]
			if e.Disposition != tc.want || e.Reason != tc.reason {
				t.Errorf("disposition %s %s (%s), want %s %s", e.Disposition, e.Reason, e.Evidence, tc.want, tc.reason)
			}
			if diff := cmp.Diff(tc.relocated, e.Relocated); diff != "" {
				t.Errorf("relocation (-want +got):\n%s", diff)
			}
			if !strings.Contains(e.Evidence, tc.evidence) || e.Evidence == "" {
				t.Errorf("evidence %q, want it to hold %q", e.Evidence, tc.evidence)
			}
			if (e.Finding != nil) != (e.Disposition == Confirmed) || e.Request != "k" || e.ID != "c1" {
				t.Errorf("entry %+v: a finding exactly when confirmed, request k, id c1", e)
			}
		})
	}
}

// TestValidateDuplicateCandidate checks that the second of two candidates
// on the same lines from the same perspective is refuted, and a third
// from another perspective is not.
func TestValidateDuplicateCandidate(t *testing.T) {
	first := cand(5, "for i := 0; i <= len(xs); i++ {")
	props := []Proposed{
		{Request: "k", Files: []string{"app/calc.go"}, Candidate: first},
		{Request: "k", Files: []string{"app/calc.go"}, Candidate: with(first, func(c *Candidate) { c.Title = "Index out of range" })},
		{Request: "k", Files: []string{"app/calc.go"}, Candidate: with(first, func(c *Candidate) { c.Perspective = "security" })},
	}
	got := Validate(calcChange(), props, ValidateOptions{Model: "m", MaxFindings: 3, Redactor: review.NewRedactor(nil)})
	want := []string{"confirmed ", "refuted duplicate", "confirmed "}
	for i, e := range got {
		if s := string(e.Disposition) + " " + string(e.Reason); s != want[i] {
			t.Errorf("%s: %s (%s), want %s", e.ID, s, e.Evidence, want[i])
		}
	}
	if !strings.Contains(got[1].Evidence, "candidate c1") {
		t.Errorf("evidence %q does not name c1", got[1].Evidence)
	}
}

// TestValidateMaxFindings checks the cap on a change's findings: the most
// severe, then the most confident, are kept, whatever their order.
func TestValidateMaxFindings(t *testing.T) {
	low := with(cand(5, "for i := 0; i <= len(xs); i++ {"), func(c *Candidate) { c.Severity = "low" })
	critical := with(cand(15, "func Scale(x int) int {"), func(c *Candidate) { c.Severity = "critical"; c.Confidence = "medium" })
	sure := with(cand(12, "return a / b"), func(c *Candidate) { c.Severity = "critical" })
	var props []Proposed
	for _, c := range []Candidate{low, critical, sure} {
		props = append(props, Proposed{Request: "k", Files: []string{"app/calc.go"}, Candidate: c})
	}
	got := Validate(calcChange(), props, ValidateOptions{Model: "m", MaxFindings: 1, Redactor: review.NewRedactor(nil)})
	var states []string
	for _, e := range got {
		states = append(states, string(e.Disposition)+" "+string(e.Reason))
	}
	want := []string{"refuted out-of-scope", "refuted out-of-scope", "confirmed "}
	if diff := cmp.Diff(want, states); diff != "" {
		t.Errorf("dispositions (-want +got):\n%s", diff)
	}
	if !strings.Contains(got[0].Evidence, "past max-findings 1") || got[0].Finding != nil {
		t.Errorf("capped entry: %+v", got[0])
	}
}

// TestValidateFinding checks the finding a confirmed candidate becomes:
// its rule, the model in its category, its span and symbol, the quoted
// code as the request showed it (redacted), and the deletion it names.
func TestValidateFinding(t *testing.T) {
	key := "AKIA5XRILAV5FVCYK43K"
	f := llmtest.File("app/keys.go", "package app\n\nfunc Key() string {\n+\treturn \""+key+"\"\n}\n")
	ch := calcChange()
	ch.Files = append(ch.Files, f)
	red := review.NewRedactor(nil).WithDetector(secret.Find)
	props := []Proposed{
		{Request: "k1", Files: []string{"app/calc.go"}, Candidate: with(cand(15, "return x * factor"), func(c *Candidate) {
			c.Perspective, c.Severity, c.SuggestedFix = "security", "medium", "return x * Factor"
		})},
		{Request: "k1", Files: []string{"app/calc.go"}, Candidate: cand(12, "return a / b")},
		{Request: "k2", Files: []string{"app/keys.go"}, Candidate: with(cand(4, `return "AKIA…[redacted, 20 chars]"`), func(c *Candidate) {
			c.File, c.Title, c.Rationale = "app/keys.go", "Key "+key+" is returned", "It leaks "+key+"."
		})},
	}
	got := Validate(ch, props, ValidateOptions{Model: "qwen2.5-coder:7b", MaxFindings: 3, Redactor: red, Secrets: secret.Values})
	var fs []review.Finding
	for _, e := range got {
		if e.Finding == nil {
			t.Fatalf("%s: %s %s (%s)", e.ID, e.Disposition, e.Reason, e.Evidence)
		}
		if e.FindingID != e.Finding.ID || !strings.HasPrefix(e.FindingID, "rv-") {
			t.Errorf("%s: finding id %q, finding %q", e.ID, e.FindingID, e.Finding.ID)
		}
		f := *e.Finding
		f.ID = ""
		fs = append(fs, f)
	}
	want := []review.Finding{
		{RuleID: "security/model", Perspective: review.Security, Category: "Model review", Model: "qwen2.5-coder:7b", Severity: review.SeverityMedium,
			Title: "Off by one", Message: "The loop reads past the end.", Span: review.Span{Path: "app/calc.go", StartLine: 16, StartCol: 2}, Symbol: "Scale",
			CurrentCode: "\treturn x * factor", SuggestedFix: "return x * Factor", Confidence: review.ConfidenceHigh,
			LineState: review.LineUnstaged, Match: "return x * factor"},
		{RuleID: "functional/model", Perspective: review.Functional, Category: "Model review", Model: "qwen2.5-coder:7b", Severity: review.SeverityHigh,
			Title: "Off by one", Message: "The loop reads past the end.", Span: review.Span{Path: "app/calc.go", StartLine: 12, StartCol: 2}, Symbol: "Div",
			CurrentCode: "\treturn a / b", Confidence: review.ConfidenceHigh, Match: "return a / b", Removed: 12},
		{RuleID: "functional/model", Perspective: review.Functional, Category: "Model review", Model: "qwen2.5-coder:7b", Severity: review.SeverityHigh,
			Title: "Key AKIA…[redacted, 20 chars] is returned", Message: "It leaks AKIA…[redacted, 20 chars].", Span: review.Span{Path: "app/keys.go", StartLine: 4, StartCol: 2},
			CurrentCode: "\treturn \"AKIA…[redacted, 20 chars]\"", Confidence: review.ConfidenceHigh,
			LineState: review.LineUnstaged, Match: `return "AKIA…[redacted, 20 chars]"`},
	}
	if diff := cmp.Diff(want, fs); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
