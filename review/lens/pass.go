package lens

import (
	"context"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// Pass is one rule applied to one file.
type Pass struct {
	Ctx       context.Context
	Rule      *Rule
	File      *review.File
	ChangeSet *review.ChangeSet
	Depth     review.Depth
	Config    *review.Config

	// Max is the most findings the pass keeps of each severity (0: no
	// cap); see [review.CheckOptions.MaxPerFile].
	Max int

	findings []*review.Finding
	changed  *changedIndex // the file's changed lines, fetched once per pass
	// kept and cut count, by severity, the findings kept and those the
	// cap left out; last is the index of the last kept one.
	kept, cut, last [review.SeverityCritical + 1]int
}

func (p *Pass) changedIndex() *changedIndex {
	if p.changed == nil {
		p.changed = changedOf(p.File)
	}
	return p.changed
}

// Lines returns the file's lines without terminators (a trailing "\r" of a
// CRLF file is removed). Index i holds line i+1.
func (p *Pass) Lines() []string { return p.File.TextLines() }

// Lines returns the lines of f's content ([review.File.TextLines]).
func Lines(f *review.File) []string { return f.TextLines() }

// SplitLines splits content on "\n" ([review.SplitLines]).
func SplitLines(content []byte) []string { return review.SplitLines(content) }

// Line returns line n (1-based), or "" when out of range.
func (p *Pass) Line(n int) string {
	lines := p.Lines()
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// Changed reports whether line n was added or modified.
func (p *Pass) Changed(n int) bool {
	x := p.changedIndex()
	return n >= 0 && n < len(x.has) && x.has[n]
}

// EachChanged calls fn for each changed line in increasing order.
func (p *Pass) EachChanged(fn func(n int, line string)) {
	lines := p.Lines()
	for _, n := range p.changedIndex().sorted {
		if n >= 1 && n <= len(lines) {
			fn(n, lines[n-1])
		}
	}
}

// Contains reports whether the file content contains s; rules use it as a
// cheap pre-filter.
func (p *Pass) Contains(s string) bool { return Contains(p.File, s) }

// Report describes a finding for [Pass.Report].
type Report struct {
	// Line and EndLine are 1-based; EndLine 0 means Line.
	Line, EndLine int
	// Col and EndCol are 1-based byte columns; Col 0 means the whole
	// lines, which the finding's span then starts at the first non-blank
	// byte of Line.
	Col, EndCol int
	// Title defaults to the rule's summary.
	Title   string
	Message string
	Symbol  string
	// Code is the cited snippet; it defaults to the cited lines.
	Code      string
	Suggested string
	Fix       *review.Fix
	// Severity overrides the rule's default for this finding.
	Severity review.Severity
	// Category overrides the rule's category for this finding.
	Category   string
	Confidence review.Confidence
	// Secrets are raw values to redact from every output.
	Secrets []string
	// Match is the normalised text the fingerprint keys on (see
	// [review.Finding.Match]); it defaults to the first cited line. A rule
	// that measures sets the measured thing's name here and the value in
	// Measure, so a finding keeps its fingerprint while the value moves.
	Match   string
	Measure int
	// Removed is the line before which the change removed the code whose
	// absence the finding reports ([review.Finding.Removed]).
	Removed int
}

// Report records a finding of the pass's rule.
func (p *Pass) Report(r Report) {
	info := p.Rule.RuleInfo
	end := max(r.EndLine, r.Line)
	sev := info.Severity
	if r.Severity.Valid() {
		sev = r.Severity
	}
	if o := p.Config.Rule(info.ID).Severity; o.Valid() {
		sev = o
	}
	if p.Max > 0 && len(r.Secrets) == 0 && sev.Valid() {
		// Past the cap, count the finding without building it: a flood
		// of findings must not cost memory (a secret always counts).
		if p.kept[sev] >= p.Max {
			p.cut[sev]++
			return
		}
		p.kept[sev]++
		p.last[sev] = len(p.findings)
	}
	code := r.Code
	if code == "" {
		var b strings.Builder
		for n := r.Line; n <= end; n++ {
			if n > r.Line {
				b.WriteByte('\n')
			}
			b.WriteString(p.Line(n))
		}
		code = b.String()
	}
	red := review.NewRedactor(r.Secrets)
	title := r.Title
	if title == "" {
		title = info.Summary
	}
	category := info.Category
	if r.Category != "" {
		category = r.Category
	}
	conf := r.Confidence
	if conf == "" {
		conf = review.ConfidenceHigh
	}
	col := r.Col
	if col == 0 {
		// A whole-line finding starts where its code does, not under the
		// indentation: the column the CLI prints, SARIF and the editors show.
		col = review.FirstNonBlank(p.Line(r.Line))
	}
	f := &review.Finding{
		RuleID:       info.ID,
		Perspective:  info.Perspective,
		Category:     category,
		Skill:        info.Skill,
		Severity:     sev,
		Title:        red.String(title),
		Message:      red.String(r.Message),
		Span:         review.Span{Path: p.File.Path, StartLine: r.Line, StartCol: col, EndLine: end, EndCol: r.EndCol},
		Symbol:       r.Symbol,
		CurrentCode:  red.String(code),
		SuggestedFix: red.String(r.Suggested),
		Fix:          r.Fix,
		Confidence:   conf,
		LineState:    p.File.Lines[r.Line],
		Secrets:      r.Secrets,
		Removed:      r.Removed,
		Measure:      r.Measure,
	}
	f.Match = review.MatchText(r.Match)
	if f.Match == "" {
		f.Match = review.MatchText(f.CurrentCode)
	}
	if len(r.Secrets) > 0 && r.Match == "" {
		// A secret's fingerprints stand for where it is, never for its
		// value: its first cited line with the values masked out, ranked
		// among this file's findings of the rule that read the same.
		first, _, _ := strings.Cut(code, "\n")
		anchor := review.SecretAnchor(first, r.Secrets)
		k := 0
		for _, g := range p.findings {
			if i := strings.LastIndexByte(g.Match, '#'); i >= 0 && g.Match[:i] == anchor {
				k++
			}
		}
		f.Match = review.SecretMatch(anchor, k)
	}
	f.ID = review.Fingerprint(info.ID, p.File.Path, r.Symbol, f.Match)
	p.findings = append(p.findings, f)
}

// Findings returns the pass's findings; the last kept one of each
// severity the cap cut carries the count ([review.Finding.Capped]).
func (p *Pass) Findings() []*review.Finding {
	for sev, n := range p.cut {
		if n > 0 {
			p.findings[p.last[sev]].Capped = n
		}
	}
	return p.findings
}
