package review

import "time"

// Request asks for one review run.
type Request struct {
	// Dir is any path inside the work tree.
	Dir string
	// Staged restricts a local review to the index (pre-commit scope).
	Staged bool
	// Base, when set, makes the target a branch diff from
	// merge-base(Base, HEAD) to the work tree.
	Base string
	// Profile picks the starting perspectives; empty means standard.
	Profile Profile
	// Perspectives are the chosen perspectives (the custom profile).
	Perspectives []Perspective
	// Depth is the chosen depth; zero means the recommended depth.
	Depth          Depth
	DepthRationale string
	Mode           Mode
	Config         *Config
	// Overlay holds unsaved editor buffers by repo-relative path; they are
	// reviewed instead of the files on disk.
	Overlay map[string][]byte
	// Loop is the review loop's state from earlier reviews of the branch;
	// the run keeps its board ids, statuses and human choices.
	Loop *Loop
	// Baseline, when set, holds the findings a team accepted as known
	// (.reviewls-baseline.json): the change's findings it records are
	// pre-existing, like those of the base version.
	Baseline *Baseline
	// Paths, when set, limits a run on an engine with a previous result to
	// re-diffing and re-checking these paths (an incremental refresh).
	Paths []string
	// Now overrides the clock (tests); nil means time.Now.
	Now func() time.Time
	// Analysis says when the type-aware analysis runs; see AnalysisMode.
	Analysis AnalysisMode
	// Model says whether the run asks the model reviewer; see ModelMode.
	Model ModelMode
	// DeferOrientation leaves the orientation of the result (changed
	// symbols, board, walkthrough, loop state and notes) to a later
	// engine call, so that a language server publishes the findings
	// first; Result.OrientationPending says it is due.
	DeferOrientation bool
}

// Result is the outcome of a review run.
type Result struct {
	ChangeSet *ChangeSet
	Risk      *Risk
	History   *History
	Profile   Profile
	Mode      Mode
	// RecommendedPerspectives come from the profile and the signals that
	// fired; Perspectives are the ones whose findings were kept, besides
	// the secret findings of SecretsOnly.
	RecommendedPerspectives []Perspective
	Perspectives            []Perspective
	Depth                   Depth
	DepthRationale          string
	// SecretsOnly are the perspectives, not among Perspectives, of secret
	// findings: every review runs the secret rules ([SecretRules]) and
	// keeps their findings whatever the selection, so a secret reaches
	// the report, the artifacts and the gate under its own perspective,
	// with a findings file of its own.
	SecretsOnly []Perspective
	// Analysis is what became of the type-aware analysis.
	Analysis Analysis
	// Model is what became of the model review.
	Model ModelReview
	// AnalysisApplies says a rule of the type-aware analysis would check
	// a reviewed file, whether or not the analysis ran.
	AnalysisApplies bool
	// ProjectGates are the project gates: configured, withheld, run.
	ProjectGates *GateRun
	// Digest is the SHA-256 of the reviewed bytes ([Digest]).
	Digest string
	// Decision is the review's decision ([Decide]); nil for a run with
	// nothing to review.
	Decision *Decision
	// Withheld, when not empty, says which settings of the repository's
	// configuration were not honoured because the user does not trust
	// the repository, and how to allow them (one line).
	Withheld string
	// OrientationPending is set on the result of a run that deferred its
	// orientation (Request.DeferOrientation) until it is oriented.
	OrientationPending bool
	Provenance         Provenance
	// Findings are the accepted, merged findings: sorted, numbered, tagged.
	Findings []*Finding
	// Rejected findings failed validation against the diff.
	Rejected []Rejected
	// Suppressed findings were silenced by inline comments or config.
	Suppressed []Suppressed
	// PreExisting are findings on the change's lines that were already
	// there (hold the line): in the base version of their file or in the
	// baseline. They are no findings of the review: no diagnostic, no
	// verdict weight, no gate effect; reports count them and list them
	// on request.
	PreExisting []PreExisting
	// Absent are the baseline's entries, with the missing count, that the
	// reviewed files no longer carry (SARIF baselineState "absent"). Only
	// the files the review saw are judged.
	Absent []BaselineEntry
	// Cut counts the findings the caps left out ([Config.MaxFindings]),
	// by cap, rule and file.
	Cut []Cut
	// Counts are the accepted findings per severity.
	Counts Counts
	// Verdict is VerdictFor(GateCounts()): the accepted findings and the
	// held secrets, one outcome with the gate.
	Verdict Verdict
	// Notes are the review-level notes of the whole-change rules of the
	// kept perspectives; their texts are also in Testing or Actions.
	Notes []Note
	// Positive, Testing and Actions feed the report sections of the same
	// names.
	Positive   []string
	Testing    []string
	Actions    []string
	OutOfScope []Observation
	// Board, Walkthrough and the loop state orient the human.
	Board       []BoardItem
	Walkthrough *Walkthrough
	NextActions []NextAction
	Gates       PhaseGates
	Phase       Phase
	// Emission is the emission decision of the loop, if taken.
	Emission *Emission
	// Loop is the loop state after this run, to pass to the next one.
	Loop *Loop
	// Unscanned lists the changed files whose content the secret scan
	// could not read (a true binary, an unreadable file): a secret in them
	// would go unseen.
	Unscanned []Unscanned
	// Problems are checks that failed (a rule that panicked, a lens error);
	// they are reported as execution limitations and never stop the run.
	Problems []string
	// Redactor hides every secret the run saw; apply it to every output.
	Redactor *Redactor
	// Started and Finished bracket the run.
	Started, Finished time.Time
}

