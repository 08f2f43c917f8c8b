package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// The review decision (seed 003, step 09): beside the seed 000 verdict,
// which derives from severities alone, a review says what it recommends
// (Recommendation), how far its verification got (Readiness), and how
// much its judgement is worth (a confidence earned from evidence and
// reduced by each named gap, with the command or setting that closes
// it). [Decide] computes it from a [DecisionInput], which
// [DecisionInputOf] reads off a result; the engine decides again each
// time what a result knows changes (the type-aware analysis, the model's
// second wave, the project gates). docs/decision.md prints the table of
// confidence rules, [ConfidenceRules].

// Recommendation is seed 003's source verdict.
type Recommendation string

// The recommendations, in the order of their precedence when several
// apply: nothing reviewable, a policy the change violates, visibly
// unfinished work, a defect to fix, minor changes, none of these.
const (
	RecommendNull         Recommendation = "null"
	RecommendReject       Recommendation = "reject"
	RecommendInsufficient Recommendation = "insufficient-but-promising"
	RecommendMoreWork     Recommendation = "needs-more-work"
	RecommendMinor        Recommendation = "minor-changes"
	RecommendAccept       Recommendation = "accept-as-is"
)

// Words returns the recommendation in words, as the editors and the
// terminal say it: "Needs more work".
func (r Recommendation) Words() string {
	switch r {
	case RecommendAccept:
		return "Accept as is"
	case RecommendMinor:
		return "Minor changes"
	case RecommendMoreWork:
		return "Needs more work"
	case RecommendInsufficient:
		return "Insufficient, but promising"
	case RecommendReject:
		return "Reject"
	case RecommendNull:
		return "No source judgement"
	}
	return string(r)
}

// Verification is how far the verification of a review got, kept apart from
// its source judgement.
type Verification string

// The verification readiness values.
const (
	// VerificationComplete: every check that applies ran.
	VerificationComplete Verification = "complete"
	// VerificationIncomplete: checks that could have run did not.
	VerificationIncomplete Verification = "incomplete"
	// VerificationBlocked: a named capability is unavailable.
	VerificationBlocked Verification = "blocked"
)

// GapID names a kind of confidence gap; each has one row in
// [ConfidenceRules].
type GapID string

// The confidence gaps.
const (
	GapNothingReviewed     GapID = "nothing-reviewed"
	GapTypeAwareNotRun     GapID = "type-aware-not-run"
	GapTypeAwarePending    GapID = "type-aware-pending"
	GapTypeAwareTimedOut   GapID = "type-aware-timed-out"
	GapTypeAwareBlocked    GapID = "type-aware-blocked"
	GapModelNotConfigured  GapID = "model-not-configured"
	GapModelPending        GapID = "model-pending"
	GapModelUnavailable    GapID = "model-unavailable"
	GapGatesNotConfigured  GapID = "gates-not-configured"
	GapGatesNotRun         GapID = "gates-not-run"
	GapGatesUntrusted      GapID = "gates-untrusted"
	GapGateTimedOut        GapID = "gate-timed-out"
	GapSizeCap             GapID = "size-cap"
	GapNotScanned          GapID = "not-scanned"
	GapShallowClone        GapID = "shallow-clone"
	GapFindingsCapped      GapID = "findings-capped"
	GapCheckFailed         GapID = "check-failed"
	GapOrientationDeferred GapID = "orientation-pending"
)

// ConfidenceRule is one row of the confidence table: a gap, the
// readiness it leaves (incomplete or blocked; complete for a gap that is
// no missing check) and what it takes off the confidence, in hundredths.
type ConfidenceRule struct {
	Gap       GapID
	Readiness Verification
	// Points is the deduction in hundredths of the confidence.
	Points int
	// Means says when the gap opens, in a few words.
	Means string
}

// InitialConfidence is the confidence a review starts from, in
// hundredths, by the change's scope tier: the broader and riskier the
// change, the more a rule-based review can miss in it.
var InitialConfidence = []struct {
	Tier   ScopeTier
	Points int
}{
	{TierTrivial, 95},
	{TierLocal, 90},
	{TierBroad, 80},
	{TierHighRisk, 70},
}

