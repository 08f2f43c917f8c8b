package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
)

// describeTarget says in words what was reviewed.
func describeTarget(t review.Target) string {
	var what string
	switch {
	case t.Kind == review.BranchDiff:
		what = fmt.Sprintf("branch diff from merge-base with %s", artifacts.QuotePath(t.BaseRef))
	case t.Staged:
		what = "staged changes"
	default:
		what = "local changes"
	}
	where := artifacts.QuotePath(t.Branch)
	if t.Detached {
		where = "detached HEAD " + review.ShortSHA(t.HeadSHA)
	}
	if t.Unborn {
		where += " (no commits yet)"
	}
	return what + " on " + where
}

// textReport is the terminal report being written: every write is
// escaped (a file name or a line of code must not drive the terminal),
// and colour, when on, is added around escaped text only.
type textReport struct {
	b     strings.Builder
	color bool
	// where turns a repository path into the path printed: relative to
	// the working directory, so a terminal or an editor can open it.
	where func(string) string
	// hook leaves the advice on held secrets to the blocked hook's
	// message (hookBlocked), which gives it for every blocking secret.
	hook bool
	// again renders the command that repeats the review with more
	// arguments, for the report's hints.
	again func(extra ...string) string
}

func (r *textReport) Write(p []byte) (int, error) {
	r.b.WriteString(artifacts.EscapeControls(string(p)))
	return len(p), nil
}

// ANSI styles of the report.
const (
	styleBold   = "1"
	styleDim    = "2"
	styleRed    = "1;31"
	styleOrange = "31"
	styleYellow = "33"
	styleCyan   = "36"
	styleGreen  = "32"
)

// paint writes s, escaped, in style when colour is on.
func (r *textReport) paint(style, s string) {
	if r.color && style != "" {
		r.b.WriteString("\x1b[" + style + "m")
		r.Write([]byte(s))
		r.b.WriteString("\x1b[0m")
		return
	}
	r.Write([]byte(s))
}

func severityStyle(s review.Severity) string {
	switch s {
	case review.SeverityCritical:
		return styleRed
	case review.SeverityHigh:
		return styleOrange
	case review.SeverityMedium:
		return styleYellow
	}
	return styleCyan
}

func verdictStyle(v review.Verdict) string {
	switch v {
	case review.VerdictRequestChanges:
		return styleRed
	case review.VerdictApprove:
		return styleGreen
	}
	return styleYellow
}

// textSummary is the terminal report: one line per finding in the form
// compilers and linters use, "path:line:col: severity rule: title", so
// terminals and editors jump to it, with the rationale indented below;
// then skipped files, the verdict and where the artifacts are.
func textSummary(res *review.Result, folder string, r *textReport, showPre bool) string {
	cs := res.ChangeSet
	fmt.Fprintf(r, "reviewls: %s — %s changed", describeTarget(cs.Target), plural(len(cs.Files), "file"))
	if n := len(cs.Untracked()); n > 0 {
		fmt.Fprintf(r, ", %d untracked", n)
	}
	if n := len(res.Skipped()); n > 0 {
		fmt.Fprintf(r, ", %d skipped", n)
	}
	fmt.Fprintf(r, "\nperspectives: %s", joinPerspectives(res.Perspectives))
	if len(res.SecretsOnly) > 0 {
		// Every review checks for secrets, whatever the selection.
		fmt.Fprintf(r, " + %s (secrets only)", joinPerspectives(res.SecretsOnly))
	}
	fmt.Fprintf(r, " · depth: %s\n", artifacts.DepthSummary(res.Depth, res.Analysis, r.again))

	findings := slices.Clone(res.Findings)
	sort.SliceStable(findings, func(i, j int) bool {
		a, b := findings[i].Span, findings[j].Span
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.StartLine < b.StartLine
	})
	if len(findings) > 0 {
		r.Write([]byte("\n"))
	}
	for _, f := range findings {
		writeFinding(r, cs, f, "")
	}
	if skipped := res.Skipped(); len(skipped) > 0 {
		fmt.Fprintf(r, "\nskipped:\n")
		for _, f := range skipped {
			fmt.Fprintf(r, "  %s (%s)\n", artifacts.QuotePath(r.where(f.Path)), f.Skip)
		}
	}
	if len(res.Unscanned) > 0 {
		fmt.Fprintf(r, "\nnot scanned for secrets:\n")
		for _, u := range res.Unscanned {
			fmt.Fprintf(r, "  %s (%s)\n", artifacts.QuotePath(r.where(u.Path)), u.Reason)
		}
	}
	if n := len(res.PreExisting); n > 0 && showPre {
		fmt.Fprintf(r, "\n%s:\n", artifacts.PreexistingSummary(n))
		for _, p := range res.PreExisting {
			writeFinding(r, cs, p.Finding, " (in the "+p.Source+")")
		}
	} else if n > 0 {
		fmt.Fprintf(r, "\n%s\n", artifacts.PreexistingHint(n, r.again))
	}
	if s := artifacts.CutSummary(res.Cut); s != "" {
		fmt.Fprintf(r, "\n%s\n", s)
	}
	if n := len(res.Suppressed); n > 0 {
		fmt.Fprintf(r, "\n%d finding(s) suppressed by reviewls:ignore comments or the configuration\n", n)
	}
	r.Write([]byte(heldSummary(res, !r.hook)))
	if len(res.Notes) > 0 {
		r.Write([]byte("\nnotes (review-level, no verdict weight):\n"))
		for _, n := range res.Notes {
			fmt.Fprintf(r, "  %-16s %s\n", n.Kind, n.Text())
		}
	}
	for _, p := range res.Problems {
		fmt.Fprintf(r, "\nwarning: %s\n", p)
	}
	if line := modelLine(res); line != "" {
		fmt.Fprintf(r, "\n%s\n", line)
	}
	writeGates(r, res.ProjectGates)
	c := res.Counts
	r.Write([]byte("\nverdict: "))
	r.paint(verdictStyle(res.Verdict), res.Verdict.Display())
	fmt.Fprintf(r, " — %d critical, %d high, %d medium, %d low", c.Critical, c.High, c.Medium, c.Low)
	if n := len(res.Held()); n > 0 {
		// The verdict counts them, as the gate does.
		fmt.Fprintf(r, ", and %s ignored inline but held", plural(n, "secret"))
	}
	if n := res.AdvisoryCount(); n > 0 {
		// The verdict leaves them out, as the gate does.
		fmt.Fprintf(r, ", of which %s advisory", plural(n, "model finding"))
	}
	r.Write([]byte("\n"))
	if folder != "" {
		fmt.Fprintf(r, "artifacts: %s%c\n", artifacts.QuotePath(r.where(folder)), filepath.Separator)
	}
	if d := res.Decision; d != nil {
		r.Write([]byte("decision: "))
		r.paint(recommendationStyle(d.Recommendation), d.Recommendation.Words())
		fmt.Fprintf(r, " (%s), verification %s, confidence %.2f", d.Recommendation, d.Readiness, d.Confidence())
		if g, ok := d.TopGap(); ok && g.Points > 0 {
			closure := g.Closure
			if g.Rerun != nil {
				// The run's own directory and target, as every hint.
				closure = "run " + r.again(g.Rerun...)
			}
			fmt.Fprintf(r, "; to raise it: %s", closure)
		}
		r.Write([]byte("\n"))
	}
	return r.b.String()
}

