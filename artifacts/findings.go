package artifacts

import (
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// FindingsReport is a findings file (hve-spec 8.1): the findings of one
// perspective, or the merged report of all accepted findings.
type FindingsReport struct {
	Summary                      string               `json:"summary"`
	Verdict                      review.Verdict       `json:"verdict"`
	SeverityCounts               review.Counts        `json:"severity_counts"`
	ChangedFiles                 []ChangedFile        `json:"changed_files"`
	Findings                     []ReportFinding      `json:"findings"`
	PositiveChanges              []string             `json:"positive_changes"`
	TestingRecommendations       []string             `json:"testing_recommendations"`
	RecommendedActions           []string             `json:"recommended_actions"`
	OutOfScopeObservations       []review.Observation `json:"out_of_scope_observations"`
	RecommendedSpecialistReviews []SpecialistReview   `json:"recommended_specialist_reviews,omitempty"`
	Notes                        []ReportNote         `json:"notes,omitempty"`
	// TypeAwareAnalysis is what became of the type-aware analysis (merged
	// report only).
	TypeAwareAnalysis *AnalysisReport `json:"type_aware_analysis,omitempty"`
	// ModelReview is what became of the model review (merged report
	// only).
	ModelReview    *ModelReport `json:"model_review,omitempty"`
	RiskAssessment string       `json:"risk_assessment"`
	// PreexistingCount and PreExisting describe the findings on the
	// change's lines that were already there (no findings of the review);
	// PreExisting is listed only on request.
	PreexistingCount int             `json:"preexisting_count,omitempty"`
	PreExisting      []ReportFinding `json:"preexisting_findings,omitempty"`
	// NotShown is what the finding caps left out (merged report only).
	NotShown *NotShown `json:"findings_not_shown,omitempty"`
	// Decision is the review decision (merged report only).
	Decision *DecisionDoc `json:"decision,omitempty"`
}

// AnalysisReport is the type-aware analysis of a run (a local extension
// of the findings report and diff-state.json): whether it ran, was
// skipped or timed out, and why.
type AnalysisReport struct {
	Status review.AnalysisState `json:"status"`
	Reason string               `json:"reason,omitempty"`
	Budget string               `json:"budget,omitempty"`
}

// analysisReport converts a run's analysis; nil when it does not apply.
func analysisReport(a review.Analysis) *AnalysisReport {
	if a.State == "" {
		return nil
	}
	r := &AnalysisReport{Status: a.State, Reason: a.Reason}
	if a.State != review.AnalysisSkipped && a.Budget > 0 {
		r.Budget = a.Budget.String()
	}
	return r
}

// ReportNote is one review-level note of the merged report (a local
// extension): it cites no line and carries no verdict weight.
type ReportNote struct {
	Kind        review.NoteKind    `json:"kind"`
	RuleID      string             `json:"rule_id"`
	Perspective review.Perspective `json:"perspective"`
	Message     string             `json:"message"`
	Suggestion  string             `json:"suggestion,omitempty"`
	Paths       []string           `json:"paths"`
}

// reportNotes converts a run's notes for the findings file and the River
// artifact; nil when there are none.
func reportNotes(notes []review.Note) []ReportNote {
	var out []ReportNote
	for _, n := range notes {
		out = append(out, ReportNote{Kind: n.Kind, RuleID: n.Rule, Perspective: n.Perspective, Message: n.Message,
			Suggestion: n.Suggested, Paths: orEmpty(n.Paths)})
	}
	return out
}

// ChangedFile is one entry of changed_files.
type ChangedFile struct {
	File         string `json:"file"`
	LinesChanged string `json:"lines_changed"`
	Risk         string `json:"risk"`
	IssueCount   int    `json:"issue_count"`
}

// ReportFinding is one finding of a findings file. ID, RuleID, Perspective
// and LineState are local extensions.
type ReportFinding struct {
	Number       int                `json:"number"`
	Title        string             `json:"title"`
	Severity     review.Severity    `json:"severity"`
	Category     string             `json:"category"`
	Skill        *string            `json:"skill"`
	File         string             `json:"file"`
	Lines        string             `json:"lines"`
	Problem      string             `json:"problem"`
	CurrentCode  *string            `json:"current_code"`
	SuggestedFix *string            `json:"suggested_fix"`
	ID           string             `json:"id"`
	RuleID       string             `json:"rule_id"`
	Perspective  review.Perspective `json:"perspective"`
	LineState    review.LineState   `json:"line_state,omitempty"`
	// BaselineState is "updated" for a measured finding that grew past its
	// pre-existing value and "unchanged" for a pre-existing one; empty
	// means new. PreexistingIn says where a pre-existing one was found.
	BaselineState review.BaselineState `json:"baseline_state,omitempty"`
	PreexistingIn string               `json:"preexisting_in,omitempty"`
	// Model names the model that proposed a model finding.
	Model string `json:"model,omitempty"`
}

// reportFinding is finding f numbered n, its title tagged with its
// perspective in the merged report.
func reportFinding(n int, f *review.Finding, merged bool) ReportFinding {
	title := rawTitle(f)
	if merged {
		title = tagged(f)
	}
	rf := ReportFinding{
		Number:       n,
		Title:        title,
		Severity:     f.Severity,
		Category:     category(f),
		Skill:        nullable(f.Skill),
		File:         f.Span.Path,
		Lines:        f.Span.Lines(),
		Problem:      problem(f),
		CurrentCode:  nullable(f.CurrentCode),
		SuggestedFix: nullable(f.SuggestedFix),
		ID:           findingID(f),
		RuleID:       f.RuleID,
		Perspective:  f.Perspective,
		LineState:    f.LineState,
		Model:        f.Model,
	}
	if f.Baseline == review.BaselineUpdated {
		rf.BaselineState = f.Baseline
	}
	return rf
}

// SpecialistReview is one recommended specialist follow-up (hve-spec 5.3).
type SpecialistReview struct {
	Concern        string   `json:"concern"`
	SignalsMatched []string `json:"signals_matched"`
	Backing        string   `json:"backing"`
	Availability   string   `json:"availability"`
	Action         string   `json:"action"`
}

// FindingsJSON renders the findings file of perspective p, or with p empty
// the merged report of every accepted finding, titles tagged with their
// perspective. The document is redacted and valid against the findings
// schema.
func FindingsJSON(res *review.Result, p review.Perspective) ([]byte, error) {
	return findingsJSON(res, p, Options{})
}

// MergedFindingsJSON renders the merged report like [FindingsJSON], with
// the pre-existing findings listed when opts.PreExisting is set.
func MergedFindingsJSON(res *review.Result, opts Options) ([]byte, error) {
	return findingsJSON(res, "", opts)
}

func findingsJSON(res *review.Result, p review.Perspective, opts Options) ([]byte, error) {
	v := newView(res, opts)
	if p != "" {
		if _, err := review.ParsePerspective(string(p)); err != nil {
			return nil, err
		}
	}
	return encodeValid("findings", v.findingsReport(p), v.red)
}

// findingsReport builds the report of perspective p, or the merged report.
// The run-level lists (positive changes, testing recommendations,
// recommended actions, out-of-scope observations, specialist reviews)
// belong to no single lane, so they appear in the merged report only.
func (v *view) findingsReport(p review.Perspective) FindingsReport {
	findings := v.findings
	counts := v.counts
	if p != "" {
		findings = v.byPerspective(p)
		counts = review.Counts{}
		for _, f := range findings {
			counts.Add(f.Severity)
		}
	}
	r := FindingsReport{
		Verdict:                v.verdictOf(p, counts),
		SeverityCounts:         counts,
		ChangedFiles:           v.changedFiles(p),
		Findings:               []ReportFinding{},
		PositiveChanges:        []string{},
		TestingRecommendations: []string{},
		RecommendedActions:     []string{},
		OutOfScopeObservations: []review.Observation{},
		RiskAssessment:         v.riskAssessment(),
	}
	for i, f := range findings {
		r.Findings = append(r.Findings, reportFinding(i+1, f, p == ""))
	}
	if p == "" {
		r.PreexistingCount = len(v.res.PreExisting)
		if v.opts.PreExisting {
			for i, pre := range v.res.PreExisting {
				rf := reportFinding(i+1, pre.Finding, true)
				rf.BaselineState, rf.PreexistingIn = review.BaselineUnchanged, pre.Source
				r.PreExisting = append(r.PreExisting, rf)
			}
		}
	}
	if p == "" {
		r.Summary = fmt.Sprintf("reviewls reviewed %s: %s across %s; verdict %s%s.",
			v.targetDescription(), findingCount(counts), fileCount(len(r.ChangedFiles)), v.verdict, v.heldNote()+v.advisoryNote())
		r.PositiveChanges = nonEmpty(v.res.Positive)
		r.TestingRecommendations = nonEmpty(v.res.Testing)
		r.RecommendedActions = nonEmpty(v.res.Actions)
		for _, o := range v.res.OutOfScope {
			if strings.TrimSpace(o.Observation) != "" {
				r.OutOfScopeObservations = append(r.OutOfScopeObservations, o)
			}
		}
		r.RecommendedSpecialistReviews = v.specialistReviews()
		r.Notes = reportNotes(v.res.Notes)
		r.TypeAwareAnalysis = analysisReport(v.res.Analysis)
		r.ModelReview = modelReport(v.res.Model)
		r.NotShown = notShown(v.res)
		r.Decision = v.decisionDoc()
	} else {
		r.Summary = fmt.Sprintf("%s perspective: %s across %s.",
			p.Title(), findingCount(counts), fileCount(len(r.ChangedFiles)))
	}
	return r
}

// changedFiles lists the source files of the diff with their risk and the
// number of accepted findings of perspective p (all when p is empty).
func (v *view) changedFiles(p review.Perspective) []ChangedFile {
	issues := v.issues(p)
	out := []ChangedFile{}
	for _, f := range v.sourceFiles() {
		out = append(out, ChangedFile{
			File:         f.Path,
			LinesChanged: linesChanged(f),
			Risk:         v.fileRisk(f.Path),
			IssueCount:   issues[f.Path],
		})
	}
	return out
}

// riskAssessment states the change's risk in one or two sentences: the
// scope tier, the hotspots and the depth used. It is never a score.
func (v *view) riskAssessment() string {
	var b strings.Builder
	tier := string(v.risk.Tier)
	if tier == "" {
		tier = "not assessed"
	}
	fmt.Fprintf(&b, "Scope tier %s; recommended depth %s, depth used %s.", tier, v.recDepth, v.depth)
	if hs := v.hotspotPaths(); len(hs) > 0 {
		fmt.Fprintf(&b, " Hotspots: %s.", strings.Join(hs, ", "))
	}
	var missing []string
	for _, e := range v.evidence {
		if e.Availability == review.Unavailable {
			missing = append(missing, string(e.Signal))
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, " Evidence unavailable for %s.", strings.Join(missing, ", "))
	}
	return b.String()
}

func findingCount(c review.Counts) string {
	return fmt.Sprintf("%s (%d critical, %d high, %d medium, %d low)",
		plural(c.Total(), "finding"), c.Critical, c.High, c.Medium, c.Low)
}

func fileCount(n int) string { return plural(n, "changed file") }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// SustainabilityURL is the guidance behind the sustainability pointer
// (hve-spec 5.3); the protocol always shows it with the dated caveat.
const SustainabilityURL = "https://learn.microsoft.com/azure/well-architected/sustainability/sustainability-get-started"

// sustainabilityCaveat accompanies every sustainability pointer.
const sustainabilityCaveat = "The guidance is directional and dated 2022-10-12; check it against current practice."

// specialist describes how a specialist concern class is surfaced: the
// cross-skill forks registry of hve-spec 5.3, keyed by the concern names
// the risk stage emits. reviewls detects no agent catalog, so the
// agent-backed concerns are offered as unavailable pointers.
type specialist struct {
	label, backing, availability, action string
}

var specialists = map[string]specialist{
	"security": {"Security (deep review)", "agent security-reviewer", "unavailable",
		"Have the matched files reviewed for security in depth by someone (or a security review tool) who can follow the data; reviewls checks patterns only."},
	"supply-chain": {"Supply chain", "agent supply-chain-reviewer (sssc-reviewer in newer hve-core)", "unavailable",
		"Have the dependency, build and CI changes reviewed for supply-chain risk: where each new package comes from, who maintains it, what the build runs."},
	"ai": {"Responsible AI", "agent rai-reviewer", "unavailable",
		"Have the model, prompt and inference changes reviewed for Responsible AI concerns: misuse, bias, what the model may be sent or may say."},
	"accessibility": {"Accessibility (deep review)", "agent accessibility-reviewer", "unavailable",
		"Try the changed UI with a keyboard and a screen reader, or have an accessibility specialist audit it; reviewls checks markup patterns only."},
	"efficiency": {"Sustainability", SustainabilityURL, "available",
		"Read the Microsoft Well-Architected Framework sustainability guidance for the matched code. " + sustainabilityCaveat},
	"privacy": {"Privacy", "none", "manual",
		"Review personal-data handling by hand; no installed reviewer exists for this concern."},
}

// specialistReviews returns one entry per specialist signal that fired, in
// the order the risk stage reported them; nil when none fired.
func (v *view) specialistReviews() []SpecialistReview {
	var out []SpecialistReview
	for _, s := range v.risk.Specialist {
		sp, ok := specialists[s.Concern]
		if !ok {
			sp = specialist{s.Concern, "none", "manual", "Review the matched files by hand."}
		}
		out = append(out, SpecialistReview{
			Concern:        sp.label,
			SignalsMatched: nonEmpty(s.Signals),
			Backing:        sp.backing,
			Availability:   sp.availability,
			Action:         sp.action,
		})
	}
	return out
}
