package artifacts

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/reviewls/reviewls/review"
)

// view is a review.Result normalised once for all renderers: defaults
// applied, nil parts replaced by empty ones, counts and verdict recomputed
// from the accepted findings (hve-spec 7.2: never carried from elsewhere)
// and, for the verdict, the secrets the gate holds (review.VerdictFor).
// Renderers read res through a view and never modify it.
type view struct {
	res  *review.Result
	opts Options
	cs   *review.ChangeSet
	risk *review.Risk
	red  *review.Redactor

	target      review.Target
	folder      string
	now         time.Time
	profile     review.Profile
	mode        review.Mode
	phase       review.Phase
	selected    []review.Perspective
	lanes       []review.Perspective
	recommended []review.Perspective
	findings    []*review.Finding
	counts      review.Counts
	verdict     review.Verdict
	evidence    []review.Evidence
	recDepth    review.Depth
	depth       review.Depth
	rationale   string
	provenance  review.Provenance
	rules       map[string]review.RuleInfo
	// linkRoot leads from where the markdown is read to the repository's
	// root; again renders a command that repeats the review with more
	// arguments, as the markdown suggests it.
	linkRoot string
	again    func(extra ...string) string
}

func newView(res *review.Result, opts Options) *view {
	if res == nil {
		res = &review.Result{}
	}
	v := &view{res: res, opts: opts, cs: res.ChangeSet, risk: res.Risk}
	if v.cs == nil {
		v.cs = &review.ChangeSet{}
	}
	if v.risk == nil {
		v.risk = &review.Risk{}
	}
	v.target = v.cs.Target
	v.folder = folderName(v.cs.Root, v.target)

	v.now = opts.Now
	if v.now.IsZero() {
		v.now = res.Finished
	}
	if v.now.IsZero() {
		v.now = time.Now()
	}
	v.now = v.now.UTC()

	v.profile = res.Profile
	if v.profile == "" {
		v.profile = review.ProfileStandard
	}
	v.mode = res.Mode
	if v.mode == "" {
		v.mode = review.ModeWorkflow
	}
	v.phase = res.Phase
	if v.phase == "" {
		v.phase = review.PhaseOrientation
	}
	v.selected = canonical(res.Perspectives)
	// The perspectives with a findings file: the selected ones and those
	// of secrets kept outside them (review.Result.SecretsOnly).
	v.lanes = canonical(append(slices.Clone(res.Perspectives), res.SecretsOnly...))
	v.recommended = canonical(res.RecommendedPerspectives)

	for _, f := range res.Findings {
		if f != nil {
			v.findings = append(v.findings, f)
			v.counts.Add(f.Severity)
		}
	}
	v.verdict = v.verdictOf("", v.counts)

	v.evidence = sixSignals(v.risk.Evidence)
	v.recDepth = v.risk.RecommendedDepth
	if !v.recDepth.Valid() {
		v.recDepth = review.DepthStandard
	}
	v.depth = res.Depth
	if !v.depth.Valid() {
		v.depth = v.recDepth
	}
	v.rationale = strings.TrimSpace(res.DepthRationale)
	if v.rationale == "" {
		if v.depth == v.recDepth {
			v.rationale = fmt.Sprintf("Used the recommended depth (%s).", v.depth)
		} else {
			v.rationale = fmt.Sprintf("Used %s depth instead of the recommended %s.", v.depth, v.recDepth)
		}
	}
	v.provenance = normProvenance(res.Provenance)

	v.rules = map[string]review.RuleInfo{}
	for _, r := range opts.Rules {
		v.rules[r.ID] = r
	}
	v.red = newRedactor(res)
	v.linkRoot, v.again = repoRel, reviewAgain(v.target)
	return v
}

// md starts a markdown document of the view.
func (v *view) md() *md {
	return &md{red: v.red, root: v.linkRoot}
}

// canonical returns the distinct valid perspectives of ps in canonical
// order, never nil.
func canonical(ps []review.Perspective) []review.Perspective {
	set := map[review.Perspective]bool{}
	for _, p := range ps {
		set[p] = true
	}
	return review.SortPerspectives(set)
}

