package artifacts

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// DecisionDoc is the review decision (seed 003, step 09) as metadata.json,
// the merged findings report and the SARIF run's properties carry it: a
// local extension of each.
type DecisionDoc struct {
	Recommendation        review.Recommendation `json:"recommendation"`
	Summary               string                `json:"summary"`
	Rationale             string                `json:"rationale"`
	BlockingFindings      []DecisionFinding     `json:"blocking_findings"`
	MinorChanges          []DecisionFinding     `json:"minor_changes"`
	RequiredNextWork      []string              `json:"required_next_work"`
	VerificationReadiness review.Verification   `json:"verification_readiness"`
	InitialConfidence     float64               `json:"initial_confidence"`
	Confidence            float64               `json:"confidence"`
	ConfidenceGaps        []GapDoc              `json:"confidence_gaps"`
	Evidence              []string              `json:"evidence"`
	RemainingLimits       []string              `json:"remaining_limits"`
	ResidualRisks         []string              `json:"residual_risks"`
	// Gates are the project gates that ran (--gates), in order.
	Gates []GateDoc `json:"gates,omitempty"`
	// Digest is the SHA-256 of the reviewed bytes ("sha256:<hex>").
	Digest string `json:"digest"`
}

// DecisionFinding is a finding the decision cites.
type DecisionFinding struct {
	ID       string          `json:"id"`
	Number   int             `json:"number"`
	RuleID   string          `json:"rule_id"`
	Severity review.Severity `json:"severity"`
	Title    string          `json:"title"`
	File     string          `json:"file"`
	Line     int             `json:"line"`
}

// GapDoc is one confidence gap.
type GapDoc struct {
	ID        review.GapID        `json:"id"`
	Text      string              `json:"text"`
	Readiness review.Verification `json:"readiness"`
	Deduction float64             `json:"deduction"`
	Closure   string              `json:"closure"`
}

// GateDoc is how one project gate ran.
type GateDoc struct {
	Name       string `json:"name"`
	Command    string `json:"command"`
	ExitCode   int    `json:"exit_code"`
	DurationMS int64  `json:"duration_ms"`
	TimedOut   bool   `json:"timed_out,omitempty"`
	Passed     bool   `json:"passed"`
	// Output is the tail of its output, redacted.
	Output string `json:"output"`
}

// decisionDoc converts the result's decision; nil when it has none.
func (v *view) decisionDoc() *DecisionDoc {
	d := v.res.Decision
	if d == nil {
		return nil
	}
	doc := &DecisionDoc{
		Recommendation:        d.Recommendation,
		Summary:               d.Summary,
		Rationale:             d.Rationale,
		BlockingFindings:      decisionFindings(d.Blocking),
		MinorChanges:          decisionFindings(d.Minor),
		RequiredNextWork:      nonEmpty(d.NextWork),
		VerificationReadiness: d.Readiness,
		InitialConfidence:     d.Initial(),
		Confidence:            d.Confidence(),
		Evidence:              nonEmpty(d.Evidence),
		RemainingLimits:       nonEmpty(d.Limits),
		ResidualRisks:         nonEmpty(d.Residual),
		Digest:                d.Digest,
	}
	doc.ConfidenceGaps = Gaps(d.Gaps)
	if g := v.res.ProjectGates; g != nil {
		for _, r := range g.Results {
			doc.Gates = append(doc.Gates, GateDoc{Name: r.Name, Command: r.Command, ExitCode: r.ExitCode, DurationMS: r.Duration.Milliseconds(),
				TimedOut: r.TimedOut, Passed: r.Passed(), Output: r.Tail})
		}
	}
	return doc
}

// Gaps converts confidence gaps for a JSON document.
func Gaps(gaps []review.Gap) []GapDoc {
	out := []GapDoc{}
	for _, g := range gaps {
		out = append(out, GapDoc{ID: g.ID, Text: g.Text, Readiness: g.Readiness, Deduction: g.Deduction(), Closure: g.Closure})
	}
	return out
}

func decisionFindings(items []review.DecisionItem) []DecisionFinding {
	out := []DecisionFinding{}
	for _, it := range items {
		out = append(out, DecisionFinding{ID: it.ID, Number: it.Number, RuleID: it.RuleID, Severity: it.Severity, Title: it.Title, File: it.Path, Line: it.Line})
	}
	return out
}

