package orient

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
)

// Investigation is a Register 2 investigation of a board item: the
// evidence the repository holds about a question, what it shows and what
// stays unverified.
type Investigation struct {
	ID       string
	Item     string
	Question string
	// Perspective is the lens whose checklist the evidence is held
	// against.
	Perspective review.Perspective
	Checklist   []ChecklistItem
	// Answer states what the evidence says about the question itself;
	// Unanswered what local evidence cannot answer.
	Answer, Unanswered []string
	Conclusion         string
	Markdown           string
	// FollowOn are the questions the evidence leaves open.
	FollowOn []string
}

// ChecklistItem is one item of a perspective's checklist (hve-spec §6)
// marked by the evidence: supported, contradicted, open, or not
// answerable from local evidence.
type ChecklistItem struct {
	Text     string
	Status   string
	Evidence string
}

// Checklist statuses. An item is supported or contradicted only by
// evidence; it is open when there is evidence a person must read to
// decide (tests that mention the symbol, a caller whose handling cannot
// be read), and unanswerable when there is none to read (no caller, no
// changed symbol): a claim about callers that do not exist is not
// supported.
const (
	Supported    = "supported"
	Contradicted = "contradicted"
	Open         = "open"
	Unanswerable = "unanswerable"
)

// statusText is how a status reads in an investigation's Markdown.
func statusText(status string) string {
	if status == Unanswerable {
		return "not answerable from local evidence"
	}
	return status
}

// maxFocus bounds the symbols an investigation follows: the changed
// symbols of an area are usually few, and each costs a repository search.
const maxFocus = 5

// focus is one symbol an investigation follows.
type focus struct {
	sym     symbol.Symbol
	change  symbol.Change
	file    *review.File
	refs    []symbol.Ref
	callers []symbol.Ref
	tests   []symbol.Ref
	history []review.LineOrigin
}

// Investigate gathers the evidence for a question about a board item.
func Investigate(ctx context.Context, ws Workspace, res *review.Result, itemID, investigationID, question string) (*Investigation, error) {
	var item *review.BoardItem
	for i := range res.Board {
		if res.Board[i].ID == itemID {
			item = &res.Board[i]
		}
	}
	if item == nil {
		var known []string
		for _, it := range res.Board {
			known = append(known, it.ID)
		}
		return nil, &ErrUnknownItem{ID: itemID, Known: known}
	}
	inv := &Investigation{ID: investigationID, Item: item.ID, Question: question}
	focuses := focusOf(ctx, ws, res.ChangeSet, item, question)
	for _, fo := range focuses {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fo.refs, _ = symbol.References(ws.Root(), searchFiles(ws, res.ChangeSet, fo.file.Language), overlayOf(res.ChangeSet), fo.sym.Name, &fo.sym, 200)
		for _, r := range fo.refs {
			if r.InTest {
				fo.tests = append(fo.tests, r)
			} else if r.Call {
				fo.callers = append(fo.callers, r)
			}
		}
		fo.history = touchedHistory(ctx, ws, fo)
	}
	var findings []*review.Finding
	for _, f := range res.Findings {
		for _, p := range item.Files {
			if f.Span.Path == p {
				findings = append(findings, f)
			}
		}
	}
	q := &asked{topic: topicOf(question)}
	known := map[string]bool{}
	for _, n := range item.SelectableSymbols {
		known[n], known[n[strings.LastIndexByte(n, '.')+1:]] = true, true
	}
	q.names = questionNames(question, known)
	for _, n := range q.names {
		if len(q.lookups) >= maxFocus || ctx.Err() != nil {
			break
		}
		if !coveredBy(focuses, n) {
			q.lookups = append(q.lookups, lookupName(ctx, ws, res, item, n))
		}
	}
	inv.Perspective = perspectiveOf(question)
	switch q.topic {
	case topicSecurity:
		inv.Perspective = review.Security
	case topicErrors, topicAPI:
		inv.Perspective = review.Functional
	case topicTests:
		inv.Perspective = review.Readiness
	}
	inv.Checklist = checklist(inv.Perspective, res, item, focuses, findings)
	if c := topicChecklist(q, res, item, focuses, findings); c != nil {
		inv.Checklist = c
	}
	inv.Answer, inv.Unanswered = answer(q, res, item, focuses, findings)
	inv.Conclusion, inv.FollowOn = conclude(inv, focuses, findings)
	inv.Markdown = investigationMarkdown(inv, item, focuses, q.lookups, findings)
	return inv, nil
}

