package artifacts

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// ReviewMarkdown renders review.md: the header, seed 003's Decision
// Summary, the sections of hve-spec 8.4 that apply to a local review, in
// that order, seed 003's No-Finding Residual Risks, Confidence Gaps and
// Confidence Calibration, then the execution limitations (a
// local extension, hve-spec C12), the orientation artifacts of an
// interactive run, and always last the disclaimer section with its
// unchecked human-review box. The PR Comment Draft never appears: local
// targets have no pull request.
func ReviewMarkdown(res *review.Result, d Disclaimer) []byte {
	return newView(res, Options{}).reviewMarkdown(d, nil)
}

// ReviewMarkdownFrom is ReviewMarkdown to be read elsewhere than in the
// artifact folder (printed on a terminal): its links to files start from
// linkRoot, the path to the repository's root ("" from the root, "../"
// from a folder in it), and again renders the commands it suggests, which
// repeat the review with more arguments.
func ReviewMarkdownFrom(res *review.Result, d Disclaimer, linkRoot string, again func(extra ...string) string) []byte {
	v := newView(res, Options{})
	v.linkRoot, v.again = linkRoot, again
	return v.reviewMarkdown(d, nil)
}

// reviewMarkdown renders review.md; extras are the folder-relative
// explanation and walkback files to link (interactive runs).
func (v *view) reviewMarkdown(d Disclaimer, extras []string) []byte {
	m := v.md()
	v.mdHeader(m)
	v.mdDecision(m)
	v.mdChangedFiles(m)
	v.mdFindings(m)
	v.mdPositiveAndTesting(m)
	v.mdActionsAndOutOfScope(m)
	v.mdSpecialists(m)
	v.mdRisk(m)
	v.mdModel(m)
	v.mdCalibration(m)
	v.mdLimitations(m)
	v.mdOrientation(m, extras)
	mdDisclaimer(m, d)
	return m.bytes()
}

func (v *view) mdHeader(m *md) {
	m.heading(1, "Code Review: "+v.branch())
	reviewer := Reviewer + " (" + v.opts.tool()
	if v.opts.Version != "" {
		reviewer += " " + v.opts.Version
	}
	reviewer += ")"
	head := "none (unborn HEAD)"
	if v.target.HeadSHA != "" {
		head = m.code(review.ShortSHA(v.target.HeadSHA))
	}
	base := m.code(v.base())
	if v.target.BaseSHA != "" && v.target.BaseSHA != v.target.HeadSHA {
		base += " at " + m.code(review.ShortSHA(v.target.BaseSHA))
	}
	perspectives := make([]string, len(v.selected))
	for i, p := range v.selected {
		perspectives[i] = string(p)
	}
	c := v.counts
	m.table([]string{"Field", "Value"}, [][]string{
		{"Reviewer", m.prose(reviewer)},
		{"Branch", m.code(v.branch())},
		{"Target", m.prose(v.targetDescription())},
		{"Base", base},
		{"Head commit", head},
		{"Date", v.now.Format(reviewedAtLayout)},
		{"Findings", fmt.Sprintf("%d critical, %d high, %d medium, %d low (%d total)", c.Critical, c.High, c.Medium, c.Low, c.Total())},
		{"Perspectives", orText(strings.Join(perspectives, ", "), "none")},
		{"Depth", m.prose(DepthSummary(v.depth, v.res.Analysis, v.again))},
		{"Verdict", v.verdict.Display() + v.heldNote() + v.advisoryNote()},
	})
	desc := strings.TrimSpace(v.risk.Brief.Intent)
	if desc == "" {
		desc = fmt.Sprintf("Review of %s (%s).", fileCount(len(v.cs.Files)), v.targetDescription())
	}
	m.para(desc)
}

