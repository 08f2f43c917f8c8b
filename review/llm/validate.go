package llm

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// Disposition is the outcome of checking one candidate (seed 003's
// candidate validation).
type Disposition string

// The dispositions. Only a confirmed candidate becomes a finding.
const (
	// Confirmed: the file is in the change, the cited line changed (or
	// sits next to a deletion), the quote matches it, and it repeats no
	// rule finding or other candidate.
	Confirmed Disposition = "confirmed"
	// Refuted: affirmative counter-evidence, with its [Reason].
	Refuted Disposition = "refuted"
	// Unverified: no usable answer came for a request, with its [Reason].
	Unverified Disposition = "unverified"
)

// Reason is why a candidate was refuted or a request's candidates are
// unverified.
type Reason string

// Reasons of a refuted candidate.
const (
	// ReasonUnknownFile: the file is not part of the change.
	ReasonUnknownFile Reason = "unknown-file"
	// ReasonOutOfScope: the file is in the change but was not sent in
	// the request, the perspective is not one the model reviewer reports,
	// or the candidate is past the change's max findings.
	ReasonOutOfScope Reason = "out-of-scope"
	// ReasonUnchangedLine: the cited line did not change and holds no
	// deletion next to it.
	ReasonUnchangedLine Reason = "unchanged-line"
	// ReasonQuoteNotFound: the quote is not the cited line, nor another
	// changed line of its hunk.
	ReasonQuoteNotFound Reason = "quote-not-found"
	// ReasonDuplicate: a rule finding or an earlier candidate reports the
	// same lines from the same perspective.
	ReasonDuplicate Reason = "duplicate"
	// ReasonInvalid: the candidate breaks the answer schema (a missing
	// property, a severity that is not one).
	ReasonInvalid Reason = "invalid"
)

// Reasons of an unverified request: no usable answer came.
const (
	ReasonTimeout Reason = "timeout"
	// ReasonUnavailable: the endpoint could not be reached or failed
	// (connection refused, a 5xx status).
	ReasonUnavailable Reason = "unavailable"
	// ReasonRefused: the endpoint or the model declined the request (a
	// 4xx status, rate limiting past the retries, a refusal).
	ReasonRefused Reason = "refused"
	// ReasonUnparseable: the answer is not an answer (invalid or
	// truncated JSON, no findings array).
	ReasonUnparseable Reason = "unparseable"
	// ReasonOverBudget: the request did not fit the model's context (the
	// builder refused it or the server said so).
	ReasonOverBudget Reason = "over-budget"
	// ReasonNotRecorded: replay mode, and the transcript holds no answer.
	ReasonNotRecorded Reason = "not-recorded"
	// ReasonCancelled: the review was cancelled first.
	ReasonCancelled Reason = "cancelled"
	// ReasonNotAsked: a review from the cache only ([Reviewer.ReviewCached])
	// had no answer for the request, and asked nothing.
	ReasonNotAsked Reason = review.ModelNotAsked
)

// Relocation records a candidate confirmed on another changed line of the
// hunk than the one it cited, where its quote is.
type Relocation struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// Entry is one line of the ledger: a candidate and its disposition, or a
// request whose candidates are unverified.
type Entry struct {
	// ID is "c<n>" for a candidate, "u<n>" for an unverified request.
	ID string `json:"id"`
	// Request is the key of the request that proposed the candidate or
	// got no usable answer ("" for a part of the change no request
	// carried).
	Request string `json:"request,omitempty"`
	// Files are the paths of an unverified request.
	Files       []string    `json:"files,omitempty"`
	Candidate   *Candidate  `json:"candidate,omitempty"`
	Disposition Disposition `json:"disposition"`
	Reason      Reason      `json:"reason,omitempty"`
	// Evidence is what the check saw, redacted.
	Evidence  string      `json:"evidence"`
	Relocated *Relocation `json:"relocated,omitempty"`
	// FindingID is the confirmed candidate's finding ([review.Finding.ID]).
	FindingID string `json:"finding_id,omitempty"`
	// Finding is the confirmed candidate as a finding.
	Finding *review.Finding `json:"-"`

	span review.Span // the confirmed lines
}

// Proposed is a candidate and the request that proposed it.
type Proposed struct {
	Request string
	// Files are the paths the request sent.
	Files     []string
	Candidate Candidate
}