// focusOf picks the symbols to follow: the item's changed symbols, or the
// ones the question names.
func focusOf(ctx context.Context, ws Workspace, cs *review.ChangeSet, item *review.BoardItem, question string) []*focus {
	var all []*focus
	for _, p := range item.Files {
		f := cs.File(p)
		for _, c := range ChangedSymbols(ctx, ws, f) {
			if c.Kind == symbol.ChangeRemoved {
				continue
			}
			all = append(all, &focus{sym: c.Symbol, change: c, file: f})
		}
	}
	var named []*focus
	for _, fo := range all {
		if mentions(question, fo.sym.Name) || mentions(question, fo.sym.QualifiedName()) {
			named = append(named, fo)
		}
	}
	if len(named) > 0 {
		all = named
	}
	if len(all) > maxFocus {
		all = all[:maxFocus]
	}
	return all
}

// callersOf returns the callers of the focuses.
func callersOf(focuses []*focus) []symbol.Ref {
	var out []symbol.Ref
	for _, fo := range focuses {
		out = append(out, fo.callers...)
	}
	return out
}

// noCallerWhy says that nothing calls the focuses (or that there are none
// to follow), as the evidence of an unanswerable checklist item.
func noCallerWhy(focuses []*focus) string {
	if len(focuses) == 0 {
		return "the item has no changed symbol to follow"
	}
	var names []string
	for _, fo := range focuses {
		names = append(names, fo.sym.QualifiedName())
	}
	return "nothing outside tests calls " + andList(names, "or")
}

// breaksCallers reports a change after which the symbol's callers may no
// longer compile: a new signature, a removal, a new name.
func breaksCallers(k symbol.ChangeKind) bool {
	return k == symbol.ChangeSignature || k == symbol.ChangeRemoved || k == symbol.ChangeRenamed
}

