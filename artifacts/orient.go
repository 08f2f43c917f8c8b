package artifacts

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// DispatchBoardMarkdown renders dispatch-board.md: the board items as a
// table (hve-spec 10.3) followed by the "Confirm before dispatch" surface
// (10.2): the change-risk evidence, the recommended perspectives with the
// items each owns, the perspectives left out and why, and one recommended
// depth.
func DispatchBoardMarkdown(res *review.Result) []byte {
	return newView(res, Options{}).boardMarkdown()
}

func (v *view) boardMarkdown() []byte {
	m := v.md()
	m.heading(1, "Dispatch board: "+v.branch())
	m.para(fmt.Sprintf("Review areas of the %s. Phase: %s.", v.targetDescription(), v.phase))
	board := v.board()
	if len(board) == 0 {
		m.para("No review areas.")
	} else {
		var rows [][]string
		for _, b := range board {
			links := make([]string, 0, len(b.Links))
			for _, l := range b.Links {
				links = append(links, m.refLink(l))
			}
			rows = append(rows, []string{
				m.code(b.ID),
				m.prose(b.Area),
				b.Status,
				m.prose(b.PreliminarySignal),
				b.Register,
				m.prose(b.Summary),
				strings.Join(links, "<br>"),
				m.joinCode(b.SelectableSymbols),
			})
		}
		m.table([]string{"#", "Area", "Status", "Preliminary signal", "Register", "Summary", "Links", "Selectable symbols"}, rows)
	}

	m.heading(2, "Confirm before dispatch")
	m.heading(3, "Change-risk evidence")
	var rows [][]string
	for _, e := range v.evidence {
		rows = append(rows, []string{m.code(string(e.Signal)), string(e.Availability), m.prose(plainEvidence(e.Evidence))})
	}
	m.table([]string{"Signal", "Availability", "Evidence"}, rows)

	m.heading(3, "Recommended perspectives")
	recommended := v.recommended
	if len(recommended) == 0 {
		recommended = v.selected
	}
	if len(recommended) == 0 {
		m.para("None.")
	}
	for _, p := range recommended {
		owned := v.ownedItems(p, board)
		owns := "no board item"
		if len(owned) > 0 {
			owns = m.joinCode(owned)
		}
		m.line("- **%s** (owns %s): %s", p, owns, m.prose(v.perspectiveReason(p)))
	}
	if !slices.Equal(v.selected, recommended) {
		sel := make([]string, len(v.selected))
		for i, p := range v.selected {
			sel[i] = string(p)
		}
		m.para("Selected for this review: " + orText(strings.Join(sel, ", "), "none") + ".")
	}
	var left []review.Perspective
	for _, p := range review.AllPerspectives {
		if !slices.Contains(recommended, p) {
			left = append(left, p)
		}
	}
	if len(left) > 0 {
		m.heading(3, "Not recommended")
		for _, p := range left {
			m.line("- **%s**: %s", p, m.prose(v.omissionReason(p)))
		}
	}

	m.heading(3, "Recommended depth")
	rec := "**" + v.recDepth.String() + "**"
	if r := depthReason(v.recDepth, v.risk.DepthReason); r != "" {
		rec += ": " + m.prose(r)
	}
	m.line("%s", rec)
	if v.depth != v.recDepth {
		m.para("Depth chosen for this review: " + v.depth.String() + ". " + v.rationale)
	}

	m.heading(3, "Your choice")
	m.para("Edit the board, the perspectives or the depth; bookmark or reject items; ask for more orientation; or approve the whole recommendation. " +
		"In the editor: the reviewls.bookmark, reviewls.selectPerspectives, reviewls.setDepth and reviewls.sweep commands.")
	return m.bytes()
}