// ConfidenceRules are the gaps of a review, each with its deduction. The
// deductions weigh what each missing check would have seen: the
// type-aware analysis and a file left unread hide defects of the code
// itself; a model, the project's own checks and the history add
// evidence of another kind.
var ConfidenceRules = []ConfidenceRule{
	{GapNothingReviewed, VerificationBlocked, 50, "no changed file could be reviewed"},
	{GapTypeAwareNotRun, VerificationIncomplete, 10, "the type-aware analysis applies but was not requested"},
	{GapTypeAwarePending, VerificationIncomplete, 10, "the type-aware analysis is still running"},
	{GapTypeAwareTimedOut, VerificationIncomplete, 5, "the type-aware analysis ran out of its budget"},
	{GapTypeAwareBlocked, VerificationBlocked, 10, "the type-aware analysis could not load the packages (toolchain, modules)"},
	{GapModelNotConfigured, VerificationIncomplete, 5, "no model reviewer is configured"},
	{GapModelPending, VerificationIncomplete, 5, "the model review is still running"},
	{GapModelUnavailable, VerificationBlocked, 10, "the model reviewer is configured but could not answer"},
	{GapGatesNotConfigured, VerificationIncomplete, 5, "the project lists no gates (its own checks)"},
	{GapGatesNotRun, VerificationIncomplete, 5, "the project's gates were not run"},
	{GapGatesUntrusted, VerificationIncomplete, 5, "the repository's gates were withheld: it is not trusted"},
	{GapGateTimedOut, VerificationIncomplete, 5, "a gate ran out of its timeout"},
	{GapSizeCap, VerificationIncomplete, 10, "a changed file was over the size cap and not reviewed"},
	{GapNotScanned, VerificationIncomplete, 2, "a changed file could not be scanned for secrets"},
	{GapShallowClone, VerificationBlocked, 5, "a shallow clone hides the history of the touched paths"},
	{GapFindingsCapped, VerificationIncomplete, 5, "the finding caps left findings out"},
	{GapCheckFailed, VerificationIncomplete, 10, "a check failed during the review"},
	{GapOrientationDeferred, VerificationComplete, 0, "the orientation (notes, residual risks) is still running"},
}

// ruleOf returns the confidence rule of gap id.
func ruleOf(id GapID) ConfidenceRule {
	for _, r := range ConfidenceRules {
		if r.Gap == id {
			return r
		}
	}
	panic("review: no confidence rule for gap " + string(id))
}

// initialPoints returns the initial confidence of tier, in hundredths;
// an unknown tier starts as a broad change does.
func initialPoints(tier ScopeTier) int {
	for _, c := range InitialConfidence {
		if c.Tier == tier {
			return c.Points
		}
	}
	return 80
}

// Gap is one confidence gap of a review: what is missing, what it took
// off the confidence, and how to close it.
type Gap struct {
	ID GapID
	// Text says what is missing, naming the files, checks or reasons.
	Text string
	// Points is the deduction in hundredths ([ConfidenceRule.Points]).
	Points int
	// Closure is the exact command or setting that closes the gap.
	Closure string
	// Rerun, when the closure is a review run again with more flags, holds
	// those flags ("--depth", "comprehensive"), so a front end can print
	// the command with the run's own target and directory.
	Rerun []string
	// Readiness is the readiness the gap leaves ([ConfidenceRule.Readiness]).
	Readiness Verification
}

// Deduction returns the gap's deduction as a fraction.
func (g Gap) Deduction() float64 { return float64(g.Points) / 100 }

// DecisionItem is a finding the decision cites.
type DecisionItem struct {
	Number   int
	ID       string
	RuleID   string
	Severity Severity
	Title    string
	Path     string
	Line     int
	// Held marks a secret an inline ignore hides from the findings (which
	// neither list nor number it) and that still blocks.
	Held bool
}

// String renders the item in one line: "#2 [High] Ignored error
// (app/run.go:12)".
func (i DecisionItem) String() string {
	if i.Held {
		return fmt.Sprintf("[%s] %s (%s:%d, %s)", i.Severity, i.Title, i.Path, i.Line, HeldWords)
	}
	return fmt.Sprintf("#%d [%s] %s (%s:%d)", i.Number, i.Severity, i.Title, i.Path, i.Line)
}

// HeldWords say why a finding the decision cites has no number: a secret
// an inline ignore hides from the findings, which still blocks.
const HeldWords = "a secret held by an inline ignore"