func (v *view) mdChangedFiles(m *md) {
	m.heading(2, "Changed Files Overview")
	issues := v.issues("")
	var rows [][]string
	for _, f := range v.sourceFiles() {
		rows = append(rows, []string{
			m.fileLink(f.Path, 0, 0),
			string(f.Status),
			fmt.Sprintf("+%d -%d", f.Added, f.Deleted),
			v.fileRisk(f.Path),
			strconv.Itoa(issues[f.Path]),
		})
	}
	if len(rows) == 0 {
		m.para("No source file was reviewed.")
	} else {
		m.table([]string{"File", "Status", "Lines changed", "Risk", "Issues"}, rows)
	}
	if skipped := v.skipped(); len(skipped) > 0 {
		m.para("Listed but not reviewed:")
		rows = rows[:0]
		for _, f := range skipped {
			rows = append(rows, []string{m.path(f.Path), string(f.Status), m.prose(f.Skip.String())})
		}
		m.table([]string{"File", "Status", "Reason skipped"}, rows)
	}
	if len(v.res.Unscanned) > 0 {
		m.para("Not scanned for secrets (every other changed file was, whether reviewed or not):")
		rows = rows[:0]
		for _, u := range v.res.Unscanned {
			rows = append(rows, []string{m.path(u.Path), m.prose(u.Reason)})
		}
		m.table([]string{"File", "Why"}, rows)
	}
}

func (v *view) mdFindings(m *md) {
	m.heading(2, "Merged Findings")
	defer v.mdPreexisting(m)
	if s := CutSummary(v.res.Cut); s != "" {
		// First: the reader must know the list is not all there is.
		m.para(s + ".")
	}
	if len(v.findings) == 0 {
		m.para("No accepted findings.")
		return
	}
	for i, f := range v.findings {
		m.heading(3, fmt.Sprintf("%d. %s", i+1, tagged(f)))
		loc := m.path(f.Span.Path)
		if f.Span.StartLine > 0 {
			loc = m.fileLink(f.Span.Path, f.Span.StartLine, f.Span.Last())
		}
		m.bullet("**Severity:** " + f.Severity.String())
		m.line("- **Category:** %s", m.prose(category(f)))
		m.line("- **Location:** %s", loc)
		m.line("- **Rule:** %s", m.code(f.RuleID))
		if f.Model != "" {
			how := "confirmed against the diff"
			if v.res.Advisory(f) {
				how += " (advisory)"
			}
			m.line("- **Model:** %s, %s", m.code(f.Model), how)
		}
		if f.Skill != "" {
			m.line("- **Skill:** %s", m.prose(f.Skill))
		}
		if f.Symbol != "" {
			m.line("- **Symbol:** %s", m.code(f.Symbol))
		}
		if f.LineState != "" {
			m.line("- **Change state:** %s", f.LineState)
		}
		m.line("- **Id:** %s", m.code(findingID(f)))
		m.para("**Problem:** " + problem(f))
		if strings.TrimSpace(f.CurrentCode) != "" {
			m.para("**Current code:**")
			m.fence(v.language(f.Span.Path).Info().Fence, f.CurrentCode)
		}
		fix := strings.TrimSpace(f.SuggestedFix)
		switch {
		case strings.Contains(fix, "\n"):
			m.para("**Suggested fix:**")
			m.fence(v.language(f.Span.Path).Info().Fence, fix)
		case fix != "":
			m.para("**Suggested fix:** " + fix)
		}
		if f.Fix != nil && len(f.Fix.Edits) > 0 {
			m.para("A machine-applicable fix is available in the editor: " + orText(f.Fix.Title, "apply the suggested fix") + ".")
		}
	}
}

// mdPreexisting counts the pre-existing findings in touched code (they are
// no findings of the review) and says how to list them.
func (v *view) mdPreexisting(m *md) {
	if n := len(v.res.PreExisting); n > 0 {
		m.para(PreexistingHint(n, v.again) + ".")
	}
}