// ValidateOptions configure [Validate].
type ValidateOptions struct {
	// Model is recorded in every finding.
	Model string
	// MaxFindings is the most candidates of the change confirmed; the
	// rest are refuted as out of scope, the most severe and confident
	// kept.
	MaxFindings int
	// Redactor and Secrets are the build's: quotes are matched against
	// the lines as the request showed them, and findings quote them so.
	Redactor *review.Redactor
	Secrets  func(path, text string) []string
}

// minQuote is the shortest quote, in bytes after white space is
// collapsed, that may match part of a line; a shorter one must be the
// whole line, so "x" or "err" confirms nothing.
const minQuote = 12

// maxSpan is the most lines a candidate may cite.
const maxSpan = 60

// Category is the category of every model finding; the model's name is in
// [review.Finding.Model].
const Category = "Model review"

// Validate checks each proposed candidate against the change and gives it
// exactly one disposition with its evidence: confirmed (possibly
// relocated within its hunk) or refuted with a typed reason. It is pure.
// Entries have IDs c1, c2, ... in the order of props; a confirmed entry
// carries its finding: rule <perspective>/model, the model's name in its
// Model, the span on the new side, the quote as the request showed it.
func Validate(ch Change, props []Proposed, o ValidateOptions) []Entry {
	v := &validator{ch: ch, o: o, reds: map[string]*review.Redactor{}, shown: map[string][]string{}}
	out := make([]Entry, len(props))
	for i, p := range props {
		out[i] = v.check(p)
		out[i].ID = fmt.Sprintf("c%d", i+1)
	}
	v.dedupe(out)
	v.cap(out)
	for i := range out {
		if out[i].Disposition == Confirmed {
			out[i].Finding = v.finding(props[i].Candidate, out[i])
			out[i].FindingID = out[i].Finding.ID
		}
	}
	return out
}

// validator holds the state of one [Validate].
type validator struct {
	ch   Change
	o    ValidateOptions
	reds map[string]*review.Redactor
	// shown are the files' lines as the request showed them, by path.
	shown map[string][]string
}

// lineMarker is the number and marker a model may copy into a quote.
var lineMarker = regexp.MustCompile(`^\s*\d+ ?[+ -]? `)

// check gives one candidate its disposition, before duplicates and the
// cap are considered.
func (v *validator) check(p Proposed) Entry {
	c := p.Candidate
	e := Entry{Request: p.Request, Candidate: &p.Candidate, Disposition: Refuted}
	path := v.path(c.File)
	f := v.ch.file(path)
	switch {
	case f == nil:
		e.Reason, e.Evidence = ReasonUnknownFile, fmt.Sprintf("%q is not a file of the change", v.red(nil, c.File))
		return e
	case !slices.Contains(p.Files, path):
		e.Reason, e.Evidence = ReasonOutOfScope, fmt.Sprintf("%s is in the change but was not sent in this request", path)
		return e
	case strings.Contains(c.Problem, "/perspective:"):
		e.Reason, e.Evidence = ReasonOutOfScope, fmt.Sprintf("perspective %q is out of scope: the model reviewer reports functional, security, accessibility and readiness defects", c.Perspective)
		return e
	case c.Problem != "":
		e.Reason, e.Evidence = ReasonInvalid, c.Problem
		return e
	case c.Line < 1:
		e.Reason, e.Evidence = ReasonInvalid, fmt.Sprintf("line %d is not a line", c.Line)
		return e
	case strings.TrimSpace(c.Quote) == "":
		e.Reason, e.Evidence = ReasonInvalid, "the quote is empty"
		return e
	}
	from, to := c.Line, max(c.EndLine, c.Line)
	if to-from >= maxSpan {
		e.Reason, e.Evidence = ReasonInvalid, fmt.Sprintf("lines %d-%d span more than %d lines", from, to, maxSpan)
		return e
	}
	lines := v.lines(f)
	if to > len(lines) {
		e.Reason, e.Evidence = ReasonUnchangedLine, fmt.Sprintf("line %d is past the end of %s (%d lines)", to, path, len(lines))
		return e
	}
	quote := quoteForms(c.Quote)
	if changedAround(f, from, to) && v.quoteAt(f, quote, from, to) {
		e.Disposition = Confirmed
		e.Evidence = fmt.Sprintf("%s of %s changed and read the quote", lineWords(from, to), path)
		e.span = review.Span{Path: path, StartLine: from, EndLine: to}
		return e
	}
	if m, ok := v.relocate(f, quote, from, to); ok {
		e.Disposition = Confirmed
		e.Relocated = &Relocation{From: from, To: m}
		e.Evidence = fmt.Sprintf("the quote is on changed line %d of %s, not on line %d: relocated within the hunk", m, path, from)
		e.span = review.Span{Path: path, StartLine: m, EndLine: m + to - from}
		return e
	}
	if changedAround(f, from, to) {
		e.Reason = ReasonQuoteNotFound
		e.Evidence = fmt.Sprintf("%s of %s reads %q; the quote is neither there nor on another changed line of the hunk", lineWords(from, to), path, clip(lines[from-1], maxQuoted))
		return e
	}
	if at := v.findQuote(f, quote); at > 0 {
		e.Reason = ReasonUnchangedLine
		e.Evidence = fmt.Sprintf("%s of %s did not change; the quote is on unchanged line %d", lineWords(from, to), path, at)
		return e
	}
	e.Reason = ReasonQuoteNotFound
	e.Evidence = fmt.Sprintf("%s of %s did not change, and the quote is nowhere in the file", lineWords(from, to), path)
	return e
}

