package llmtest

import (
	"strings"

	"github.com/reviewls/reviewls/review"
)

// contextLines is how many unchanged lines a hunk keeps around its
// changes, as git's default diff does.
const contextLines = 3

// File returns a changed file built from annotated text: every line of
// the file, each after a marker, " " for an unchanged line, "+" for an
// added one and "-" for a removed one (a line without a marker is
// unchanged). The hunks keep three lines of context, as git's do; the
// added lines are unstaged; the status is added when no line is unchanged
// or removed, else modified.
func File(path, annotated string) *review.File {
	type line struct {
		mark byte
		text string
	}
	var lines []line
	for _, l := range strings.Split(strings.TrimSuffix(annotated, "\n"), "\n") {
		if l == "" {
			lines = append(lines, line{' ', ""})
			continue
		}
		switch l[0] {
		case '+', '-', ' ':
			lines = append(lines, line{l[0], l[1:]})
		default:
			lines = append(lines, line{' ', l})
		}
	}
	f := &review.File{Path: path, Status: review.StatusAdded, Lines: map[int]review.LineState{}}
	var content strings.Builder
	// newAt[i] is the new line number of lines[i] (or of the line after a
	// removed one); oldAt[i] its old number (or the old line before which
	// an added one was inserted).
	newAt, oldAt := make([]int, len(lines)), make([]int, len(lines))
	n, o := 1, 1
	for i, l := range lines {
		newAt[i], oldAt[i] = n, o
		switch l.mark {
		case '+':
			content.WriteString(l.text + "\n")
			f.Lines[n] = review.LineUnstaged
			f.Added++
			n++
		case '-':
			f.Deleted++
			f.Status = review.StatusModified
			o++
		default:
			content.WriteString(l.text + "\n")
			f.Status = review.StatusModified
			n++
			o++
		}
	}
	f.Content = []byte(content.String())
	f.Language = review.DetectLanguage(path, f.Content)
	// Hunks: the changed lines with their context, overlapping ones merged.
	var spans [][2]int
	for i, l := range lines {
		if l.mark == ' ' {
			continue
		}
		lo, hi := max(0, i-contextLines), min(len(lines)-1, i+contextLines)
		if k := len(spans) - 1; k >= 0 && lo <= spans[k][1]+1 {
			spans[k][1] = max(spans[k][1], hi)
			continue
		}
		spans = append(spans, [2]int{lo, hi})
	}
	for _, sp := range spans {
		h := review.Hunk{OldStart: oldAt[sp[0]], NewStart: newAt[sp[0]]}
		for _, l := range lines[sp[0] : sp[1]+1] {
			h.Lines = append(h.Lines, string(l.mark)+l.text)
			switch l.mark {
			case '+':
				h.NewLines++
			case '-':
				h.OldLines++
			default:
				h.NewLines++
				h.OldLines++
			}
		}
		// As git writes them, an empty side starts at the line before.
		if h.OldLines == 0 {
			h.OldStart--
		}
		if h.NewLines == 0 {
			h.NewStart--
		}
		f.Hunks = append(f.Hunks, h)
	}
	return f
}