// Decision is seed 003's structured review decision.
type Decision struct {
	Recommendation Recommendation
	// Summary says the outcome in one to three sentences; Rationale why
	// the recommendation follows from the findings, gates and scope.
	Summary, Rationale string
	// Blocking are the findings that require changes before merging;
	// Minor the others.
	Blocking, Minor []DecisionItem
	// NextWork is the pre-merge work, one entry each.
	NextWork  []string
	Readiness Verification
	// InitialPoints and Points are the initial and final confidence, in
	// hundredths; Confidence is Points as a fraction.
	InitialPoints, Points int
	// Evidence is what the review inspected and ran.
	Evidence []string
	Gaps     []Gap
	// Limits are what remains uncertain however the gaps are closed.
	Limits []string
	// Residual are the residual risks of a review that found nothing:
	// what it could not see, stated as facts.
	Residual []string
	// Digest is the SHA-256 of the reviewed bytes ([Digest]).
	Digest string
}

// Confidence returns the final confidence in [0, 1].
func (d *Decision) Confidence() float64 { return float64(d.Points) / 100 }

// Initial returns the initial confidence in [0, 1].
func (d *Decision) Initial() float64 { return float64(d.InitialPoints) / 100 }

// TopGap returns the gap with the largest deduction (the first of equal
// ones), and false when there is none.
func (d *Decision) TopGap() (Gap, bool) {
	if d == nil || len(d.Gaps) == 0 {
		return Gap{}, false
	}
	top := d.Gaps[0]
	for _, g := range d.Gaps[1:] {
		if g.Points > top.Points {
			top = g
		}
	}
	return top, true
}

// Policy rule ids and the stub rule's: the findings that make a review
// reject or call the change insufficient.
const (
	PolicyRule = "readiness/policy"
	StubRule   = "readiness/stub"
)

// ModelStatus is what a decision knows of the model reviewer.
type ModelStatus struct {
	// Configured says a model reviewer is set up.
	Configured bool
	// Pending says its review has not ended yet; Ran that it did.
	Pending, Ran bool
	// Unavailable, when set, says why it could not be asked or answer.
	Unavailable string
	// Summary is the model review in one line, once it ran.
	Summary string
}

// modelDown are the reasons of an unverified model request that say the
// endpoint could not answer (review/llm's Reason values): down, too
// slow, or refusing.
var modelDown = []string{"unavailable", "timeout", "refused"}

// modelStatusOf reads what a decision needs of a run's model review: a
// review that ran but whose endpoint did not answer some requests is
// unavailable for those, and one that answered from the cache only and
// has requests it did not ask (the language server between saves) is
// still pending.
func modelStatusOf(m ModelReview) ModelStatus {
	switch m.State {
	case ModelOff:
		return ModelStatus{}
	case ModelPending:
		return ModelStatus{Configured: true, Pending: true}
	case ModelUnavailable:
		return ModelStatus{Configured: true, Unavailable: m.Reason}
	}
	st := ModelStatus{Configured: true, Ran: true, Summary: m.Summary}
	var down []string
	n := 0
	for _, r := range modelDown {
		if k := m.Counts.Unverified[r]; k > 0 {
			n += k
			down = append(down, fmt.Sprintf("%d %s", k, r))
		}
	}
	if n > 0 {
		st.Unavailable = fmt.Sprintf("%d of %s unanswered (%s)", n, plural(m.Counts.Requests, "request"), strings.Join(down, ", "))
	}
	st.Pending = m.Counts.Unverified["not-asked"] > 0
	return st
}