// sixSignals returns exactly one evidence entry per change-risk signal, in
// protocol order. A missing signal is recorded as unavailable rather than
// invented; a duplicate keeps its first entry.
func sixSignals(in []review.Evidence) []review.Evidence {
	out := make([]review.Evidence, 0, len(review.AllSignals))
	for _, s := range review.AllSignals {
		e := review.Evidence{Signal: s, Availability: review.Unavailable, Evidence: "Not assessed by this run."}
		if i := slices.IndexFunc(in, func(e review.Evidence) bool { return e.Signal == s }); i >= 0 {
			e = in[i]
			if e.Availability == "" {
				e.Availability = review.Unavailable
			}
			if strings.TrimSpace(e.Evidence) == "" {
				e.Evidence = "No evidence recorded."
			}
		}
		out = append(out, e)
	}
	return out
}

func normProvenance(p review.Provenance) review.Provenance {
	def := func(s string) string {
		if s == "" {
			return review.AutomationDerived
		}
		return s
	}
	return review.Provenance{
		Scope:              def(p.Scope),
		ChangeRiskEvidence: def(p.ChangeRiskEvidence),
		RecommendedDepth:   review.AutomationDerived, // always advisory (hve-spec 3.5)
		DepthTier:          def(p.DepthTier),
		DepthRationale:     def(p.DepthRationale),
	}
}

// interactive reports whether the orientation-first artifacts are written.
func (v *view) interactive() bool { return v.mode == review.ModeInteractive }

// branch returns the branch label recorded in the artifacts.
func (v *view) branch() string { return recordedBranch(v.target) }

// base returns the base the diff starts from.
func (v *view) base() string {
	if v.target.BaseRef != "" {
		return v.target.BaseRef
	}
	return "HEAD"
}

// nullSHA stands for the head commit of an unborn HEAD in metadata.json:
// git's own null object id.
const nullSHA = "0000000000000000000000000000000000000000"

// headCommit returns the full head SHA, or nullSHA on an unborn HEAD.
func (v *view) headCommit() string {
	if v.target.HeadSHA == "" {
		return nullSHA
	}
	return v.target.HeadSHA
}

// sourceFiles returns the files_changed set: reviewed files plus deleted
// ones, never skipped files.
func (v *view) sourceFiles() []*review.File {
	var out []*review.File
	for _, f := range v.cs.Files {
		if f.Skip == "" && (f.Reviewed() || f.Status == review.StatusDeleted) {
			out = append(out, f)
		}
	}
	return out
}

// skipped returns the listed-but-not-reviewed files.
func (v *view) skipped() []*review.File {
	var out []*review.File
	for _, f := range v.cs.Files {
		if f.Skip != "" {
			out = append(out, f)
		}
	}
	return out
}

// reviewedPaths returns the paths whose content was reviewed.
func (v *view) reviewedPaths() []string {
	out := []string{}
	for _, f := range v.cs.Reviewed() {
		out = append(out, f.Path)
	}
	return out
}

// extensions returns the distinct extensions of the reviewed paths.
func (v *view) extensions() []string {
	set := map[string]bool{}
	for _, p := range v.reviewedPaths() {
		if ext := path.Ext(p); ext != "" && ext != "." {
			set[ext] = true
		}
	}
	return sortedKeys(set)
}

// hotspotPaths returns the distinct hotspot paths in their given order.
func (v *view) hotspotPaths() []string {
	out := []string{}
	seen := map[string]bool{}
	for _, h := range v.risk.Hotspots {
		if h.Path != "" && !seen[h.Path] {
			seen[h.Path] = true
			out = append(out, h.Path)
		}
	}
	return out
}

// fileRisk returns the High/Medium/Low classification of path (hve-spec
// 7.3), Low when unknown.
func (v *view) fileRisk(p string) string {
	r := v.risk.FileRisk[p]
	for _, want := range []string{"High", "Medium", "Low"} {
		if strings.EqualFold(r, want) {
			return want
		}
	}
	return "Low"
}

// issues counts the accepted findings per path, restricted to perspective p
// unless p is empty.
func (v *view) issues(p review.Perspective) map[string]int {
	out := map[string]int{}
	for _, f := range v.findings {
		if p == "" || f.Perspective == p {
			out[f.Span.Path]++
		}
	}
	return out
}

