package artifacts

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/reviewls/reviewls/review"
)

// River Review constants (river.md section 1).
const (
	riverVersion = "1"
	riverPhase   = "midstream"
	riverStatus  = "ok"
)

// Decisions of River's deriveVerdict.
const (
	RiverAutoApprove          = "auto-approve"
	RiverHumanReviewSuggested = "human-review-recommended"
	RiverHumanReviewRequired  = "human-review-required"
)

type riverArtifact struct {
	Version   string         `json:"version"`
	Timestamp string         `json:"timestamp"`
	Phase     string         `json:"phase"`
	Status    string         `json:"status"`
	Decision  string         `json:"decision,omitempty"`
	Plan      *riverPlan     `json:"plan,omitempty"`
	Findings  []riverFinding `json:"findings"`
	Context   *riverContext  `json:"context,omitempty"`
	Debug     map[string]any `json:"debug,omitempty"`
}

type riverPlan struct {
	SelectedSkills []riverSkill `json:"selectedSkills"`
	PlannerMode    string       `json:"plannerMode"`
	ImpactTags     []string     `json:"impactTags,omitempty"`
}

type riverSkill struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Phase     string `json:"phase"`
	ModelHint string `json:"modelHint"`
}

type riverFinding struct {
	ID         string   `json:"id"`
	RuleID     string   `json:"ruleId"`
	Title      string   `json:"title"`
	Message    string   `json:"message"`
	Severity   string   `json:"severity"`
	Phase      string   `json:"phase"`
	File       string   `json:"file"`
	Line       int      `json:"line,omitempty"`
	LineEnd    int      `json:"lineEnd,omitempty"`
	Confidence string   `json:"confidence,omitempty"`
	Status     string   `json:"status"`
	Evidence   []string `json:"evidence,omitempty"`
	Reviewer   string   `json:"reviewer,omitempty"`
	Suggestion string   `json:"suggestion,omitempty"`
}

type riverContext struct {
	DefaultBranch string   `json:"defaultBranch,omitempty"`
	MergeBase     string   `json:"mergeBase,omitempty"`
	ChangedFiles  []string `json:"changedFiles"`
}

// riverSeverity maps a severity to River's vocabulary.
func riverSeverity(s review.Severity) string {
	switch s {
	case review.SeverityCritical:
		return "critical"
	case review.SeverityHigh:
		return "major"
	case review.SeverityMedium:
		return "minor"
	}
	return "info"
}

// River renders the River Review artifact (review-artifact.json) with the
// v1.15.0 field set only, so it validates against every later River schema
// too. The decision is River's own deriveVerdict over the emitted findings;
// it is advisory and independent of reviewls's verdict. Suppressed findings
// are left out (River's scorer would count them). The absolute repository
// root is never written.
func River(res *review.Result, opts Options) ([]byte, error) {
	v := newView(res, opts)
	return encodeValid("review-artifact", v.river(), v.red)
}

func (v *view) river() riverArtifact {
	a := riverArtifact{
		Version:   riverVersion,
		Timestamp: v.now.Format(time.RFC3339Nano),
		Phase:     riverPhase,
		Status:    riverStatus,
		Findings:  []riverFinding{},
	}
	ids := map[string]string{}
	for i, f := range v.findings {
		rf := riverFinding{
			ID:       "rr-" + strconv.Itoa(i+1),
			RuleID:   orText(f.RuleID, "reviewls"),
			Title:    rawTitle(f),
			Message:  problem(f),
			Severity: riverSeverity(f.Severity),
			Phase:    riverPhase,
			File:     orText(f.Span.Path, "."),
			Status:   "open",
			Reviewer: f.RuleID,
		}
		if f.Model != "" {
			rf.Reviewer += " (" + f.Model + ")"
		}
		if f.Span.StartLine >= 1 {
			rf.Line = f.Span.StartLine
			if end := f.Span.Last(); end > f.Span.StartLine {
				rf.LineEnd = end
			}
		}
		if f.Confidence.Valid() {
			rf.Confidence = f.Confidence.String()
		}
		if c := strings.TrimSpace(f.CurrentCode); c != "" {
			rf.Evidence = []string{f.CurrentCode}
		}
		rf.Suggestion = strings.TrimSpace(f.SuggestedFix)
		a.Findings = append(a.Findings, rf)
		ids[rf.ID] = findingID(f)
	}
	a.Decision = deriveVerdict(a.Findings)

	skills := map[string]bool{}
	for _, f := range v.findings {
		if f.RuleID != "" {
			skills[f.RuleID] = true
		}
	}
	plan := &riverPlan{SelectedSkills: []riverSkill{}, PlannerMode: "off"}
	for _, id := range sortedKeys(skills) {
		plan.SelectedSkills = append(plan.SelectedSkills, riverSkill{
			ID: id, Name: v.ruleName(id), Phase: riverPhase, ModelHint: "cheap",
		})
	}
	tags := map[string]bool{}
	for _, h := range v.risk.Hotspots {
		for _, c := range h.Classes {
			tags[c] = true
		}
	}
	plan.ImpactTags = sortedKeys(tags)
	a.Plan = plan

	ctx := &riverContext{MergeBase: v.target.BaseSHA, ChangedFiles: orEmpty(v.cs.Paths())}
	if v.target.Kind == review.BranchDiff {
		// River records the ref it diffed against as defaultBranch.
		ctx.DefaultBranch = v.target.BaseRef
	}
	a.Context = ctx

	dbg := map[string]any{
		"tool":       v.opts.tool(),
		"version":    v.opts.version(),
		"verdict":    string(v.verdict),
		"targetKind": string(v.reviewTarget().Kind),
	}
	if len(ids) > 0 {
		dbg["findingIds"] = ids
	}
	// Notes are not River findings: River scores every finding, and a
	// note has no verdict weight. debug is River's place for the rest.
	if notes := reportNotes(v.res.Notes); len(notes) > 0 {
		dbg["notes"] = notes
	}
	if mr := modelReport(v.res.Model); mr != nil {
		dbg["modelReview"] = mr
	}
	a.Debug = map[string]any{"reviewls": dbg}
	return a
}