// mentions reports whether the question names a symbol as a whole word.
func mentions(question, name string) bool {
	for i := strings.Index(question, name); i >= 0; {
		before := i == 0 || !isIdent(question[i-1])
		end := i + len(name)
		after := end >= len(question) || !isIdent(question[end])
		if before && after {
			return true
		}
		next := strings.Index(question[i+1:], name)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// touchedHistory blames the base lines the change replaced inside the
// symbol: the commits that last touched what this change alters.
func touchedHistory(ctx context.Context, ws Workspace, fo *focus) []review.LineOrigin {
	if fo.file.Status == review.StatusAdded || fo.file.Status == review.StatusUntracked {
		return nil
	}
	// Removed base lines belong to the symbol when the run of new lines
	// that replaces them starts inside its range, doc comment included
	// (or, for a pure deletion, when they were removed inside it).
	var lines []int
	from := fo.sym.Line
	if fo.sym.Doc != "" {
		from -= strings.Count(strings.TrimSpace(fo.sym.Doc), "\n") + 1
	}
	in := func(n int) bool { return n >= from && n <= fo.sym.EndLine }
	for _, h := range fo.file.Hunks {
		old, nw := h.OldStart, h.NewStart
		var pending []int
		added, hit := 0, false
		flush := func() {
			if hit || added == 0 && in(nw) {
				lines = append(lines, pending...)
			}
			pending, added, hit = pending[:0], 0, false
		}
		for _, l := range h.Lines {
			switch l[0] {
			case '-':
				pending = append(pending, old)
				old++
			case '+':
				if added == 0 {
					hit = in(nw)
				}
				added++
				nw++
			default:
				flush()
				old++
				nw++
			}
		}
		flush()
	}
	if len(lines) == 0 {
		return nil
	}
	origins, err := ws.LineHistory(ctx, fo.file.BasePath(), lines)
	if err != nil {
		return nil
	}
	return origins
}

// perspectiveOf chooses the lens whose checklist the question is about;
// a question about behaviour (the default) is functional.
func perspectiveOf(question string) review.Perspective {
	q := strings.ToLower(question)
	for _, c := range []struct {
		p     review.Perspective
		words []string
	}{
		{review.Security, []string{"secur", "auth", "secret", "token", "password", "inject", "sanitiz", "escape", "permission", "crypt", "safe"}},
		{review.Accessibility, []string{"accessib", "a11y", "screen reader", "keyboard", "aria", "wcag", "contrast"}},
		{review.Readiness, []string{"test", "doc", "readme", "changelog", "release", "rollback", "migration", "ready"}},
		{review.Standards, []string{"naming", "style", "format", "convention", "idiom", "lint"}},
	} {
		for _, w := range c.words {
			if strings.Contains(q, w) {
				return c.p
			}
		}
	}
	return review.Functional
}

// checklist holds the perspective's checklist (hve-spec §6) against the
// evidence.
func checklist(p review.Perspective, res *review.Result, item *review.BoardItem, focuses []*focus, findings []*review.Finding) []ChecklistItem {
	byCat := map[string][]*review.Finding{}
	for _, f := range findings {
		if f.Perspective == p {
			byCat[f.Category] = append(byCat[f.Category], f)
		}
	}
	cite := func(cats ...string) (string, bool) {
		var parts []string
		for _, c := range cats {
			for _, f := range byCat[c] {
				parts = append(parts, fmt.Sprintf("%s at %s:%s", f.RuleID, f.Span.Path, f.Span.Lines()))
			}
		}
		return strings.Join(parts, "; "), len(parts) > 0
	}
	tests, testChanged, callersOutside := 0, false, 0
	sigChanged := false
	for _, fo := range focuses {
		tests += len(fo.tests)
		for _, t := range fo.tests {
			if f := res.ChangeSet.File(t.Path); f != nil {
				testChanged = true
			}
		}
		for _, c := range fo.callers {
			if !contains(item.Files, c.Path) {
				callersOutside++
			}
		}
		if breaksCallers(fo.change.Kind) {
			sigChanged = true
		}
	}
	mark := func(text string, cats []string, positive bool, positiveWhy, openWhy string) ChecklistItem {
		if why, bad := cite(cats...); bad {
			return ChecklistItem{Text: text, Status: Contradicted, Evidence: why}
		}
		if positive {
			return ChecklistItem{Text: text, Status: Supported, Evidence: positiveWhy}
		}
		return ChecklistItem{Text: text, Status: Open, Evidence: openWhy}
	}
	testsWhy := plural(tests, "reference") + " from test files"
	switch p {
	case review.Security:
		return []ChecklistItem{
			mark("authentication, authorization and permission checks present and correct", []string{"Authentication & Authorization"}, false, "", "no rule speaks to it; it needs a human reading of the access paths"),
			mark("untrusted input validated, boundaries enforced", []string{"Input Validation", "Injection"}, false, "", "no injection or validation finding; the sources of the inputs are not traced"),
			mark("secrets, credentials and sensitive data handled safely", []string{"Secrets & Sensitive Data"}, len(focuses) > 0, "no secret or weak-crypto finding in the item's changed lines", "nothing to examine"),
			mark("dependencies, serialization, parsing and data handling checked for misuse", []string{"Serialization & Parsing", "Dependency & Data Handling"}, false, "", "no finding; parsing paths not exercised by evidence"),
		}
	case review.Accessibility:
		return []ChecklistItem{
			mark("keyboard access, operable without a mouse", []string{"Operable"}, false, "", "needs a run in a browser"),
			mark("focus order, focus visibility, interactive semantics", []string{"Operable", "Robust"}, false, "", "needs a run in a browser"),
			mark("screen-reader labels, announcements, form error states", []string{"Perceivable", "Robust"}, false, "", "static markup checks only"),
			mark("contrast, motion, understandable error messaging", []string{"Perceivable", "Understandable", "Cognitive"}, false, "", "contrast and motion need rendering"),
		}
	case review.Readiness:
		return []ChecklistItem{
			mark("change package states purpose and scope clearly", []string{"Scope Hygiene"}, false, "", "a local change has no description to check"),
			mark("validation steps and test evidence present", []string{"Validation Evidence"}, testChanged, "a changed test file references the changed symbols", "no changed test references the changed symbols"),
			mark("explicit follow-ups tracked", []string{"Follow-up"}, true, "no untracked TODO or FIXME added in the item", ""),
			mark("changed documentation accurate", []string{"Documentation"}, false, "", "documentation is not compared with the code"),
		}
	case review.Standards:
		return []ChecklistItem{
			mark("repository conventions and established patterns followed", []string{"Maintainability", "Formatting"}, true, "no standards finding in the item", ""),
			mark("naming, structure, typing and documentation consistent", []string{"Naming", "Documentation"}, true, "no naming or documentation finding in the item", ""),
			mark("acceptance criteria covered in a team-verifiable way", nil, false, "", "no acceptance criteria in a local review"),
			mark("maintainability: duplicated logic, ambiguous ownership", []string{"Maintainability"}, false, "", "duplication across files is not analysed"),
		}
	}
	regressions := mark("no regressions in adjacent workflows or interfaces", []string{"Contract", "Concurrency"}, !sigChanged || callersOutside == 0,
		map[bool]string{true: "the signatures of the changed symbols are unchanged", false: "no caller outside the item uses a symbol whose signature changed"}[!sigChanged],
		fmt.Sprintf("%s outside the item %s a symbol whose signature changed", plural(callersOutside, "caller"), map[bool]string{true: "uses", false: "use"}[callersOutside == 1]))
	if regressions.Status == Supported && len(callersOf(focuses)) == 0 {
		// Nothing calls the changed symbols: there is no caller to
		// regress, and no evidence that nothing else depends on them.
		regressions = ChecklistItem{Text: regressions.Text, Status: Unanswerable, Evidence: noCallerWhy(focuses)}
	}
	return []ChecklistItem{
		mark("intended behaviour and acceptance criteria met", []string{"Logic", "Contract"}, false, "", "no acceptance criteria in a local review; behaviour is not executed"),
		mark("main success paths and primary failure paths covered", []string{"Error Handling", "Edge Cases"}, tests > 0, testsWhy, "no test references the changed symbols"),
		regressions,
		mark("tests, fixtures or rollback guidance updated where needed", nil, testChanged, "a changed test file references the changed symbols", "no changed test references the changed symbols"),
	}
}

// conclude separates what the evidence shows from what stays unverified,
// and turns the open items into follow-on questions. Every part is a
// sentence: the answer's sentences, then what the checklist items
// contradict or support, then what stays open or not answerable, then
// what local evidence cannot answer at all.
func conclude(inv *Investigation, focuses []*focus, findings []*review.Finding) (string, []string) {
	byStatus := map[string][]string{}
	for _, c := range inv.Checklist {
		byStatus[c.Status] = append(byStatus[c.Status], "“"+c.Text+"” ("+c.Evidence+")")
	}
	var follow []string
	for _, fo := range focuses {
		if len(fo.callers) > 0 && (fo.change.Kind == symbol.ChangeSignature) {
			follow = append(follow, fmt.Sprintf("Does every caller of %s (%s) handle its new signature?", fo.sym.QualifiedName(), plural(len(fo.callers), "call site")))
		}
		if len(fo.tests) == 0 {
			follow = append(follow, fmt.Sprintf("Which test exercises %s?", fo.sym.QualifiedName()))
		}
	}
	if len(follow) > 5 {
		follow = follow[:5]
	}
	sentences := append([]string{}, inv.Answer...)
	var shown []string
	if c := byStatus[Contradicted]; len(c) > 0 {
		shown = append(shown, "it contradicts "+andList(c, "and"))
	}
	if c := byStatus[Supported]; len(c) > 0 {
		shown = append(shown, "it supports "+andList(c, "and"))
	}
	if len(shown) == 0 {
		shown = []string{"nothing decisive"}
	}
	sentences = append(sentences, "What the evidence shows: "+strings.Join(shown, "; ")+".")
	var unverified []string
	if c := byStatus[Open]; len(c) > 0 {
		unverified = append(unverified, andList(c, "and")+map[bool]string{true: " is", false: " are"}[len(c) == 1]+" open")
	}
	if c := byStatus[Unanswerable]; len(c) > 0 {
		unverified = append(unverified, "local evidence cannot answer "+andList(c, "or"))
	}
	if len(unverified) == 0 {
		unverified = []string{"nothing the checklist asks"}
	}
	sentences = append(sentences, "What stays unverified: "+strings.Join(unverified, "; ")+".")
	sentences = append(sentences, inv.Unanswered...)
	return strings.Join(sentences, " "), follow
}

// andList joins items as prose: "a", "a and b", "a, b and c" (or "or").
func andList(items []string, conj string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}

// investigationMarkdown renders the Register 2 artifact (hve-spec §10.8).
func investigationMarkdown(inv *Investigation, item *review.BoardItem, focuses []*focus, lookups []*lookup, findings []*review.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Investigation %s\n\n", inv.ID)
	b.WriteString("Evidence gathered from the repository for one question: definitions, uses, tests, history and findings.\n\n")
	fmt.Fprintf(&b, "- **Board item:** %s (%s)\n", item.ID, item.Area)
	fmt.Fprintf(&b, "- **Question:** %s\n", inv.Question)
	fmt.Fprintf(&b, "- **Lens:** %s\n", inv.Perspective)
	b.WriteString("\n## Answer\n\n")
	for _, a := range inv.Answer {
		fmt.Fprintf(&b, "- %s\n", a)
	}
	b.WriteString("\n## What local evidence cannot answer\n\n")
	if len(inv.Unanswered) == 0 {
		b.WriteString("Nothing beyond the open checklist items below.\n")
	}
	for _, a := range inv.Unanswered {
		fmt.Fprintf(&b, "- %s\n", a)
	}
	b.WriteString("\n## Evidence summary\n\n")
	for _, lk := range lookups {
		fmt.Fprintf(&b, "### `%s` (named in the question)\n\n", lk.name)
		if lk.def != nil {
			fmt.Fprintf(&b, "- Definition: [`%s:%d`](%s) — `%s`\n", lk.def.file, lk.def.sym.Line, mdLink(lk.def.file, lk.def.sym.Line), lk.def.sym.Signature)
		} else {
			fmt.Fprintf(&b, "- Definition: none in the repository\n")
		}
		fmt.Fprintf(&b, "- Uses in the changed files: %d\n", len(lk.uses))
		for _, r := range limitRefs(lk.uses, 20) {
			how := ""
			if h := errorHandling(review.DetectLanguage(r.Path, nil), r.Text, lk.name); h != "" {
				how = " — " + h
			}
			fmt.Fprintf(&b, "  - [`%s:%d`](%s): `%s`%s\n", r.Path, r.Line, mdLink(r.Path, r.Line), r.Text, how)
		}
		fmt.Fprintf(&b, "- Mentions in tests: %d\n", len(lk.tests))
		for _, r := range limitRefs(lk.tests, 10) {
			fmt.Fprintf(&b, "  - test [`%s:%d`](%s): `%s`\n", r.Path, r.Line, mdLink(r.Path, r.Line), r.Text)
		}
		b.WriteString("\n")
	}
	if len(focuses) == 0 && len(lookups) == 0 {
		b.WriteString("The item's files have no changed symbols to follow (configuration, documentation or data).\n")
	}
	for _, fo := range focuses {
		s := fo.sym
		fmt.Fprintf(&b, "### `%s` (%s, %s)\n\n", s.QualifiedName(), s.Kind, changeLabel(fo.change))
		fmt.Fprintf(&b, "- Definition: [`%s:%d`](%s) — `%s`\n", fo.file.Path, s.Line, mdLink(fo.file.Path, s.Line), s.Signature)
		fmt.Fprintf(&b, "- References: %s\n", refCounts(len(fo.refs), len(fo.callers), len(fo.tests)))
		for _, r := range limitRefs(fo.callers, 20) {
			fmt.Fprintf(&b, "  - caller [`%s:%d`](%s): `%s`\n", r.Path, r.Line, mdLink(r.Path, r.Line), r.Text)
		}
		for _, r := range limitRefs(fo.tests, 10) {
			fmt.Fprintf(&b, "  - test [`%s:%d`](%s): `%s`\n", r.Path, r.Line, mdLink(r.Path, r.Line), r.Text)
		}
		var commits []string
		seen := map[string]bool{}
		for _, h := range fo.history {
			if h.Commit != "" && !seen[h.Commit] {
				seen[h.Commit] = true
				commits = append(commits, fmt.Sprintf("  - %s %s %s: %s\n", review.ShortSHA(h.Commit), time.Unix(h.When, 0).UTC().Format("2006-01-02"), h.Author, h.Subject))
			}
		}
		if len(commits) > 0 {
			b.WriteString("- History of the lines this change replaces:\n" + strings.Join(commits, ""))
		} else if len(fo.history) > 0 {
			b.WriteString("- History: the replaced lines are older than the history examined.\n")
		} else if fo.file.Status == review.StatusAdded || fo.file.Status == review.StatusUntracked {
			b.WriteString("- History: the file is new; no earlier lines.\n")
		} else {
			b.WriteString("- History: the change only adds lines here; no earlier version of them.\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("## Findings on this item\n\n")
	if len(findings) == 0 {
		b.WriteString("None of the selected perspectives reported a finding in the item's changed lines.\n")
	}
	sort.SliceStable(findings, func(i, j int) bool { return findings[i].Severity > findings[j].Severity })
	for _, f := range findings {
		fmt.Fprintf(&b, "- %s `%s` at [`%s:%s`](%s): %s\n", f.Severity, f.RuleID, f.Span.Path, f.Span.Lines(), mdLink(f.Span.Path, f.Span.StartLine), f.Message)
	}
	fmt.Fprintf(&b, "\n## Checklist (%s)\n\n| Item | Status | Evidence |\n| --- | --- | --- |\n", inv.Perspective)
	for _, c := range inv.Checklist {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Text, statusText(c.Status), strings.ReplaceAll(c.Evidence, "|", "\\|"))
	}
	b.WriteString("\n## Conclusion\n\n" + inv.Conclusion + "\n")
	b.WriteString("\n## Unresolved evidence and follow-on questions\n\n")
	if len(inv.FollowOn) == 0 {
		b.WriteString("None.\n")
	}
	for _, q := range inv.FollowOn {
		fmt.Fprintf(&b, "- %s\n", q)
	}
	b.WriteString("\n## References\n\n")
	for _, l := range item.Links {
		fmt.Fprintf(&b, "- `%s`\n", l)
	}
	if len(item.SelectableSymbols) > 0 {
		fmt.Fprintf(&b, "\nSelectable symbols: %s\n", codeList(item.SelectableSymbols))
	}
	return b.String()
}

// refCounts says how many references there are and of which kinds, so
// that the parts add up: "3: 1 call outside tests, 2 from tests".
func refCounts(total, calls, tests int) string {
	if total == 0 {
		return "none"
	}
	var parts []string
	if calls > 0 {
		parts = append(parts, plural(calls, "call")+" outside tests")
	}
	if tests > 0 {
		parts = append(parts, fmt.Sprintf("%d from tests", tests))
	}
	if other := total - calls - tests; other > 0 {
		parts = append(parts, plural(other, "other use"))
	}
	return fmt.Sprintf("%d: %s", total, strings.Join(parts, ", "))
}

func limitRefs(refs []symbol.Ref, n int) []symbol.Ref {
	if len(refs) > n {
		return refs[:n]
	}
	return refs
}

// plural formats a count with its noun: "1 caller", "3 callers".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