// DecisionInput is everything [Decide] reads: plain data, so the decision
// is a pure function of it.
type DecisionInput struct {
	// Tier is the change's scope tier.
	Tier ScopeTier
	// Files counts the changed files; Reviewed those whose content was
	// reviewed.
	Files, Reviewed int
	// Perspectives ran at Depth.
	Perspectives []Perspective
	Depth        Depth
	// Findings are those that count: the accepted findings the verdict
	// weighs and the secrets held by an inline ignore.
	Findings []*Finding
	// Held are the findings of Findings that are secrets held by an inline
	// ignore.
	Held []*Finding
	// Analysis is the type-aware analysis; AnalysisApplies says a heavy
	// rule would check a reviewed file (so its absence is a gap).
	Analysis        Analysis
	AnalysisApplies bool
	Model           ModelStatus
	// Gates are the project gates: configured, run or not.
	Gates GateRun
	// SizeCapped are the files skipped for the size cap, with the cap in
	// their reason; Unscanned those the secret scan could not read.
	SizeCapped []*File
	Unscanned  []Unscanned
	// Shallow reports a shallow clone whose history stops before the
	// touched paths' ([History.Shallow]).
	Shallow        bool
	HistoryCommits int
	// Cut counts the findings the caps left out; Problems are checks
	// that failed.
	Cut      int
	Problems []string
	// Oriented says the orientation ran: Notes, PublicAPIs and the
	// residual risks are known.
	Oriented bool
	Notes    []Note
	// Hotspots are the hotspot paths the change touches; PublicAPIs the
	// public symbols it changed.
	Hotspots   []Hotspot
	PublicAPIs []string
	// SourceChanged and TestsChanged say whether code, and tests, changed.
	SourceChanged, TestsChanged bool
	Digest                      string
}

// DecisionInputOf reads the decision's input off a result.
func DecisionInputOf(res *Result) DecisionInput {
	in := DecisionInput{
		Perspectives: res.Perspectives,
		Depth:        res.Depth,
		Analysis:     res.Analysis,
		Unscanned:    res.Unscanned,
		Cut:          res.CutCount(),
		Problems:     res.Problems,
		Oriented:     !res.OrientationPending,
		Notes:        res.Notes,
		Digest:       res.Digest,
		Model:        modelStatusOf(res.Model),
	}
	if res.ProjectGates != nil {
		in.Gates = *res.ProjectGates
	}
	in.AnalysisApplies = res.AnalysisApplies || res.Analysis.State != ""
	if res.Risk != nil {
		in.Tier, in.Hotspots = res.Risk.Tier, res.Risk.Hotspots
	}
	if res.History != nil {
		in.Shallow, in.HistoryCommits = res.History.Shallow, len(res.History.Commits)
	}
	if res.Walkthrough != nil {
		in.PublicAPIs = res.Walkthrough.PublicAPIs
	}
	in.Findings = res.CountedFindings()
	for _, h := range res.Held() {
		in.Held = append(in.Held, h.Finding)
	}
	if cs := res.ChangeSet; cs != nil {
		in.Files = len(cs.Files)
		for _, f := range cs.Files {
			switch {
			case f.Reviewed():
				in.Reviewed++
				if IsTestPath(f.Path) {
					in.TestsChanged = true
				} else if f.Language != LangUnknown && f.Language != LangMarkdown && f.Language != LangText {
					in.SourceChanged = true
				}
			case f.OverCap > 0:
				in.SizeCapped = append(in.SizeCapped, f)
			}
		}
	}
	return in
}

// CountedFindings returns the findings a decision weighs, as the verdict
// does ([Result.GateCounts]): the accepted ones but the advisory model
// findings, and the secrets held by an inline ignore.
func (r *Result) CountedFindings() []*Finding {
	var out []*Finding
	for _, f := range r.Findings {
		if !r.Advisory(f) {
			out = append(out, f)
		}
	}
	for _, s := range r.Held() {
		out = append(out, s.Finding)
	}
	return out
}