// verdictOf is the verdict of the findings of perspective p ("" for
// all) counted in counts, without the advisory model findings of p and
// with its held secrets: one outcome with the gate, which counts the
// same.
func (v *view) verdictOf(p review.Perspective, counts review.Counts) review.Verdict {
	for _, f := range v.findings {
		if v.res.Advisory(f) && (p == "" || f.Perspective == p) {
			counts.Remove(f.Severity)
		}
	}
	for _, s := range v.res.Held() {
		if p == "" || s.Finding.Perspective == p {
			counts.Add(s.Finding.Severity)
		}
	}
	return review.VerdictFor(counts)
}

// heldNote says why the verdict counts more than the accepted findings:
// "" when no secret is held.
func (v *view) heldNote() string {
	n := len(v.res.Held())
	if n == 0 {
		return ""
	}
	what := "1 secret ignored inline is"
	if n > 1 {
		what = fmt.Sprintf("%d secrets ignored inline are", n)
	}
	return " (" + what + " still held by the gate: only allow-secrets lets one through)"
}

// byPerspective returns the accepted findings of p.
func (v *view) byPerspective(p review.Perspective) []*review.Finding {
	var out []*review.Finding
	for _, f := range v.findings {
		if f.Perspective == p {
			out = append(out, f)
		}
	}
	return out
}

// ruleName returns the human name of a rule: its summary when the catalog
// knows it, else its id.
func (v *view) ruleName(id string) string {
	if r, ok := v.rules[id]; ok && r.Summary != "" {
		return r.Summary
	}
	return id
}

// targetDescription describes the review target in words.
func (v *view) targetDescription() string {
	t := v.target
	switch t.Kind {
	case review.BranchDiff:
		return fmt.Sprintf("branch diff from the merge-base with %s to the work tree", v.base())
	case review.PullRequest:
		return "pull request"
	}
	if t.Staged {
		return "staged changes against HEAD"
	}
	if t.Unborn {
		return "local changes on an unborn branch (every file is new)"
	}
	return "local changes (staged, unstaged and untracked) against HEAD"
}

// rawTitle returns the finding title without its perspective tag; tagged
// returns it with the tag, as the merged report shows it.
func rawTitle(f *review.Finding) string {
	t := strings.TrimSpace(strings.TrimPrefix(f.Title, tag(f.Perspective)+" "))
	if t == "" {
		t = f.RuleID
	}
	return t
}

func tagged(f *review.Finding) string { return tag(f.Perspective) + " " + rawTitle(f) }

func tag(p review.Perspective) string { return "[" + p.Title() + "]" }

// findingID returns the finding's fingerprint, computing it the way the
// engine does when a rule left it empty.
func findingID(f *review.Finding) string {
	if f.ID != "" {
		return f.ID
	}
	match := f.Match
	if match == "" {
		match = f.CurrentCode
	}
	return review.Fingerprint(f.RuleID, f.Span.Path, f.Symbol, match)
}

// problem returns the finding's problem statement, never empty.
func problem(f *review.Finding) string {
	if m := strings.TrimSpace(f.Message); m != "" {
		return m
	}
	return rawTitle(f)
}

// category returns the finding's category, the perspective's name when the
// rule gave none.
func category(f *review.Finding) string {
	if f.Category != "" {
		return f.Category
	}
	return f.Perspective.Title()
}

// linesChanged describes a file's change in words for changed_files.
func linesChanged(f *review.File) string {
	s := fmt.Sprintf("+%d -%d", f.Added, f.Deleted)
	switch f.Status {
	case review.StatusModified, "":
		return s
	case review.StatusRenamed:
		return fmt.Sprintf("%s (renamed from %s)", s, f.OldPath)
	}
	return fmt.Sprintf("%s (%s)", s, f.Status)
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// orEmpty returns s, or an empty slice when s is nil, so that JSON gets []
// and never null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// nonEmpty returns the trimmed, non-empty strings of s.
func nonEmpty(s []string) []string {
	out := []string{}
	for _, x := range s {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
