package orient

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
)

// Board returns one dispatch-board item per area. Items start pending and
// owned by register-2 (the perspective sweep is the next work on them).
// changes holds each file's changed symbols, as for [Areas]: an item's
// signal names those of the file it cites.
func Board(cs *review.ChangeSet, areas []review.Area, changes map[string][]symbol.Change) []review.BoardItem {
	tested := testedDirs(cs)
	items := make([]review.BoardItem, 0, len(areas))
	for i, a := range areas {
		item := review.BoardItem{
			ID:                fmt.Sprintf("board-%d", i+1),
			Area:              a.Name,
			Status:            review.StatusPending,
			Register:          review.Register2,
			Summary:           a.Summary,
			PreliminarySignal: signal(cs, a, tested, changes),
			Files:             append([]string(nil), a.Files...),
			Links:             []string{},
			SelectableSymbols: append([]string{}, a.Symbols...),
			Findings:          []string{},
			Explained:         []string{},
			Investigated:      []string{},
		}
		for _, p := range a.Files {
			f := cs.File(p)
			if f.Status == review.StatusDeleted {
				continue
			}
			item.Links = append(item.Links, fmt.Sprintf("%s:%d", p, firstChanged(f)))
		}
		items = append(items, item)
	}
	return items
}

// signal states, factually, what changed in the area and the question it
// raises for review, citing its strongest file and the symbols the change
// touched in that file. It never grades severity.
func signal(cs *review.ChangeSet, a review.Area, tested map[string]bool, changes map[string][]symbol.Change) string {
	f := strongest(cs, a)
	cite := fmt.Sprintf("%s:%d", f.Path, firstChanged(f))
	switch a.Kind {
	case KindTests:
		return fmt.Sprintf("Test changes (+%d −%d), largest at %s: which behaviour do they now pin, and does it match the source change?", a.Added, a.Deleted, cite)
	case KindConfig:
		return fmt.Sprintf("Configuration changes at %s: which environments read them, and is the change reversible without a deploy?", cite)
	case KindDocs:
		return fmt.Sprintf("Documentation changes at %s: do they still describe what the code does after this change?", cite)
	case KindDependencies:
		return fmt.Sprintf("Dependency manifest changes at %s: which packages were added, removed or re-pinned, and where are they used?", cite)
	}
	var what string
	switch f.Status {
	case review.StatusAdded, review.StatusUntracked:
		what = "adds " + f.Path
	case review.StatusDeleted:
		what = "deletes " + f.Path
	case review.StatusRenamed:
		what = "renames " + f.OldPath + " to " + f.Path
	default:
		what = fmt.Sprintf("modifies %s (+%d −%d)", f.Path, f.Added, f.Deleted)
	}
	q := "is the contract of its callers unchanged, and is the new behaviour tested?"
	hasTest := tested[a.Name]
	for _, p := range a.Files {
		hasTest = hasTest || review.IsTestPath(p)
	}
	if !hasTest {
		q = "no test in this area changed: which test pins the new behaviour?"
	}
	if touched := touchedSymbols(changes[f.Path]); len(touched) > 0 {
		// Cite where the first symbol named changed, not the file's first
		// changed line (an import, say), which would read as its place.
		cite = fmt.Sprintf("%s:%d", f.Path, symbolChanged(f, changes[f.Path][0]))
		return fmt.Sprintf("The change %s, touching %s (%s): %s", what, strings.Join(limit(touched, 3), ", "), cite, q)
	}
	return fmt.Sprintf("The change %s (%s): %s", what, cite, q)
}

// symbolChanged returns the first changed line of the symbol c changed,
// its declaration's line when none of its lines changed (a moved or
// doc-only change), or the file's first changed line for a removed one.
func symbolChanged(f *review.File, c symbol.Change) int {
	if c.Kind == symbol.ChangeRemoved {
		return firstChanged(f)
	}
	for n := c.Symbol.Line; n <= c.Symbol.EndLine; n++ {
		if f.Changed(n) {
			return n
		}
	}
	return c.Symbol.Line
}

// touchedSymbols names the changed symbols of one file, a renamed one as
// "renamed old → new".
func touchedSymbols(changes []symbol.Change) []string {
	var out []string
	for _, c := range changes {
		n := c.Symbol.QualifiedName()
		if c.Kind == symbol.ChangeRenamed {
			n = "renamed " + c.Old.QualifiedName() + " → " + n
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// testedDirs returns every directory that has a changed test file at or
// below it.
func testedDirs(cs *review.ChangeSet) map[string]bool {
	out := map[string]bool{}
	for _, f := range cs.Files {
		if !review.IsTestPath(f.Path) {
			continue
		}
		for d := path.Dir(f.Path); d != "." && d != "/" && !out[d]; d = path.Dir(d) {
			out[d] = true
		}
	}
	return out
}

func limit(s []string, n int) []string {
	if len(s) > n {
		return append(append([]string{}, s[:n]...), fmt.Sprintf("%d more", len(s)-n))
	}
	return s
}

// WalkBack attaches merged findings to the board items of their files and
// leads each item's signal with its worst finding and the counts by
// severity. Statuses stay as they are: an item is complete once it was
// investigated or swept on the human's request (hve-spec 10.6: the
// walk-back records whether each item was explained, investigated or left
// pending), never because a run found its findings.
func WalkBack(items []review.BoardItem, findings []*review.Finding) {
	byFile := map[string]int{}
	for i, it := range items {
		it.Findings = it.Findings[:0]
		items[i] = it
		for _, p := range it.Files {
			byFile[p] = i
		}
	}
	of := make([][]*review.Finding, len(items))
	for _, f := range findings {
		if i, ok := byFile[f.Span.Path]; ok {
			items[i].Findings = append(items[i].Findings, f.ID)
			of[i] = append(of[i], f)
		}
	}
	for i := range items {
		if lead := findingsLead(of[i]); lead != "" {
			items[i].PreliminarySignal = lead + " " + items[i].PreliminarySignal
		}
	}
}

// headline is a finding's title without its perspective tag
// ("[Security] ..."), or its rule when it has none.
func headline(f *review.Finding) string {
	title := f.Title
	if strings.HasPrefix(title, "[") {
		if _, rest, ok := strings.Cut(title, "] "); ok {
			title = rest
		}
	}
	if title == "" {
		return f.RuleID
	}
	return title
}

// findingsLead states an item's findings for its signal: the worst one
// with its place, then the counts of the other severities, "1 critical:
// Hardcoded GitHub token at x.go:3; 2 high, 1 low." ("" for none).
func findingsLead(fs []*review.Finding) string {
	if len(fs) == 0 {
		return ""
	}
	counts := map[review.Severity]int{}
	worst := fs[0]
	for _, f := range fs {
		counts[f.Severity]++
		if f.Severity > worst.Severity || f.Severity == worst.Severity && f.Span.Path == worst.Span.Path && f.Span.StartLine < worst.Span.StartLine {
			worst = f
		}
	}
	lead := fmt.Sprintf("%d %s: %s at %s:%d", counts[worst.Severity], worst.Severity.Lower(), headline(worst), worst.Span.Path, worst.Span.StartLine)
	if n := counts[worst.Severity]; n > 1 {
		lead += fmt.Sprintf(" and %d more", n-1)
	}
	var rest []string
	for s := worst.Severity - 1; s >= review.SeverityLow; s-- {
		if n := counts[s]; n > 0 {
			rest = append(rest, fmt.Sprintf("%d %s", n, s.Lower()))
		}
	}
	if len(rest) > 0 {
		lead += "; " + strings.Join(rest, ", ")
	}
	return lead + "."
}