// Decide computes the decision of a review from in. It is a pure
// function: the same input gives the same decision.
func Decide(in DecisionInput) Decision {
	d := Decision{Digest: in.Digest}
	var stubs, policy []DecisionItem
	for _, f := range in.Findings {
		item := itemOf(f)
		item.Held = slices.Contains(in.Held, f)
		switch {
		case f.RuleID == PolicyRule:
			policy = append(policy, item)
		case f.RuleID == StubRule:
			stubs = append(stubs, item)
		}
		if required(f) {
			d.Blocking = append(d.Blocking, item)
		} else {
			d.Minor = append(d.Minor, item)
		}
	}
	failed := in.Gates.Failed()
	switch {
	case in.Reviewed == 0 && len(in.Findings) == 0:
		d.Recommendation = RecommendNull
	case len(policy) > 0:
		d.Recommendation = RecommendReject
	case len(stubs) > 0:
		d.Recommendation = RecommendInsufficient
	case len(d.Blocking) > 0 || len(failed) > 0:
		d.Recommendation = RecommendMoreWork
	case len(in.Findings) > 0:
		d.Recommendation = RecommendMinor
	default:
		d.Recommendation = RecommendAccept
	}
	d.Gaps = gaps(in)
	d.InitialPoints = initialPoints(in.Tier)
	d.Points = d.InitialPoints
	d.Readiness = VerificationComplete
	for _, g := range d.Gaps {
		d.Points -= g.Points
		switch {
		case g.Readiness == VerificationBlocked:
			d.Readiness = VerificationBlocked
		case g.Readiness == VerificationIncomplete && d.Readiness == VerificationComplete:
			d.Readiness = VerificationIncomplete
		}
	}
	d.Points = max(0, min(100, d.Points))
	d.NextWork = nextWork(in, d.Blocking, stubs, policy, failed)
	d.Summary, d.Rationale = explain(in, d, stubs, policy, failed)
	d.Evidence = evidence(in)
	d.Limits = limits(in, d)
	if len(in.Findings) == 0 && in.Oriented && in.Reviewed > 0 {
		d.Residual = residual(in)
	}
	return d
}

// required reports whether a finding is a defect to fix before merging:
// any Critical or High, a Medium functional or security finding, a policy
// violation or a stub.
func required(f *Finding) bool {
	switch {
	case f.Severity >= SeverityHigh, f.RuleID == PolicyRule, f.RuleID == StubRule:
		return true
	case f.Severity == SeverityMedium:
		return f.Perspective == Functional || f.Perspective == Security
	}
	return false
}

// itemOf cites f by its title line: the title without the perspective
// tag of the merged report.
func itemOf(f *Finding) DecisionItem {
	return DecisionItem{Number: f.Number, ID: f.ID, RuleID: f.RuleID, Severity: f.Severity, Title: f.TitleLine(), Path: f.Span.Path, Line: f.Span.StartLine}
}

// gaps returns the confidence gaps of in, in the order of the table.
func gaps(in DecisionInput) []Gap {
	var out []Gap
	add := func(id GapID, text, closure string) {
		r := ruleOf(id)
		out = append(out, Gap{ID: id, Text: text, Points: r.Points, Closure: closure, Rerun: rerunOf(closure), Readiness: r.Readiness})
	}
	if in.Reviewed == 0 {
		add(GapNothingReviewed, fmt.Sprintf("none of the %d changed files could be reviewed (skipped or binary)", in.Files),
			"review the skipped files by hand, or change what the review skips (size-cap:, ignore: in .reviewls.yaml)")
	}
	if in.Reviewed > 0 {
		analysisGap(in, add)
		modelGap(in.Model, add)
		gateGap(in.Gates, add)
	}
	if len(in.SizeCapped) > 0 {
		var names []string
		for _, f := range in.SizeCapped {
			names = append(names, fmt.Sprintf("%s (%s)", f.Path, f.Skip))
		}
		add(GapSizeCap, "not reviewed for its size: "+strings.Join(names, ", "), "size-cap: "+sizeCapClosure(in.SizeCapped)+" in .reviewls.yaml")
	}
	if len(in.Unscanned) > 0 {
		var names []string
		for _, u := range in.Unscanned {
			names = append(names, fmt.Sprintf("%s (%s)", u.Path, u.Reason))
		}
		add(GapNotScanned, "not scanned for secrets: "+strings.Join(names, ", "), "check these files for secrets by hand")
	}
	if in.Shallow {
		add(GapShallowClone, "the clone is shallow: the history of the touched paths stops at its boundary", "git fetch --deepen=50")
	}
	if in.Cut > 0 {
		add(GapFindingsCapped, fmt.Sprintf("the finding caps left %d findings out", in.Cut), "raise max-findings in .reviewls.yaml (per-file, per-review)")
	}
	if len(in.Problems) > 0 {
		add(GapCheckFailed, "checks failed: "+strings.Join(in.Problems, "; "), "rerun with --log-level debug and report the failure")
	}
	if !in.Oriented && in.Reviewed > 0 {
		add(GapOrientationDeferred, "the orientation is still running: notes and residual risks follow", "wait for the next review status")
	}
	return out
}