// language returns the language id of a changed path.
func (v *view) language(p string) review.Language {
	if f := v.cs.File(p); f != nil {
		if f.Language != review.LangUnknown {
			return f.Language
		}
		return review.DetectLanguage(p, nil)
	}
	return review.LangUnknown
}

func (v *view) mdPositiveAndTesting(m *md) {
	pos, test := nonEmpty(v.res.Positive), nonEmpty(v.res.Testing)
	if len(pos) == 0 && len(test) == 0 {
		return
	}
	m.heading(2, "Positive Changes and Testing Recommendations")
	if len(pos) > 0 {
		m.heading(3, "Positive changes")
		for _, s := range pos {
			m.bullet(s)
		}
	}
	if len(test) > 0 {
		m.heading(3, "Testing recommendations")
		for _, s := range test {
			m.bullet(s)
		}
	}
}

func (v *view) mdActionsAndOutOfScope(m *md) {
	actions := nonEmpty(v.res.Actions)
	var obs []review.Observation
	for _, o := range v.res.OutOfScope {
		if strings.TrimSpace(o.Observation) != "" {
			obs = append(obs, o)
		}
	}
	if len(actions) == 0 && len(obs) == 0 {
		return
	}
	m.heading(2, "Recommended Actions and Out-of-scope Observations")
	if len(actions) > 0 {
		m.heading(3, "Recommended actions")
		for i, s := range actions {
			m.line("%d. %s", i+1, strings.ReplaceAll(strings.TrimSpace(m.prose(s)), "\n", "\n   "))
		}
	}
	if len(obs) > 0 {
		m.heading(3, "Out-of-scope observations")
		m.para("Pre-existing issues outside the diff; they do not affect the verdict.")
		for _, o := range obs {
			where := "repository"
			if o.File != "" {
				where = m.code(o.File)
			}
			m.line("- %s: %s", where, strings.TrimSpace(m.prose(o.Observation)))
		}
	}
}

func (v *view) mdSpecialists(m *md) {
	reviews := v.specialistReviews()
	if len(reviews) == 0 {
		return
	}
	m.heading(2, "Recommended specialist follow-up reviews")
	// The page says what to do in plain words; which reviewer backs a
	// concern and whether it is installed (the protocol's backing and
	// availability) are in the JSON report.
	var rows [][]string
	for _, r := range reviews {
		action := m.prose(r.Action)
		if strings.HasPrefix(r.Backing, "https://") {
			action += " ([" + r.Concern + " guidance](" + r.Backing + "))"
		}
		rows = append(rows, []string{m.prose(r.Concern), m.prose(strings.Join(r.SignalsMatched, ", ")), action})
	}
	m.table([]string{"Concern", "Why", "What to do"}, rows)
	for _, s := range v.risk.Specialist {
		if s.Concern == "efficiency" {
			m.para("Sustainability: see the [Microsoft Well-Architected Framework sustainability guidance](" + SustainabilityURL + "). " + sustainabilityCaveat)
			break
		}
	}
}

func (v *view) mdRisk(m *md) {
	m.heading(2, "Risk Assessment")
	tier := string(v.risk.Tier)
	if tier == "" {
		tier = "not assessed"
	}
	m.line("- **Scope tier:** %s", tier)
	rec := "**Recommended depth:** " + v.recDepth.String()
	if r := depthReason(v.recDepth, v.risk.DepthReason); r != "" {
		rec += " — " + r
	}
	m.bullet(rec)
	m.bullet("**Depth used:** " + v.depth.String() + " — " + v.rationale)
	if w := v.res.Withheld; w != "" {
		m.bullet("**Not done:** " + w)
	}
	if hs := v.risk.Hotspots; len(hs) > 0 {
		var parts []string
		for _, h := range hs {
			s := m.path(h.Path)
			if len(h.Classes) > 0 {
				s += " (" + m.prose(strings.Join(h.Classes, ", ")) + ")"
			}
			parts = append(parts, s)
		}
		m.line("- **Hotspots:** %s", strings.Join(parts, ", "))
	}
	m.para("Change-risk evidence (advisory input to the depth choice, not a score):")
	var rows [][]string
	for _, e := range v.evidence {
		rows = append(rows, []string{m.code(string(e.Signal)), string(e.Availability), m.prose(plainEvidence(e.Evidence))})
	}
	m.table([]string{"Signal", "Availability", "Evidence"}, rows)
	m.para("**Verdict:** " + v.verdict.Display() + v.heldNote() + v.advisoryNote())
}

