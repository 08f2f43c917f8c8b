package artifacts

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// The model review (review.Result.Model): its ledger is model-review.json,
// listed in metadata.json; review.md sums it up; the merged findings
// report says what became of it; its findings are findings like any
// other, with the model's name, and advisory unless it is blocking.

// FileModelReview is the model review's ledger in a review folder.
const FileModelReview = "model-review.json"

// ModelReviewDoc is model-review.json: the model review of a run and its
// whole ledger, every request and every candidate with its disposition
// and evidence (review/llm's Ledger).
type ModelReviewDoc struct {
	SchemaVersion string `json:"schema_version"`
	Model         string `json:"model"`
	// Blocking says whether its findings count for the verdict and gates.
	Blocking bool            `json:"blocking"`
	Summary  string          `json:"summary"`
	Ledger   json.RawMessage `json:"ledger"`
}

// hasLedger reports whether the run's model review ran and has a ledger
// to write.
func (v *view) hasLedger() bool {
	return v.res.Model.State == review.ModelRan && len(v.res.Model.Ledger) > 0
}

// modelReview builds model-review.json.
func (v *view) modelReview() ModelReviewDoc {
	m := v.res.Model
	return ModelReviewDoc{SchemaVersion: SchemaVersion, Model: m.Model, Blocking: m.Blocking, Summary: m.Summary, Ledger: m.Ledger}
}

// ModelReport is what became of the model review, in the merged findings
// report (a local extension).
type ModelReport struct {
	Status   review.ModelState `json:"status"`
	Model    string            `json:"model"`
	Blocking bool              `json:"blocking"`
	Reason   string            `json:"reason,omitempty"`
	Summary  string            `json:"summary,omitempty"`
	// Counts are the ledger's figures once it ran.
	Counts *ModelCounts `json:"counts,omitempty"`
}

// ModelCounts are the figures of a model review's ledger.
type ModelCounts struct {
	Requests   int            `json:"requests"`
	Candidates int            `json:"candidates"`
	Confirmed  int            `json:"confirmed"`
	Relocated  int            `json:"relocated"`
	Refuted    map[string]int `json:"refuted"`
	Unverified map[string]int `json:"unverified"`
	// Tokens and ElapsedMS add up the requests answered in the run.
	PromptTokens     int   `json:"prompt_tokens"`
	CompletionTokens int   `json:"completion_tokens"`
	ElapsedMS        int64 `json:"elapsed_ms"`
}

func modelReport(m review.ModelReview) *ModelReport {
	if m.State == review.ModelOff {
		return nil
	}
	r := &ModelReport{Status: m.State, Model: m.Model, Blocking: m.Blocking, Reason: m.Reason, Summary: m.Summary}
	if m.State == review.ModelRan {
		c := m.Counts
		r.Counts = &ModelCounts{Requests: c.Requests, Candidates: c.Candidates, Confirmed: c.Confirmed, Relocated: c.Relocated,
			Refuted: orEmptyMap(c.Refuted), Unverified: orEmptyMap(c.Unverified), PromptTokens: c.PromptTokens,
			CompletionTokens: c.CompletionTokens, ElapsedMS: c.Elapsed.Milliseconds()}
	}
	return r
}

// orEmptyMap returns m, or an empty map when m is nil, so that JSON gets
// {} and never null.
func orEmptyMap(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

// advisoryNote says why the verdict counts fewer findings than the
// report lists: "" when no model finding is advisory.
func (v *view) advisoryNote() string {
	n := v.res.AdvisoryCount()
	if n == 0 {
		return ""
	}
	if n == 1 {
		return " (1 model finding is advisory: it counts only with model.blocking)"
	}
	return fmt.Sprintf(" (%d model findings are advisory: they count only with model.blocking)", n)
}

// mdModel writes the model review's section of review.md: the ledger's
// figures, or why the review did not run.
func (v *view) mdModel(m *md) {
	mr := v.res.Model
	if mr.State == review.ModelOff {
		return
	}
	m.heading(2, "Model Review")
	if mr.State != review.ModelRan {
		m.para(m.prose(mr.String()) + ".")
		return
	}
	where := "on this machine"
	if mr.Remote {
		where = "off this machine"
	}
	counts := "advisory: they never count for the verdict or a gate (model.blocking is off)"
	if mr.Blocking {
		counts = "blocking: they count for the verdict and the gates (model.blocking)"
	}
	m.para(fmt.Sprintf("A reviewls extension: the model reviewer proposed candidates after the rules, and each was checked against the diff; only the confirmed ones are findings, %s. The whole ledger is [%s](%s).", counts, FileModelReview, FileModelReview))
	c := mr.Counts
	confirmed := fmt.Sprint(c.Confirmed)
	if c.Relocated > 0 {
		confirmed += fmt.Sprintf(" (%d relocated within their hunk)", c.Relocated)
	}
	m.table([]string{"Field", "Value"}, [][]string{
		{"Model", m.code(mr.Model) + " at " + m.code(mr.Host) + " (" + where + ")"},
		{"Requests", fmt.Sprint(c.Requests)},
		{"Candidates", fmt.Sprint(c.Candidates)},
		{"Confirmed", confirmed},
		{"Refuted", reasons(c.Refuted)},
		{"Unverified", reasons(c.Unverified)},
		{"Time", fmt.Sprintf("%.1f s", c.Elapsed.Seconds())},
		{"Tokens", fmt.Sprintf("%d (%d prompt, %d completion)", c.PromptTokens+c.CompletionTokens, c.PromptTokens, c.CompletionTokens)},
	})
}

// reasons words counts by reason: "3: duplicate 1, unchanged-line 2", or
// "0".
func reasons(by map[string]int) string {
	total := 0
	var parts []string
	for _, r := range sortedKeys(by) {
		total += by[r]
		parts = append(parts, fmt.Sprintf("%s %d", r, by[r]))
	}
	if total == 0 {
		return "0"
	}
	return fmt.Sprintf("%d: %s", total, strings.Join(parts, ", "))
}