func analysisGap(in DecisionInput, add func(GapID, string, string)) {
	a := in.Analysis
	switch a.State {
	case AnalysisRan:
	case AnalysisPending:
		add(GapTypeAwarePending, "the type-aware analysis is still running", "wait for the background analysis to finish")
	case AnalysisTimedOut:
		add(GapTypeAwareTimedOut, a.String(), fmt.Sprintf("analysis: {budget: %s} in .reviewls.yaml", a.Budget*2))
	case AnalysisSkipped:
		if a.Blocked {
			add(GapTypeAwareBlocked, a.String(), blockedClosure(a.Reason))
			return
		}
		add(GapTypeAwareNotRun, a.String(), analysisClosure(a.Reason))
	default:
		if in.AnalysisApplies {
			add(GapTypeAwareNotRun, fmt.Sprintf("type-aware analysis not run: not part of depth %s", in.Depth), "reviewls review --depth comprehensive")
		}
	}
}

// rerunOf returns the flags of a closure that is the review run again
// with more flags ("reviewls review --gates"), or nil.
func rerunOf(closure string) []string {
	if flags, ok := strings.CutPrefix(closure, "reviewls review "); ok && strings.HasPrefix(flags, "--") && !strings.ContainsAny(flags, ",()") {
		return strings.Fields(flags)
	}
	return nil
}

// analysisClosure is the command that runs an analysis skipped for
// reason: trusting the repository when that is what it lacks.
func analysisClosure(reason string) string {
	if strings.Contains(reason, "not trusted") {
		return "reviewls trust"
	}
	return "reviewls review --depth comprehensive"
}

// blockedClosure names what installs the capability an analysis lacked,
// from its reason.
func blockedClosure(reason string) string {
	switch {
	case strings.Contains(reason, "go mod download"):
		return "go mod download"
	case strings.Contains(reason, "not installed"):
		if _, v, ok := strings.Cut(reason, "needs go"); ok {
			v, _, _ = strings.Cut(v, " ")
			return "install go" + v + " (go install golang.org/dl/go" + v + "@latest)"
		}
		return "install the Go toolchain"
	case strings.Contains(reason, "go vet"):
		return "go vet ./... (fix what does not type-check)"
	case strings.Contains(reason, "no go.mod"):
		return "go mod init (the changed Go files are in no module)"
	}
	return "go list ./... (see why the packages do not load)"
}

func modelGap(m ModelStatus, add func(GapID, string, string)) {
	switch {
	case !m.Configured:
		add(GapModelNotConfigured, "no model reviewer is configured: only the rules looked at the change", "configure a model (docs/model.md)")
	case m.Unavailable != "":
		add(GapModelUnavailable, "model review unavailable: "+m.Unavailable, "check the model endpoint (reviewls review -v shows its requests)")
	case m.Pending:
		add(GapModelPending, "the model review is still running", "wait for the model review to finish")
	}
}

func gateGap(g GateRun, add func(GapID, string, string)) {
	switch {
	case g.Withheld:
		add(GapGatesUntrusted, "the repository lists gates, withheld because it is not trusted", "reviewls trust, then reviewls review --gates")
	case len(g.Configured) == 0:
		add(GapGatesNotConfigured, "the project lists no gates: none of its own checks (tests, linters) ran", "list them under gates: in .reviewls.yaml, then reviewls review --gates")
	case len(g.Results) == 0:
		add(GapGatesNotRun, fmt.Sprintf("the project's gates were not run (%s)", g.commands()), "reviewls review --gates")
	default:
		for _, r := range g.Results {
			if r.TimedOut {
				add(GapGateTimedOut, fmt.Sprintf("gate %q timed out after %s", r.Name, r.Timeout), fmt.Sprintf("raise the timeout of gate %q under gates: in .reviewls.yaml", r.Name))
			}
		}
	}
}

// sizeCapClosure is a size cap that covers the largest skipped file:
// the next power of two MiB above its size.
func sizeCapClosure(files []*File) string {
	var largest int64
	for _, f := range files {
		largest = max(largest, f.OverCap)
	}
	mib := int64(1)
	for mib<<20 <= largest {
		mib <<= 1
	}
	return fmt.Sprintf("%dMiB", mib)
}