// mdDecision writes review.md's Decision Summary (seed 003): the
// recommendation, summary, rationale, blocking findings, minor changes,
// required next work and confidence, with the key gaps; and the gates
// that ran.
func (v *view) mdDecision(m *md) {
	d := v.res.Decision
	if d == nil {
		return
	}
	m.heading(2, "Decision Summary")
	m.table([]string{"Field", "Value"}, [][]string{
		{"Recommendation", m.code(string(d.Recommendation)) + " (" + d.Recommendation.Words() + ")"},
		{"Verification readiness", string(d.Readiness)},
		{"Confidence", confidenceText(d)},
		{"Reviewed bytes", m.code(d.Digest)},
	})
	m.line("**Summary:** %s", m.prose(d.Summary))
	m.blank()
	m.line("**Rationale:** %s", m.prose(d.Rationale))
	m.blank()
	v.mdItems(m, "Blocking findings", d.Blocking)
	v.mdItems(m, "Minor changes", d.Minor)
	m.line("**Required next work:**%s", orInline(len(d.NextWork)))
	for _, w := range d.NextWork {
		m.bullet(w)
	}
	m.blank()
	gaps := "no gap"
	if len(d.Gaps) > 0 {
		var ids []string
		for _, g := range d.Gaps {
			ids = append(ids, m.code(string(g.ID)))
		}
		gaps = "gaps " + strings.Join(ids, ", ") + " (see Confidence Gaps)"
	}
	m.line("**Confidence:** %s; %s", confidenceText(d), gaps)
	m.blank()
	if g := v.res.ProjectGates; g != nil && len(g.Results) > 0 {
		var rows [][]string
		for _, r := range g.Results {
			outcome := "passed"
			switch {
			case r.TimedOut:
				outcome = "timed out after " + r.Timeout.String()
			case r.Err != "":
				outcome = "did not start: " + m.prose(r.Err)
			case r.ExitCode != 0:
				outcome = "failed"
			}
			rows = append(rows, []string{m.prose(r.Name), m.code(r.Command), strconv.Itoa(r.ExitCode), r.Duration.String(), outcome})
		}
		m.para("Project gates (run with --gates):")
		m.table([]string{"Gate", "Command", "Exit code", "Duration", "Outcome"}, rows)
		for _, r := range g.Results {
			if !r.Passed() && strings.TrimSpace(r.Tail) != "" {
				m.para("Output of " + m.code(r.Name) + " (its end):")
				m.fence("text", r.Tail)
			}
		}
	}
}

// orInline is " none" when n is 0: a field with nothing to list says so
// on its line.
func orInline(n int) string {
	if n == 0 {
		return " none"
	}
	return ""
}

func (v *view) mdItems(m *md, label string, items []review.DecisionItem) {
	m.line("**%s:**%s", label, orInline(len(items)))
	for _, it := range items {
		if it.Held {
			m.line("- %s %s (%s, %s)", it.Severity, m.prose(it.Title), m.fileLink(it.Path, it.Line, 0), review.HeldWords)
			continue
		}
		m.line("- %s %s %s (%s)", m.code(fmt.Sprintf("#%d", it.Number)), it.Severity, m.prose(it.Title), m.fileLink(it.Path, it.Line, 0))
	}
	m.blank()
}

func confidenceText(d *review.Decision) string {
	return fmt.Sprintf("%.2f (from %.2f)", d.Confidence(), d.Initial())
}

// mdCalibration writes review.md's No-Finding Residual Risks, Confidence
// Gaps and Confidence Calibration (seed 003, steps 10 and 11).
func (v *view) mdCalibration(m *md) {
	d := v.res.Decision
	if d == nil {
		return
	}
	m.heading(2, "No-Finding Residual Risks")
	switch {
	case len(d.Blocking)+len(d.Minor) > 0:
		m.para("Not applicable: the review found what is listed under Merged Findings.")
	case len(d.Residual) == 0:
		m.para("None stated: the review saw no hotspot, public API change or untested code change it could not check.")
	default:
		m.para("The review found nothing; these are what it could not see (facts, not findings):")
		for _, r := range d.Residual {
			m.bullet(r)
		}
	}
	m.heading(2, "Confidence Gaps")
	if len(d.Gaps) == 0 {
		m.para("None: every check that applies ran.")
	} else {
		var rows [][]string
		for _, g := range d.Gaps {
			rows = append(rows, []string{m.code(string(g.ID)), m.prose(g.Text), string(g.Readiness), fmt.Sprintf("-%.2f", g.Deduction()), m.code(g.Closure)})
		}
		m.table([]string{"Gap", "What is missing", "Readiness", "Deduction", "Closure"}, rows)
	}
	m.heading(2, "Confidence Calibration")
	m.line("- **Initial confidence:** %.2f, the start of a %s change (docs/decision.md)", d.Initial(), orText(string(v.risk.Tier), "BROAD"))
	m.line("- **Objective evidence:**")
	for _, e := range d.Evidence {
		m.line("  - %s", m.prose(e))
	}
	m.line("- **Confidence gaps:** %s", gapSum(d))
	m.line("- **Recovery actions:**%s", orInline(len(d.Gaps)))
	for _, g := range d.Gaps {
		if g.Points > 0 {
			m.line("  - %s (+%.2f)", m.code(g.Closure), g.Deduction())
		}
	}
	m.line("- **Recomputed confidence:** %.2f, verification %s", d.Confidence(), d.Readiness)
	m.line("- **Remaining limits:**")
	for _, l := range d.Limits {
		m.line("  - %s", m.prose(l))
	}
	m.blank()
}

// gapSum states the gaps' total deduction.
func gapSum(d *review.Decision) string {
	if len(d.Gaps) == 0 {
		return "none"
	}
	total := 0
	for _, g := range d.Gaps {
		total += g.Points
	}
	return fmt.Sprintf("%d, taking off %.2f", len(d.Gaps), float64(total)/100)
}