// path maps a path as a model wrote it to the change's spelling: "./a.go",
// "b/a.go" (a diff prefix) and back slashes are tolerated.
func (v *validator) path(p string) string {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	p = strings.TrimPrefix(p, "./")
	if v.ch.file(p) != nil {
		return p
	}
	for _, prefix := range []string{"b/", "a/", "/"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok && v.ch.file(rest) != nil {
			return rest
		}
	}
	return p
}

// redactor returns the redactor of f's texts, as the builder made it.
func (v *validator) redactor(f *review.File) *review.Redactor {
	r, ok := v.reds[f.Path]
	if !ok {
		r = fileRedactor(v.o.Redactor, v.o.Secrets, f, v.ch.Context[f.Path])
		v.reds[f.Path] = r
	}
	return r
}

func (v *validator) red(f *review.File, s string) string {
	if f == nil {
		return v.o.Redactor.String(s)
	}
	return v.redactor(f).String(s)
}

// lines returns f's lines as the request showed them: redacted.
func (v *validator) lines(f *review.File) []string {
	if out, ok := v.shown[f.Path]; ok {
		return out
	}
	raw := f.TextLines()
	out := make([]string, len(raw))
	r := v.redactor(f)
	for i, l := range raw {
		out[i] = r.String(l)
	}
	v.shown[f.Path] = out
	return out
}

// changedAround reports whether lines from-to hold a changed line or sit
// next to a deletion.
func changedAround(f *review.File, from, to int) bool {
	return changedIn(f, from, to) || removedNear(f, from, to) > 0
}

// removedNear returns the new line before which the change only removed
// lines (no added line on either side: a deletion, not a replacement),
// inside or right around from-to, or 0.
func removedNear(f *review.File, from, to int) int {
	for n := from; n <= to+1; n++ {
		if f.RemovedBefore(n) && !f.Changed(n) && !f.Changed(n-1) {
			return n
		}
	}
	return 0
}

// quoteAt reports whether quote matches lines from-to of f, or a line the
// change removed next to them.
func (v *validator) quoteAt(f *review.File, quote []string, from, to int) bool {
	lines := v.lines(f)
	if matches(quote, lines[from-1:to]) {
		return true
	}
	if removedNear(f, from, to) == 0 {
		return false
	}
	var removed []string
	r := v.redactor(f)
	f.EachRemoved(func(before int, text string) {
		if before >= from && before <= to+1 {
			removed = append(removed, r.String(text))
		}
	})
	return matches(quote, removed)
}