// nextWork lists the pre-merge work.
func nextWork(in DecisionInput, blocking, stubs, policy []DecisionItem, failed []GateResult) []string {
	var out []string
	for _, p := range policy {
		out = append(out, fmt.Sprintf("Remove what the project policy forbids: %s.", p))
	}
	for _, s := range stubs {
		out = append(out, fmt.Sprintf("Implement what the change leaves unfinished: %s.", s))
	}
	for _, b := range blocking {
		switch {
		case b.RuleID == PolicyRule, b.RuleID == StubRule:
		case b.Held:
			out = append(out, fmt.Sprintf("Remove the secret and rotate it, or list its fingerprint under allow-secrets (an inline ignore does not let it through): %s.", b))
		default:
			out = append(out, fmt.Sprintf("Fix %s.", b))
		}
	}
	for _, g := range failed {
		why := fmt.Sprintf("exit %d", g.ExitCode)
		if g.Err != "" {
			why = "it did not start: " + g.Err
		}
		out = append(out, fmt.Sprintf("Make gate %q pass (%s).", g.Name, why))
	}
	return out
}

// explain writes the summary and the rationale of d.
func explain(in DecisionInput, d Decision, stubs, policy []DecisionItem, failed []GateResult) (summary, rationale string) {
	var open []string
	for _, g := range d.Gaps {
		if g.Points > 0 {
			open = append(open, string(g.ID))
		}
	}
	gaps := ""
	if len(open) > 0 {
		gaps = " (" + strings.Join(open, ", ") + ")"
	}
	verification := "Verification " + string(d.Readiness) + gaps + "."
	reviewed := fmt.Sprintf("%d of %d changed files reviewed", in.Reviewed, in.Files)
	switch d.Recommendation {
	case RecommendNull:
		return "Nothing reviewable: every changed file was skipped or is binary. " + verification,
			fmt.Sprintf("No source judgement: %s, so there is nothing to judge; the verdict's approval only means no finding.", reviewed)
	case RecommendReject:
		return fmt.Sprintf("The change violates the project policy in .reviewls.yaml (%s). %s", joinItems(policy), verification),
			"Reject follows from an explicit project policy only (policy: in .reviewls.yaml), never from preference: " +
				"the change adds what the policy forbids. A change without it could fit."
	case RecommendInsufficient:
		return fmt.Sprintf("The change is visibly unfinished: %s. %s", joinItems(stubs), verification),
			"The change adds stubs on its code path (deterministic markers of unimplemented code), so it cannot ship as it is; " +
				"the work it starts can be finished in the same direction."
	case RecommendMoreWork:
		var why []string
		if n := len(d.Blocking); n > 0 {
			why = append(why, plural(n, "finding")+" to fix ("+worst(d.Blocking)+")")
		}
		if len(failed) > 0 {
			var names []string
			for _, g := range failed {
				names = append(names, fmt.Sprintf("%q", g.Name))
			}
			why = append(why, "failing gates: "+strings.Join(names, ", "))
		}
		return fmt.Sprintf("Required changes: %s. %s", strings.Join(why, "; "), verification),
			"A confirmed defect (a Critical or High finding, a Medium functional or security one) or a failing project gate needs " +
				"a fix before merging; a fixable defect is more work, not a rejection."
	case RecommendMinor:
		return fmt.Sprintf("Minor changes only: %s (%s). %s", plural(len(d.Minor), "finding"), worst(d.Minor), verification),
			"Only Low or Medium findings of standards, documentation or readiness, or Low ones of other perspectives: nothing is a defect that blocks merging."
	}
	summary = "No source changes identified (" + reviewed + "). " + verification
	if d.Readiness != VerificationComplete {
		summary = "No source changes identified (" + reviewed + "); verification " + string(d.Readiness) + gaps +
			": this approval covers only what the review could check."
	}
	return summary, "No finding requires a change and no gate failed."
}

func joinItems(items []DecisionItem) string {
	var s []string
	for _, it := range items {
		s = append(s, fmt.Sprintf("%s at %s:%d", it.Title, it.Path, it.Line))
	}
	return strings.Join(s, "; ")
}