// Cap names one of the finding caps of [FindingCaps].
type Cap string

// The finding caps.
const (
	CapPerFile   Cap = "per-file"
	CapPerReview Cap = "per-review"
)

// Cut is what one cap left out of a review: Count findings of Rule in
// Path, which the cap of Limit findings did not let through. A secret is
// never cut.
type Cut struct {
	Cap   Cap
	Limit int
	Rule  string
	Path  string
	Count int
}

// CutCount returns how many findings the caps left out.
func (r *Result) CutCount() int {
	n := 0
	for _, c := range r.Cut {
		n += c.Count
	}
	return n
}

// ByPerspective returns the accepted findings of perspective p.
func (r *Result) ByPerspective(p Perspective) []*Finding {
	var out []*Finding
	for _, f := range r.Findings {
		if f.Perspective == p {
			out = append(out, f)
		}
	}
	return out
}

// Held returns the suppressed findings that still hold a gate: secrets
// silenced by an inline directive only.
func (r *Result) Held() []Suppressed {
	var out []Suppressed
	for _, s := range r.Suppressed {
		if s.Held && s.Finding != nil {
			out = append(out, s)
		}
	}
	return out
}

// GateCounts returns the severity counts a gate (--fail-on) compares with
// its threshold, and the verdict derives from: the accepted findings but
// the advisory ones ([Result.Advisory]), and the held ones. Counts leave
// the held ones out and keep the advisory ones.
func (r *Result) GateCounts() Counts {
	c := r.Counts
	for _, f := range r.Findings {
		if r.Advisory(f) {
			c.Remove(f.Severity)
		}
	}
	for _, s := range r.Held() {
		c.Add(s.Finding.Severity)
	}
	return c
}

// Skipped returns the listed-but-not-reviewed files.
func (r *Result) Skipped() []*File {
	var out []*File
	if r.ChangeSet == nil {
		return nil
	}
	for _, f := range r.ChangeSet.Files {
		if f.Skip != "" {
			out = append(out, f)
		}
	}
	return out
}

// Unscanned is a changed file the secret scan could not read, and why.
type Unscanned struct {
	Path   string
	Reason string
}