// ownedItems returns the ids of the board items perspective p covers:
// items holding one of its findings, and by scope the hotspot items for
// security, the markup items for accessibility, and every item for the
// other lanes.
func (v *view) ownedItems(p review.Perspective, board []review.BoardItem) []string {
	withFinding := map[string]bool{}
	for _, f := range v.byPerspective(p) {
		withFinding[findingID(f)] = true
	}
	hot := map[string]bool{}
	for _, h := range v.hotspotPaths() {
		hot[h] = true
	}
	var out []string
	for _, b := range board {
		owned := p != review.Security && p != review.Accessibility
		for _, id := range b.Findings {
			owned = owned || withFinding[id]
		}
		for _, f := range b.Files {
			switch p {
			case review.Security:
				owned = owned || hot[f]
			case review.Accessibility:
				owned = owned || v.language(f).IsMarkup()
			}
		}
		if owned {
			out = append(out, b.ID)
		}
	}
	return out
}

// perspectiveReason says in one line why p is recommended.
func (v *view) perspectiveReason(p review.Perspective) string {
	n := len(v.cs.Reviewed())
	switch p {
	case review.Functional:
		return fmt.Sprintf("behaviour, edge cases and error handling of %s.", plural(n, "reviewed file"))
	case review.Standards:
		return "conventions and maintainability of the changed code."
	case review.Readiness:
		return "the change as a deliverable: scope, tests, documentation and follow-ups."
	case review.Security:
		if hs := v.hotspotPaths(); len(hs) > 0 {
			return "security hotspots in " + strings.Join(hs, ", ") + "."
		}
		return "a security rule or signal fired on a changed line."
	case review.Accessibility:
		return "UI, markup or user-facing content is in scope."
	}
	return ""
}

// omissionReason says in one line why p is not recommended.
func (v *view) omissionReason(p review.Perspective) string {
	switch {
	case v.profile == review.ProfileCustom:
		return "not in the custom selection."
	case p == review.Security:
		return "no security hotspot or signal fired on the changed surface."
	case p == review.Accessibility:
		return "no interactive UI, markup or user-facing content is in scope."
	}
	return "not part of the " + string(v.profile) + " profile for this change."
}

// WalkthroughMarkdown renders walkthrough.md, the Register 1 orientation
// narrative (hve-spec 9.2): diff summary by area, runway, test and rollout
// notes, and appendices listing the changed files and symbols. It states
// facts only: no severities, no verdicts, no recommendations.
func WalkthroughMarkdown(res *review.Result) []byte {
	return newView(res, Options{}).walkthroughMarkdown()
}

