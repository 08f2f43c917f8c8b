package readiness

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
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
	// Markers of removed lines: the change edits or moves those.
	removed := map[string]int{}
	for _, l := range removedLines(p.File) {
		for _, m := range todoRE.FindAllStringSubmatch(l, -1) {
			removed[m[1]+m[2]]++
		}
	}
	comments := lens.Comments(p.File)
	p.EachChanged(func(n int, line string) {
		c := comments[n-1]
		if c.Col == 0 || strings.Contains(c.Text, "reviewls:ignore") {
			return
		}
		m := todoRE.FindStringSubmatchIndex(c.Text)
		if m == nil {
			return
		}
		// The first alternative matches a leading marker, the second one
		// followed by ':' or '('.
		start, end := m[2], m[3]
		if start < 0 {
			start, end = m[4], m[5]
		}
		marker, at := c.Text[start:end], start
		if removed[marker] > 0 {
			removed[marker]--
			return
		}
		note := strings.TrimSpace(c.Text[at:])
		note = strings.TrimSuffix(strings.TrimSuffix(note, "*/"), "-->")
		note = strings.TrimSpace(note)
		if len(note) > 80 {
			note = note[:77] + "..."
		}
		p.Report(lens.Report{
			Line:      n,
			Title:     fmt.Sprintf("%s added", marker),
			Message:   fmt.Sprintf("The change adds a %s comment (%q): unfinished work ships with it unless it is tracked.", marker, note),
			Suggested: "Finish the work before merging, or link the follow-up to a tracked issue (TODO(#123): ...).",
		})
	})
}