// relocate looks for the quote on the other changed lines of the hunk
// that holds line from (added lines, and those next to a deletion),
// nearest first; it returns the line it starts on.
func (v *validator) relocate(f *review.File, quote []string, from, to int) (int, bool) {
	h, ok := hunkAt(f, from)
	if !ok {
		return 0, false
	}
	last := h.NewStart + max(h.NewLines, 1) - 1
	var cands []int
	for n := h.NewStart; n <= last; n++ {
		if n != from && changedAround(f, n, n) {
			cands = append(cands, n)
		}
	}
	slices.SortStableFunc(cands, func(a, b int) int { return cmp.Compare(abs(a-from), abs(b-from)) })
	lines := v.lines(f)
	for _, m := range cands {
		end := m + to - from
		if end <= len(lines) && matches(quote, lines[m-1:end]) {
			return m, true
		}
	}
	return 0, false
}

// hunkAt returns the hunk whose new-side lines hold line n.
func hunkAt(f *review.File, n int) (review.Hunk, bool) {
	for _, h := range hunksOf(f) {
		if n >= h.NewStart && n < h.NewStart+max(h.NewLines, 1) {
			return h, true
		}
	}
	return review.Hunk{}, false
}

// findQuote returns the first line of f where quote matches, or 0.
func (v *validator) findQuote(f *review.File, quote []string) int {
	lines := v.lines(f)
	for i := range lines {
		if matches(quote, lines[i:i+1]) {
			return i + 1
		}
	}
	return 0
}

// quoteForms returns the forms a quote may match in: its text with white
// space collapsed, line by line, and surrounding backticks dropped; and,
// when the model copied them, without the line numbers and markers of the
// request's diff.
func quoteForms(quote string) []string {
	var plain, unmarked []string
	for _, l := range strings.Split(quote, "\n") {
		if p := oneLine(strings.Trim(strings.TrimSpace(l), "`")); p != "" {
			plain = append(plain, p)
		}
		l = lineMarker.ReplaceAllString(l, "")
		if u := oneLine(strings.Trim(strings.TrimSpace(l), "`")); u != "" {
			unmarked = append(unmarked, u)
		}
	}
	forms := []string{strings.Join(plain, " ")}
	if u := strings.Join(unmarked, " "); u != forms[0] && u != "" {
		forms = append(forms, u)
	}
	return forms
}

// matches reports whether one of the quote's forms is the text of lines,
// one of them whole, or a part of them at least minQuote long.
func matches(quote []string, lines []string) bool {
	if len(lines) == 0 {
		return false
	}
	norm := make([]string, 0, len(lines))
	for _, l := range lines {
		if n := oneLine(l); n != "" {
			norm = append(norm, n)
		}
	}
	all := strings.Join(norm, " ")
	for _, q := range quote {
		if q == "" {
			continue
		}
		if all == q || slices.Contains(norm, q) || len(q) >= minQuote && strings.Contains(all, q) {
			return true
		}
	}
	return false
}

// dedupe refutes confirmed candidates that repeat a rule finding or an
// earlier confirmed candidate: the same file, overlapping lines, the same
// perspective.
func (v *validator) dedupe(es []Entry) {
	for i := range es {
		e := &es[i]
		if e.Disposition != Confirmed {
			continue
		}
		s := e.span
		persp := review.Perspective(e.Candidate.Perspective)
		for _, rf := range v.ch.Findings {
			if rf.Perspective == persp && rf.Span.Path == s.Path && overlap(rf.Span, s) {
				e.Disposition, e.Reason = Refuted, ReasonDuplicate
				e.Evidence = fmt.Sprintf("rule finding %s already reports %s:%s", rf.RuleID, rf.Span.Path, rf.Span.Lines())
				break
			}
		}
		if e.Disposition != Confirmed {
			continue
		}
		for j := range es[:i] {
			o := &es[j]
			if o.Disposition == Confirmed && o.Candidate.Perspective == e.Candidate.Perspective &&
				o.span.Path == s.Path && overlap(o.span, s) {
				e.Disposition, e.Reason = Refuted, ReasonDuplicate
				e.Evidence = fmt.Sprintf("candidate %s already reports %s:%s", o.ID, s.Path, o.span.Lines())
				break
			}
		}
	}
}

