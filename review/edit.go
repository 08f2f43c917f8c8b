package review

import (
	"bytes"
	"fmt"
	"sort"
)

// ApplyEdits applies non-overlapping edits to content and returns the
// result. A span with StartCol 0 replaces whole lines (terminators
// included); otherwise it replaces bytes from StartCol up to EndCol
// (exclusive) on its lines. Line and column numbers are 1-based and refer
// to the original content.
func ApplyEdits(content []byte, edits []TextEdit) ([]byte, error) {
	starts := []int{0}
	for i, c := range content {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	lineStart := func(n int) (int, error) {
		switch {
		case n >= 1 && n <= len(starts):
			return starts[n-1], nil
		case n == len(starts)+1:
			return len(content), nil
		}
		return 0, fmt.Errorf("line %d out of range (%d lines)", n, len(starts))
	}
	type rng struct {
		from, to int
		text     string
	}
	var rs []rng
	for _, e := range edits {
		s := e.Span
		end := s.Last()
		var from, to int
		var err error
		if from, err = lineStart(s.StartLine); err != nil {
			return nil, err
		}
		if s.StartCol == 0 {
			if to, err = lineStart(end + 1); err != nil {
				to = len(content)
			}
		} else {
			from += s.StartCol - 1
			if to, err = lineStart(end); err != nil {
				return nil, err
			}
			to += s.EndCol - 1
		}
		if from > len(content) || to > len(content) || from > to {
			return nil, fmt.Errorf("edit %s:%d:%d-%d:%d is out of range", s.Path, s.StartLine, s.StartCol, end, s.EndCol)
		}
		rs = append(rs, rng{from, to, e.NewText})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].from < rs[j].from })
	var b bytes.Buffer
	pos := 0
	for _, r := range rs {
		if r.from < pos {
			return nil, fmt.Errorf("overlapping edits at byte %d", r.from)
		}
		b.Write(content[pos:r.from])
		b.WriteString(r.text)
		pos = r.to
	}
	b.Write(content[pos:])
	return b.Bytes(), nil
}