func recommendationStyle(rec review.Recommendation) string {
	switch rec {
	case review.RecommendAccept:
		return styleGreen
	case review.RecommendMinor, review.RecommendNull:
		return styleYellow
	}
	return styleRed
}

// gateTailLines is how many lines of a failing gate's output the text
// report shows: its failure and summary; the artifacts keep more.
const gateTailLines = 10

// writeGates writes how the project gates ran, with the end of a failing
// one's output.
func writeGates(r *textReport, g *review.GateRun) {
	if g == nil || len(g.Results) == 0 {
		return
	}
	r.Write([]byte("\ngates:\n"))
	for _, res := range g.Results {
		fmt.Fprintf(r, "  %s\n", res)
		if res.Passed() {
			continue
		}
		lines := strings.Split(strings.TrimRight(res.Tail, "\n"), "\n")
		for _, l := range lines[max(0, len(lines)-gateTailLines):] {
			if l != "" {
				r.paint(styleDim, "    "+l)
				r.Write([]byte("\n"))
			}
		}
	}
}

// writeFinding writes one finding of the text report: its location,
// severity, rule and title on one line, followed by note, then the
// rationale (and a secret's fingerprint) indented.
func writeFinding(r *textReport, cs *review.ChangeSet, f *review.Finding, note string) {
	r.paint(styleBold, fmt.Sprintf("%s:%d:%d:", artifacts.QuotePath(r.where(f.Span.Path)), f.Span.StartLine, artifacts.Column(cs, f)))
	r.Write([]byte(" "))
	r.paint(severityStyle(f.Severity), strings.ToLower(f.Severity.String()))
	if f.Model != "" {
		note = " [" + f.Model + "]" + note
	}
	fmt.Fprintf(r, " %s: %s%s\n", f.RuleID, f.TitleLine(), note)
	r.paint(styleDim, "    "+f.Message)
	r.Write([]byte("\n"))
	if f.IsSecret() {
		fmt.Fprintf(r, "    fingerprint: %s\n", f.SecretFingerprint())
	}
}

// heldSummary lists the secrets that an inline ignore hid but that still
// hold the gate, and with advice the fingerprints that would allow them;
// "" when there are none.
func heldSummary(res *review.Result, advice bool) string {
	held := res.Held()
	if len(held) == 0 {
		return ""
	}
	var b strings.Builder
	verb := "is"
	if len(held) > 1 {
		verb = "are"
	}
	fmt.Fprintf(&b, "\n%s %s ignored inline but still held for --fail-on (an inline reviewls:ignore never lets a secret through):\n", plural(len(held), "secret"), verb)
	for _, s := range held {
		f := s.Finding
		fmt.Fprintf(&b, "  %s:%d: %s %s: %s\n      %s\n", artifacts.QuotePath(f.Span.Path), f.Span.StartLine, strings.ToLower(f.Severity.String()), f.RuleID, f.TitleLine(), f.Message)
	}
	if advice {
		secrets := make([]*review.Finding, len(held))
		for i, s := range held {
			secrets[i] = s.Finding
		}
		b.WriteString(allowAdvice(secrets))
	}
	return b.String()
}

// allowAdvice says how to let exactly the secrets of findings through:
// the allow-secrets entries to add to .reviewls.yaml, each once.
func allowAdvice(findings []*review.Finding) string {
	var b strings.Builder
	b.WriteString("To allow the secrets in these places (after checking they are no live credential; a fingerprint names a place, so a new value written there passes too), add to .reviewls.yaml:\n  allow-secrets:\n")
	seen := map[string]bool{}
	for _, f := range findings {
		if fp := f.SecretFingerprint(); !seen[fp] {
			seen[fp] = true
			fmt.Fprintf(&b, "    - %s\n", fp)
		}
	}
	return b.String()
}

func joinPerspectives(ps []review.Perspective) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = string(p)
	}
	return strings.Join(s, ", ")
}

// plural formats a count with its noun: "1 file", "3 files".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