// cap refutes the confirmed candidates past MaxFindings: the most severe,
// then the most confident, then the first are kept.
func (v *validator) cap(es []Entry) {
	var idx []int
	for i := range es {
		if es[i].Disposition == Confirmed {
			idx = append(idx, i)
		}
	}
	if v.o.MaxFindings <= 0 || len(idx) <= v.o.MaxFindings {
		return
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ca, cb := es[a].Candidate, es[b].Candidate
		return cmp.Or(cmp.Compare(severityOf(cb.Severity), severityOf(ca.Severity)),
			cmp.Compare(confidenceRank(cb.Confidence), confidenceRank(ca.Confidence)))
	})
	for _, i := range idx[v.o.MaxFindings:] {
		e := &es[i]
		e.Disposition, e.Reason, e.Relocated = Refuted, ReasonOutOfScope, nil
		e.Evidence = fmt.Sprintf("past max-findings %d: the change already has %d more severe or more confident candidates", v.o.MaxFindings, v.o.MaxFindings)
	}
}

// finding makes a confirmed candidate's finding.
func (v *validator) finding(c Candidate, e Entry) *review.Finding {
	s := e.span
	f := v.ch.file(s.Path)
	lines := v.lines(f)
	persp := review.Perspective(c.Perspective)
	sev := review.Severity(severityOf(c.Severity))
	conf := review.Confidence(c.Confidence)
	r := v.redactor(f)
	out := &review.Finding{
		RuleID:       string(persp) + review.ModelRuleSuffix,
		Perspective:  persp,
		Category:     Category,
		Model:        v.o.Model,
		Severity:     sev,
		Title:        r.String(oneLine(c.Title)),
		Message:      r.String(strings.TrimSpace(c.Rationale)),
		Span:         s,
		Symbol:       v.symbol(s),
		CurrentCode:  strings.Join(lines[s.StartLine-1:s.EndLine], "\n"),
		SuggestedFix: r.String(strings.TrimSpace(c.SuggestedFix)),
		Confidence:   conf,
		LineState:    firstState(f, s),
	}
	if out.Title == "" {
		out.Title = "Defect found by the model reviewer"
	}
	if out.Message == "" {
		out.Message = out.Title
	}
	if s.StartLine == s.EndLine {
		out.Span.EndLine = 0
	}
	if out.Span.StartCol == 0 {
		// Where the line's code starts, as every rule finding does
		// (lens.Pass.Report): the CLI, SARIF and the editors agree.
		out.Span.StartCol = review.FirstNonBlank(lines[s.StartLine-1])
	}
	if !changedIn(f, s.StartLine, s.Last()) {
		out.Removed = removedNear(f, s.StartLine, s.Last())
	}
	out.Match = review.MatchText(out.CurrentCode)
	out.ID = review.Fingerprint(out.RuleID, s.Path, out.Symbol, out.Match)
	return out
}

// symbol returns the name of the enclosing symbol of s, or "".
func (v *validator) symbol(s review.Span) string {
	if ctx := v.ch.Context[s.Path]; ctx != nil {
		if sym := innermost(ctx.Enclosing, s.StartLine, s.StartLine); sym != nil {
			return sym.Name
		}
	}
	return ""
}

// changedIn reports whether one of lines from-to changed.
func changedIn(f *review.File, from, to int) bool {
	for n := from; n <= to; n++ {
		if f.Changed(n) {
			return true
		}
	}
	return false
}

// firstState returns the state of the first changed line of s.
func firstState(f *review.File, s review.Span) review.LineState {
	for n := s.StartLine; n <= s.Last(); n++ {
		if st, ok := f.Lines[n]; ok {
			return st
		}
	}
	return ""
}

func overlap(a, b review.Span) bool {
	return a.StartLine <= b.Last() && b.StartLine <= a.Last()
}

func severityOf(s string) int {
	sev, err := review.ParseSeverity(s)
	if err != nil {
		return 0
	}
	return int(sev)
}

func confidenceRank(c string) int {
	switch review.Confidence(c) {
	case review.ConfidenceHigh:
		return 3
	case review.ConfidenceMedium:
		return 2
	case review.ConfidenceLow:
		return 1
	}
	return 0
}

func lineWords(from, to int) string {
	if from == to {
		return fmt.Sprintf("line %d", from)
	}
	return fmt.Sprintf("lines %d-%d", from, to)
}

// maxQuoted is the longest line quoted as evidence, in runes.
const maxQuoted = 100

// clip puts s on one line and shortens it to n runes, an ellipsis last.
func clip(s string, n int) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