func (v *view) mdLimitations(m *md) {
	rejected, suppressed := v.res.Rejected, v.res.Suppressed
	if len(rejected) == 0 && len(suppressed) == 0 {
		return
	}
	m.heading(2, "Execution limitations")
	count := "Findings listed here never count toward the severity counts or the verdict."
	if len(v.res.Held()) > 0 {
		count = "Findings listed here never count toward the severity counts or the verdict, except a secret silenced by an inline ignore alone: the gate still holds it, and so does the verdict."
	}
	m.para("A reviewls extension of the report skeleton (hve-spec C12). " + count)
	if len(rejected) > 0 {
		m.heading(3, "Rejected findings")
		m.para("Raw findings that did not resolve to the diff:")
		var rows [][]string
		for _, r := range rejected {
			if r.Finding == nil {
				continue
			}
			f := r.Finding
			rows = append(rows, []string{f.Perspective.Title(), m.prose(rawTitle(f)), m.code(locationText(f.Span)), m.prose(orText(r.Reason, "rejected"))})
		}
		m.table([]string{"Perspective", "Title", "Location", "Reason"}, rows)
	}
	if len(suppressed) > 0 {
		m.heading(3, "Suppressed findings")
		var rows [][]string
		for _, s := range suppressed {
			if s.Finding == nil {
				continue
			}
			f := s.Finding
			rows = append(rows, []string{m.code(f.RuleID), m.prose(rawTitle(f)), m.code(locationText(f.Span)), m.prose(s.Reason), m.prose(s.By)})
		}
		m.table([]string{"Rule", "Title", "Location", "Reason", "Suppressed by"}, rows)
	}
}

// locationText renders path:lines.
func locationText(s review.Span) string {
	if l := spanLines(s); l != "" {
		return s.Path + ":" + l
	}
	return s.Path
}

func (v *view) mdOrientation(m *md, extras []string) {
	if !v.interactive() {
		return
	}
	m.heading(2, "Orientation artifacts")
	m.para("The orientation-first artifacts this review relied on:")
	m.line("- [Dispatch board](%s): review areas and the confirmation surface", FileBoard)
	m.line("- [Walkthrough](%s): the factual narrative of the change", FileWalkthrough)
	m.line("- [Dispatch manifest](%s): phase gates, next actions and board items", FileManifest)
	m.line("- [Emission record](%s): the emission decision", FileEmissionRecord)
	idx := v.metadata(extras).Artifacts
	for _, e := range idx.Explanations {
		m.line("- [Explanation %s](%s)", m.code(strings.TrimSuffix(strings.TrimPrefix(e, DirExplanations+"/"), ".md")), e)
	}
	for _, w := range idx.Walkbacks {
		m.line("- [Investigation %s](%s)", m.code(strings.TrimSuffix(strings.TrimPrefix(w, DirWalkback+"/"), "-register-2.md")), w)
	}
}

// mdDisclaimer writes the final section: the caution block verbatim, then
// the unchecked human-review box.
func mdDisclaimer(m *md, d Disclaimer) {
	if strings.TrimSpace(d.Block) == "" {
		d = DefaultDisclaimer
	}
	m.heading(2, "Disclaimer and Human Review")
	m.line("%s", strings.TrimRight(d.Block, "\n"))
	m.blank()
	m.line("%s", HumanReviewCheckbox)
}