func (v *view) walkthroughMarkdown() []byte {
	m := v.md()
	w := v.res.Walkthrough
	if w == nil {
		w = &review.Walkthrough{}
	}
	m.heading(1, "Walkthrough: "+v.branch())
	m.para(fmt.Sprintf("Factual orientation to the %s: %s, +%d -%d lines.",
		v.targetDescription(), fileCount(len(v.cs.Files)), v.totalAdded(), v.totalDeleted()))
	if intent := strings.TrimSpace(v.risk.Brief.Intent); intent != "" {
		m.para(intent)
	}

	m.heading(2, "Diff summary")
	if len(w.Areas) == 0 {
		m.para("No areas were mapped; see the changed files in the appendix.")
	}
	for _, a := range w.Areas {
		title := a.Name
		if a.Kind != "" {
			title += " (" + a.Kind + ")"
		}
		m.heading(3, title)
		m.para(a.Summary)
		m.line("- **Files** (+%d -%d): %s", a.Added, a.Deleted, v.linkList(m, a.Files))
		if len(a.Symbols) > 0 {
			m.line("- **Symbols:** %s", m.joinCode(a.Symbols))
		}
	}

	m.heading(2, "Entry points and reach")
	v.listSection(m, "Entry points", w.EntryPoints, true)
	v.listSection(m, "Public APIs", w.PublicAPIs, true)
	v.listSection(m, "Call paths", w.CallPaths, false)
	v.listSection(m, "Blast radius", blastLines(w.BlastRadius), false)
	if len(w.EntryPoints)+len(w.PublicAPIs)+len(w.CallPaths)+len(w.BlastRadius) == 0 {
		m.para("No entry points, public APIs or dependents were identified.")
	}

	m.heading(2, "Test and rollout notes")
	tests, rollout := nonEmpty(w.TestNotes), nonEmpty(w.Rollout)
	if n := strings.TrimSpace(v.risk.Brief.TestNotes); n != "" && len(tests) == 0 {
		tests = []string{n}
	}
	if n := strings.TrimSpace(v.risk.Brief.RolloutNotes); n != "" && len(rollout) == 0 {
		rollout = []string{n}
	}
	v.listSection(m, "Tests", tests, false)
	v.listSection(m, "Rollout", rollout, false)
	if len(tests)+len(rollout) == 0 {
		m.para("No test or rollout notes.")
	}

	m.heading(2, "Appendices")
	m.heading(3, "Changed files")
	var rows [][]string
	for _, f := range v.cs.Files {
		note := string(f.Status)
		if f.Status == review.StatusRenamed && f.OldPath != "" {
			note += " from " + m.code(f.OldPath)
		}
		if f.Skip != "" {
			note += "; not reviewed: " + m.prose(f.Skip.String())
		}
		rows = append(rows, []string{m.fileLink(f.Path, 0, 0), note, "+" + strconv.Itoa(f.Added), "-" + strconv.Itoa(f.Deleted)})
	}
	m.table([]string{"File", "Change", "Added", "Deleted"}, rows)
	symbols := w.Symbols
	if len(symbols) == 0 {
		for _, a := range w.Areas {
			symbols = append(symbols, a.Symbols...)
		}
	}
	m.heading(3, "Changed symbols")
	if len(symbols) == 0 {
		m.para("None identified.")
	}
	for _, s := range symbols {
		m.line("- %s", m.code(s))
	}
	return m.bytes()
}

// listSection writes a titled list; code renders items as code spans.
func (v *view) listSection(m *md, title string, items []string, code bool) {
	items = nonEmpty(items)
	if len(items) == 0 {
		return
	}
	m.heading(3, title)
	for _, s := range items {
		if code {
			m.line("- %s", m.code(s))
		} else {
			m.bullet(s)
		}
	}
}

func (v *view) linkList(m *md, paths []string) string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		out = append(out, m.fileLink(p, 0, 0))
	}
	return strings.Join(out, ", ")
}

func (v *view) totalAdded() int {
	n := 0
	for _, f := range v.cs.Files {
		n += f.Added
	}
	return n
}

func (v *view) totalDeleted() int {
	n := 0
	for _, f := range v.cs.Files {
		n += f.Deleted
	}
	return n
}

// blastLines renders the blast radius, one line per item.
func blastLines(items []review.BlastItem) []string {
	out := make([]string, 0, len(items))
	for _, b := range items {
		switch b.Kind {
		case review.BlastHotspot:
			out = append(out, fmt.Sprintf("%s touches %s", b.Path, strings.Join(b.Classes, ", ")))
		case review.BlastShared:
			out = append(out, fmt.Sprintf("shared module: %s is called from %d other directories (%s)", b.Path, len(b.Files), strings.Join(b.Files, ", ")))
		case review.BlastConfig:
			out = append(out, "configuration: "+strings.Join(b.Files, ", "))
		case review.BlastDependencies:
			out = append(out, "dependencies: "+strings.Join(b.Files, ", "))
		}
	}
	return out
}

// depthReason is the risk stage's reason for a depth without its leading
// "<depth>: ", which the writers already print beside it ("comprehensive:
// comprehensive: critical path" otherwise).
func depthReason(d review.Depth, reason string) string {
	reason = strings.TrimSpace(reason)
	return strings.TrimSpace(strings.TrimPrefix(reason, d.String()+":"))
}

// plainEvidence drops the protocol's section references from evidence
// text shown to people ("(§7.3 classes)" means nothing to a reader).
func plainEvidence(s string) string {
	return strings.ReplaceAll(s, " (§7.3 classes)", "")
}