// worst names the worst of items by severity.
func worst(items []DecisionItem) string {
	w := slices.MaxFunc(items, func(a, b DecisionItem) int { return cmp.Compare(a.Severity, b.Severity) })
	return fmt.Sprintf("worst: %s", w)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// evidence lists what the review inspected and ran.
func evidence(in DecisionInput) []string {
	var ps []string
	for _, p := range in.Perspectives {
		ps = append(ps, string(p))
	}
	depth := ""
	if in.Depth.Valid() {
		depth = " at depth " + in.Depth.String()
	}
	out := []string{fmt.Sprintf("%d of %d changed files reviewed by the rules of %s%s", in.Reviewed, in.Files, orNone(strings.Join(ps, ", ")), depth)}
	out = append(out, "every changed file scanned for secrets, reviewed or not")
	if in.Analysis.State == AnalysisRan {
		out = append(out, "type-aware analysis of the changed Go packages ran")
	}
	if in.Model.Ran {
		out = append(out, "model review: "+orNone(in.Model.Summary))
	}
	for _, r := range in.Gates.Results {
		if r.TimedOut {
			continue // a gap, not evidence
		}
		e := r.String()
		if r.Command != r.Name {
			e += " (" + r.Command + ")"
		}
		out = append(out, e)
	}
	if in.HistoryCommits > 0 {
		out = append(out, "history of the touched paths: "+plural(in.HistoryCommits, "commit"))
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// limits states what stays uncertain.
func limits(in DecisionInput, d Decision) []string {
	out := []string{"The rules find known patterns: a defect no rule describes (a wrong condition, a missing case) goes unseen."}
	if in.Model.Ran {
		out[0] += " The model reviewer's candidates were checked against the diff; it misses defects too."
	}
	if !in.Gates.Ran() {
		out = append(out, "The change's behaviour was not executed: no project gate ran.")
	}
	for _, g := range d.Gaps {
		if g.Readiness == VerificationBlocked {
			out = append(out, "Blocked: "+g.Text+".")
		}
	}
	return out
}

// residualClasses say, for each hotspot class, what the rules look at
// there: a class no rule checks is a residual risk as it stands.
var residualClasses = map[string]string{
	"auth":            "the security rules check known patterns, not the access logic itself",
	"crypto":          "the security rules check known weak primitives, not the protocol",
	"secrets":         "the secret scan finds known formats, not every credential",
	"deserialization": "the security rules check known unsafe loaders, not the data's validation",
	"networking":      "the security rules check known patterns, not timeouts, retries or protocol use",
	"parsing":         "no rule checks parsing logic",
	"persistence":     "no rule checks persistence logic (queries, migrations, transactions)",
	"concurrency":     "no rule checks synchronisation beyond a few known patterns",
}

// residual states what a review that found nothing could not see.
func residual(in DecisionInput) []string {
	var out []string
	byClass := map[string][]string{}
	var classes []string
	for _, h := range in.Hotspots {
		for _, c := range h.Classes {
			if byClass[c] == nil {
				classes = append(classes, c)
			}
			byClass[c] = append(byClass[c], h.Path)
		}
	}
	slices.Sort(classes)
	for _, c := range classes {
		what := residualClasses[c]
		if what == "" {
			what = "no rule checks its logic"
		}
		out = append(out, fmt.Sprintf("The change touches %s code (%s): %s.", c, strings.Join(byClass[c], ", "), what))
	}
	if n := len(in.PublicAPIs); n > 0 {
		out = append(out, fmt.Sprintf("The change alters %s of the public API: callers outside the reviewed files were not checked.", plural(n, "symbol")))
	}
	if in.SourceChanged && !in.TestsChanged {
		out = append(out, "No test changed with the code: nothing shows the new behaviour is tested.")
	}
	return out
}

// Consistent reports whether a verdict (seed 000, from severities) and a
// recommendation can stand together: an approval never comes with
// findings to address beyond a failing gate, approval with comments
// never with acceptance as is, and a request for changes never with
// acceptance or minor changes.
func Consistent(v Verdict, r Recommendation) bool {
	switch v {
	case VerdictApprove:
		return r == RecommendAccept || r == RecommendNull || r == RecommendMoreWork
	case VerdictApproveWithComments:
		return r == RecommendMinor || r == RecommendMoreWork || r == RecommendInsufficient
	case VerdictRequestChanges:
		return r == RecommendMoreWork || r == RecommendInsufficient || r == RecommendReject
	}
	return false
}
