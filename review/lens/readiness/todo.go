package readiness

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// TodoAdded finds TODO, FIXME and XXX markers added in comments.
var TodoAdded = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "readiness/todo-added",
		Perspective: review.Readiness,
		Category:    CatFollowUp,
		Severity:    review.SeverityLow,
		Depth:       review.DepthBasic,
		Summary:     "TODO added",
		Doc: "A TODO, FIXME or XXX comment added by the change is unfinished work that ships with it. Finish it " +
			"before merging, or make the follow-up explicit by linking a tracked issue so it is not forgotten. " +
			"Only markers in comments count (not in strings), and only when they lead the comment or are followed " +
			"by a colon or parenthesis, so prose that merely mentions a to-do list is not reported. A marker the " +
			"change only edits or moves is not added: each marker on a removed line of the file answers one on an " +
			"added line (a typo fixed in a TODO, code changed beside one). Test files are not reported: a TODO " +
			"there notes a gap of the tests, not unfinished work that ships.",
		Bad:  "// TODO: retry on timeout",
		Good: "// Retries are handled by the caller (see #142).",
	},
	Run: runTodoAdded,
}

// todoRE matches a marker that leads the comment text or is followed by ":"
// or "(".
var todoRE = regexp.MustCompile(`^[\s*/#!-]*\b(TODO|FIXME|XXX)\b|\b(TODO|FIXME|XXX)\s*[:(]`)

func runTodoAdded(p *lens.Pass) {
	if !p.Contains("TODO") && !p.Contains("FIXME") && !p.Contains("XXX") || review.IsTestPath(p.File.Path) {
		return
	}
	// A marker on a changed line, or nothing to report: the file's
	// comments are lexed only then.
	marked := false
	p.EachChanged(func(_ int, line string) {
		marked = marked || strings.Contains(line, "TODO") || strings.Contains(line, "FIXME") || strings.Contains(line, "XXX")
	})
	if !marked {
		return
	}
	type added struct {
		line         int
		marker, note string
	}
	var cands []added
	comments := syntax.Comments(p.File)
	p.EachChanged(func(n int, line string) {
		c := comments[n-1]
		if c.Col == 0 || strings.Contains(c.Text, "reviewls:ignore") {
			return
		}
		m := todoRE.FindStringSubmatchIndex(c.Text)
		if m == nil {
			return
		}
		start, end := markerSpan(m)
		cands = append(cands, added{n, c.Text[start:end], todoNote(c.Text[start:])})
	})
	if len(cands) == 0 {
		return
	}
	// Markers of removed lines: the change moves those (same text) or
	// edits them (same marker, other text). A moved one is reported and
	// left to the differential review, which finds it in the base; an
	// edited one answers an added marker of its kind.
	moved, edited := map[string]int{}, map[string]int{}
	for _, l := range removedLines(p.File) {
		for _, m := range todoRE.FindAllStringSubmatchIndex(l, -1) {
			start, end := markerSpan(m)
			moved[todoNote(l[start:])]++
			edited[l[start:end]]++
		}
	}
	keep := make([]bool, len(cands))
	for i, c := range cands {
		if moved[c.note] > 0 {
			moved[c.note]--
			edited[c.marker]--
			keep[i] = true
		}
	}
	for i, c := range cands {
		if keep[i] {
			continue
		}
		if edited[c.marker] > 0 {
			edited[c.marker]--
			continue
		}
		keep[i] = true
	}
	for i, c := range cands {
		if !keep[i] {
			continue
		}
		note := c.note
		if len(note) > 80 {
			note = note[:77] + "..."
		}
		p.Report(lens.Report{
			Line:      c.line,
			Match:     c.note, // the comment, not the code beside it
			Title:     fmt.Sprintf("%s added", c.marker),
			Message:   fmt.Sprintf("The change adds a %s comment (%q): unfinished work ships with it unless it is tracked.", c.marker, note),
			Suggested: "Finish the work before merging, or link the follow-up to a tracked issue (TODO(#123): ...).",
		})
	}
}

// markerSpan returns the marker's bytes in a todoRE match: the first
// alternative matches a leading marker, the second one followed by ':' or
// '('.
func markerSpan(m []int) (start, end int) {
	if m[2] >= 0 {
		return m[2], m[3]
	}
	return m[4], m[5]
}

// todoNote is a marker's comment text from the marker on, without the
// comment's closing delimiter and with its spaces collapsed.
func todoNote(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, "*/"), "-->"))
	return strings.Join(strings.Fields(s), " ")
}