// River's scoring axes, in the order deriveVerdict averages them.
var riverAxes = []string{"readability", "extensibility", "performance", "security", "maintainability"}

// riverAxisPatterns classify a finding by its ruleId, first match wins
// (River's rubric.mjs). Each pattern anchors a word boundary at the start
// only, so "second-pass" lands on security, as in River.
var riverAxisPatterns = []struct {
	axis string
	re   *regexp.Regexp
}{
	{"security", regexp.MustCompile(`(?i)\b(sec|security|auth|authz|authn|injection|xss|csrf|crypto)`)},
	{"performance", regexp.MustCompile(`(?i)\b(perf|performance|n-?plus-?one|n1\b|slow|query|memory)`)},
	{"extensibility", regexp.MustCompile(`(?i)\b(arch|architecture|depend|layer|fat|coupling|boundary)`)},
	{"readability", regexp.MustCompile(`(?i)\b(read|readability|naming|complexity|style|clarity)`)},
	{"maintainability", regexp.MustCompile(`(?i)\b(test|coverage|maint|maintainability|doc|comment)`)},
}

// riverDeductions is River's default deduction table per axis and
// normalised severity.
var riverDeductions = map[string]map[string]int{
	"security":        {"critical": 50, "major": 30, "minor": 15, "info": 5},
	"readability":     {"critical": 30, "major": 20, "minor": 10, "info": 3},
	"extensibility":   {"critical": 30, "major": 20, "minor": 10, "info": 3},
	"performance":     {"critical": 30, "major": 20, "minor": 10, "info": 3},
	"maintainability": {"critical": 30, "major": 20, "minor": 10, "info": 3},
}

func riverAxis(ruleID string) string {
	for _, p := range riverAxisPatterns {
		if p.re.MatchString(ruleID) {
			return p.axis
		}
	}
	return "maintainability"
}

// riverNormSeverity is River's normalizeSeverity: the internal aliases map
// to the canonical names and anything unknown counts as info.
func riverNormSeverity(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "critical", "blocker":
		return "critical"
	case "major", "warning":
		return "major"
	case "minor", "nit":
		return "minor"
	}
	return "info"
}

// deriveVerdict ports River Review's scoreReview/deriveVerdict
// (src/lib/scoring/engine.mjs, v1.15.0): per-axis deductions floored at 0,
// overall = the mean of the five axes rounded half up, then the first
// matching rule: any critical or overall < 70 requires human review;
// overall >= 90 with security >= 95 and no critical or major finding
// auto-approves; anything else recommends human review. The artifact
// schema has no category field, so the axis always comes from the ruleId.
func deriveVerdict(findings []riverFinding) string {
	scores := map[string]int{}
	for _, a := range riverAxes {
		scores[a] = 100
	}
	counts := map[string]int{}
	for _, f := range findings {
		axis := riverAxis(f.RuleID)
		sev := riverNormSeverity(f.Severity)
		counts[sev]++
		scores[axis] = max(0, scores[axis]-riverDeductions[axis][sev])
	}
	sum := 0
	for _, a := range riverAxes {
		sum += scores[a]
	}
	// JavaScript's Math.round rounds halves up, toward +Inf.
	overall := int(math.Floor(float64(sum)/float64(len(riverAxes)) + 0.5))
	switch {
	case counts["critical"] > 0:
		return RiverHumanReviewRequired
	case overall < 70:
		return RiverHumanReviewRequired
	case overall >= 90 && scores["security"] >= 95 && counts["critical"] == 0 && counts["major"] == 0:
		return RiverAutoApprove
	}
	return RiverHumanReviewSuggested
}
