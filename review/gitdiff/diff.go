package gitdiff

import (
	"bytes"
	"math"
	"strings"
	"unsafe"

	"github.com/reviewls/reviewls/review"
)

// contextLines is the number of unchanged lines shown around a change, as in
// git's default unified diff.
const contextLines = 3

// Diff returns the unified line diff from old to new with three lines of
// context, as review hunks matching those of `git diff`.
//
// Lines are split on "\n" only: a "\r" before the "\n" is part of the line,
// so CRLF files keep their line numbers. A last line without a final newline
// differs from the same text with one, so adding or removing the final
// newline shows as a change of the last line, as in git. The "\ No newline
// at end of file" marker is not emitted: hunk lines always start with ' ',
// '+' or '-'.
//
// The algorithm is Myers' O(ND) diff in its linear-space form, with git's
// pre-pass that sets aside lines occurring in only one side, and git's
// placement of ambiguous groups (compaction and the indent heuristic, on
// by default in git since 2.14), so that hunks match a default `git diff`.
func Diff(old, new []byte) []review.Hunk {
	a, b := splitLines(old), splitLines(new)
	e := diffLines(a, b)
	return e.hunks(a, b, contextLines)
}

// splitLines splits data into lines, each keeping its "\n" terminator (the
// last line may have none). The lines alias data, without a copy: data
// must not change while they are in use (hunks copy what they keep).
func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	n := bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		n++
	}
	s := unsafe.String(unsafe.SliceData(data), len(data))
	out := make([]string, 0, n)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// edits is the result of a line diff: which lines of the old side were
// deleted and which lines of the new side were inserted. Lines that are
// neither form the longest common subsequence, in order.
type edits struct {
	del []bool // per old line
	ins []bool // per new line
}

// newToOld maps each new line to the old line it was kept from, or -1 when
// it was inserted.
func (e edits) newToOld() []int {
	m := make([]int, len(e.ins))
	i := 0
	for j := range e.ins {
		if e.ins[j] {
			m[j] = -1
			continue
		}
		for i < len(e.del) && e.del[i] {
			i++
		}
		m[j] = i
		i++
	}
	return m
}

// diffLines computes the line edits turning a into b.
func diffLines(a, b []string) edits {
	e := edits{del: make([]bool, len(a)), ins: make([]bool, len(b))}

	// Trim the common prefix and suffix; most diffs are small edits of
	// large files and this leaves very little for the search.
	lo := 0
	for lo < len(a) && lo < len(b) && a[lo] == b[lo] {
		lo++
	}
	ha, hb := len(a), len(b)
	for ha > lo && hb > lo && a[ha-1] == b[hb-1] {
		ha--
		hb--
	}
	switch {
	case lo == ha:
		for j := lo; j < hb; j++ {
			e.ins[j] = true
		}
	case lo == hb:
		for i := lo; i < ha; i++ {
			e.del[i] = true
		}
	default:
		e.search(a, b, lo, ha, hb)
	}
	compact(a, e.del, e.ins)
	compact(b, e.ins, e.del)
	return e
}

// search finds the edits between a[lo:ha] and b[lo:hb], which differ in
// their first and last lines.
func (e edits) search(a, b []string, lo, ha, hb int) {
	// Intern the lines as integers and set aside those that cannot or
	// should not take part in the search, as git's xdl_cleanup_records
	// does: a line with no match on the other side is always a change, and
	// a line with very many matches is one when it sits in a run of such
	// lines. This keeps rewrites cheap and makes the alignment git's.
	ids := make(map[string]int32, len(a)+len(b))
	var counts [][2]int32
	intern := func(s string, side int) int32 {
		id, ok := ids[s]
		if !ok {
			id = int32(len(counts))
			ids[s] = id
			counts = append(counts, [2]int32{})
		}
		counts[id][side]++
		return id
	}
	ra := make([]int32, len(a))
	rb := make([]int32, len(b))
	for i := range a {
		ra[i] = intern(a[i], 0)
	}
	for j := range b {
		rb[j] = intern(b[j], 1)
	}
	xs, xi := keepLines(ra, lo, ha, counts, 1, e.del)
	ys, yi := keepLines(rb, lo, hb, counts, 0, e.ins)

	m := myers{x: xs, y: ys, xi: xi, yi: yi, del: e.del, ins: e.ins}
	n := len(xs) + len(ys) + 3
	m.fd = make([]int, n)
	m.bd = make([]int, n)
	m.off = len(ys) + 1
	// Give up on an exact middle snake beyond about sqrt(N+M) edit steps
	// (never below 256), as git does: the result stays a correct
	// diff, just not always a minimal one, and pathological inputs stay
	// O(N*sqrt(N)).
	m.tooExpensive = max(bogoSqrt(n), 256)
	m.compare(0, len(xs), 0, len(ys), false)
}

// keepLines returns the line ids of r[lo:hi] worth searching, and their
// indexes; it marks the others changed in chg. other selects the count of
// matches on the other side.
func keepLines(r []int32, lo, hi int, counts [][2]int32, other int, chg []bool) (ids []int32, idx []int) {
	// Lines with at least about sqrt(N) matches count as "many".
	mlim := min(bogoSqrt(len(r)), 1024)
	dis := make([]uint8, hi-lo) // 0: no match, 1: keep, 2: many matches
	for i := lo; i < hi; i++ {
		switch nm := int(counts[r[i]][other]); {
		case nm == 0:
			dis[i-lo] = 0
		case nm >= mlim:
			dis[i-lo] = 2
		default:
			dis[i-lo] = 1
		}
	}
	for i := range dis {
		if dis[i] == 1 || dis[i] == 2 && !discardMulti(dis, i) {
			ids = append(ids, r[lo+i])
			idx = append(idx, lo+i)
		} else {
			chg[lo+i] = true
		}
	}
	return ids, idx
}

// discardMulti reports whether the many-matches line i should be set aside:
// only when it sits among lines without a match, within a window of 100
// lines on either side (git's xdl_clean_mmatch).
func discardMulti(dis []uint8, i int) bool {
	const window, keepRun = 100, 4
	s, e := max(0, i-window), min(len(dis)-1, i+window)
	rdis0, rpdis0 := 0, 1
	for r := 1; i-r >= s; r++ {
		if dis[i-r] == 0 {
			rdis0++
		} else if dis[i-r] == 2 {
			rpdis0++
		} else {
			break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rdis1, rpdis1 := 0, 1
	for r := 1; i+r <= e; r++ {
		if dis[i+r] == 0 {
			rdis1++
		} else if dis[i+r] == 2 {
			rpdis1++
		} else {
			break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*keepRun < rpdis1+rdis1
}

// bogoSqrt approximates the square root of n, as git's xdl_bogosqrt.
func bogoSqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// myers holds the state of the linear-space Myers search over the interned
// lines x (old) and y (new); xi and yi map them back to real line indexes.
type myers struct {
	x, y         []int32
	xi, yi       []int
	del, ins     []bool
	fd, bd       []int // furthest-reaching x per diagonal, forward and backward
	off          int   // offset of diagonal 0 in fd and bd
	tooExpensive int
}

// compare marks the edits between x[xoff:xlim] and y[yoff:ylim]. When
// minimal is false the middle-snake search may stop early.
func (m *myers) compare(xoff, xlim, yoff, ylim int, minimal bool) {
	for xoff < xlim && yoff < ylim && m.x[xoff] == m.y[yoff] {
		xoff++
		yoff++
	}
	for xlim > xoff && ylim > yoff && m.x[xlim-1] == m.y[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			m.ins[m.yi[yoff]] = true
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			m.del[m.xi[xoff]] = true
		}
	default:
		xmid, ymid, loMin, hiMin := m.split(xoff, xlim, yoff, ylim, minimal)
		m.compare(xoff, xmid, yoff, ymid, loMin)
		m.compare(xmid, xlim, ymid, ylim, hiMin)
	}
}

// split finds the midpoint of a shortest edit script of x[xoff:xlim] and
// y[yoff:ylim] by searching from both ends at once (Myers 1986, section
// 4b; this follows the structure of GNU diff's diag). Diagonal k holds the
// points with x-y == k.
func (m *myers) split(xoff, xlim, yoff, ylim int, minimal bool) (xmid, ymid int, loMin, hiMin bool) {
	fd, bd, off := m.fd, m.bd, m.off
	x, y := m.x, m.y
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid
	odd := (fmid-bmid)&1 != 0

	fd[off+fmid] = xoff
	bd[off+bmid] = xlim
	for c := 1; ; c++ {
		// Extend the forward search by one edit step on each diagonal.
		if fmin > dmin {
			fmin--
			fd[off+fmin-1] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[off+fmax+1] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := fd[off+d-1], fd[off+d+1]
			xx := thi
			if tlo >= thi {
				xx = tlo + 1
			}
			yy := xx - d
			for xx < xlim && yy < ylim && x[xx] == y[yy] {
				xx++
				yy++
			}
			fd[off+d] = xx
			if odd && bmin <= d && d <= bmax && bd[off+d] <= xx {
				return xx, yy, true, true
			}
		}

		// Extend the backward search likewise.
		if bmin > dmin {
			bmin--
			bd[off+bmin-1] = math.MaxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[off+bmax+1] = math.MaxInt
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := bd[off+d-1], bd[off+d+1]
			xx := thi - 1
			if tlo < thi {
				xx = tlo
			}
			yy := xx - d
			for xx > xoff && yy > yoff && x[xx-1] == y[yy-1] {
				xx--
				yy--
			}
			bd[off+d] = xx
			if !odd && fmin <= d && d <= fmax && xx <= fd[off+d] {
				return xx, yy, true, true
			}
		}

		if minimal || c < m.tooExpensive {
			continue
		}

		// Too expensive: split at the furthest-reaching point found so far
		// in either direction.
		fxybest, fxbest := -1, 0
		for d := fmax; d >= fmin; d -= 2 {
			xx := min(fd[off+d], xlim)
			yy := xx - d
			if ylim < yy {
				xx, yy = ylim+d, ylim
			}
			if fxybest < xx+yy {
				fxybest, fxbest = xx+yy, xx
			}
		}
		bxybest, bxbest := math.MaxInt, 0
		for d := bmax; d >= bmin; d -= 2 {
			xx := max(xoff, bd[off+d])
			yy := xx - d
			if yy < yoff {
				xx, yy = yoff+d, yoff
			}
			if xx+yy < bxybest {
				bxybest, bxbest = xx+yy, xx
			}
		}
		if (xlim+ylim)-bxybest < fxybest-(xoff+yoff) {
			return fxbest, fxybest - fxbest, true, false
		}
		return bxbest, bxybest - bxbest, false, true
	}
}

// compact slides each group of changed lines of one side (chg, over lines)
// as far down as it can go, merging groups it runs into, and then back up:
// to line up with a change on the other side (ochg) if one lies in its
// range, or else to the position git's indent heuristic scores best. This
// is git's xdl_change_compact, so ambiguous hunks land where git puts
// them.
func compact(lines []string, chg, ochg []bool) {
	n, on := len(chg), len(ochg)
	changed := func(c []bool, i int) bool { return i >= 0 && i < len(c) && c[i] }

	// A group is a maximal run [start, end) of changed lines; groups of the
	// two sides correspond one to one, separated by unchanged lines.
	var start, end, ostart, oend int
	for end < n && chg[end] {
		end++
	}
	for oend < on && ochg[oend] {
		oend++
	}
	next := func(c []bool, s, e *int) bool {
		if *e >= len(c) {
			return false
		}
		*s = *e + 1
		*e = *s
		for *e < len(c) && c[*e] {
			*e++
		}
		return true
	}
	prev := func(c []bool, s, e *int) bool {
		if *s == 0 {
			return false
		}
		*e = *s - 1
		*s = *e
		for changed(c, *s-1) {
			*s--
		}
		return true
	}
	slideDown := func() bool {
		if end < n && lines[start] == lines[end] {
			chg[start], chg[end] = false, true
			start++
			end++
			for end < n && chg[end] {
				end++
			}
			return true
		}
		return false
	}
	slideUp := func() bool {
		if start > 0 && lines[start-1] == lines[end-1] {
			start--
			end--
			chg[start], chg[end] = true, false
			for changed(chg, start-1) {
				start--
			}
			return true
		}
		return false
	}

	for {
		if end != start {
			var earliestEnd, endMatchingOther int
			for {
				size := end - start
				endMatchingOther = -1
				for slideUp() {
					prev(ochg, &ostart, &oend)
				}
				earliestEnd = end
				if oend > ostart {
					endMatchingOther = end
				}
				for slideDown() {
					next(ochg, &ostart, &oend)
					if oend > ostart {
						endMatchingOther = end
					}
				}
				if size == end-start {
					break
				}
			}
			switch {
			case end == earliestEnd:
				// The group cannot move.
			case endMatchingOther != -1:
				// Line it up with the last change of the other side it
				// can reach.
				for oend == ostart {
					slideUp()
					prev(ochg, &ostart, &oend)
				}
			default:
				// Place it where the split around it reads best.
				shift := max(earliestEnd, end-(end-start)-1, end-indentMaxSliding)
				size := end - start
				best, bestScore := -1, splitScore{}
				for ; shift <= end; shift++ {
					var sc splitScore
					sc.add(measureSplit(lines, shift))
					sc.add(measureSplit(lines, shift-size))
					if best == -1 || sc.cmp(bestScore) <= 0 {
						best, bestScore = shift, sc
					}
				}
				for end > best {
					slideUp()
					prev(ochg, &ostart, &oend)
				}
			}
		}
		if !next(chg, &start, &end) {
			break
		}
		next(ochg, &ostart, &oend)
	}
}

// The indent heuristic (git's xdiffi.c): each position a group of added or
// deleted lines can slide to makes two splits in the file, and each split
// is scored by the indentation and blank lines around it. The constants
// are git's, tuned on a corpus of real diffs.
const (
	indentMaxIndent            = 200
	indentMaxBlanks            = 20
	indentMaxSliding           = 100
	startOfFilePenalty         = 1
	endOfFilePenalty           = 21
	totalBlankWeight           = -30
	postBlankWeight            = 6
	relIndentPenalty           = -4
	relIndentWithBlankPenalty  = 10
	relOutdentPenalty          = 24
	relOutdentWithBlankPenalty = 17
	relDedentPenalty           = 23
	relDedentWithBlankPenalty  = 17
	indentWeight               = 60
)

// splitMeasure describes the lines around a split before line split.
type splitMeasure struct {
	endOfFile  bool
	indent     int // of the line after the split, -1 if blank
	preBlank   int // blank lines just above the split
	preIndent  int // of the nearest non-blank line above, -1 if none
	postBlank  int // blank lines after the line after the split
	postIndent int // of the nearest non-blank line after that, -1 if none
}

// lineIndent returns the indentation width of a line (tabs to multiples of
// 8), or -1 for a blank line.
func lineIndent(l string) int {
	n := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		case '\n', '\v', '\f', '\r':
		default:
			return n
		}
		if n >= indentMaxIndent {
			return indentMaxIndent
		}
	}
	return -1
}

func measureSplit(lines []string, split int) splitMeasure {
	var m splitMeasure
	if split >= len(lines) {
		m.endOfFile = true
		m.indent = -1
	} else {
		m.indent = lineIndent(lines[split])
	}
	m.preIndent = -1
	for i := split - 1; i >= 0; i-- {
		if m.preIndent = lineIndent(lines[i]); m.preIndent != -1 {
			break
		}
		if m.preBlank++; m.preBlank == indentMaxBlanks {
			m.preIndent = 0
			break
		}
	}
	m.postIndent = -1
	for i := split + 1; i < len(lines); i++ {
		if m.postIndent = lineIndent(lines[i]); m.postIndent != -1 {
			break
		}
		if m.postBlank++; m.postBlank == indentMaxBlanks {
			m.postIndent = 0
			break
		}
	}
	return m
}

// splitScore is the badness of a group position: lower is better.
type splitScore struct {
	effectiveIndent int
	penalty         int
}

func (s *splitScore) add(m splitMeasure) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += startOfFilePenalty
	}
	if m.endOfFile {
		s.penalty += endOfFilePenalty
	}
	postBlank := 0
	if m.indent == -1 {
		postBlank = 1 + m.postBlank
	}
	totalBlank := m.preBlank + postBlank
	s.penalty += totalBlankWeight*totalBlank + postBlankWeight*postBlank
	indent := m.indent
	if indent == -1 {
		indent = m.postIndent
	}
	anyBlanks := totalBlank != 0
	s.effectiveIndent += indent
	switch {
	case indent == -1, m.preIndent == -1:
	case indent > m.preIndent:
		s.penalty += pick(anyBlanks, relIndentWithBlankPenalty, relIndentPenalty)
	case indent == m.preIndent:
	case m.postIndent != -1 && m.postIndent > indent:
		// Outdented, then indented again: likely the start of a block.
		s.penalty += pick(anyBlanks, relOutdentWithBlankPenalty, relOutdentPenalty)
	default:
		// Likely the end of a block.
		s.penalty += pick(anyBlanks, relDedentWithBlankPenalty, relDedentPenalty)
	}
}

func (s splitScore) cmp(o splitScore) int {
	c := 0
	switch {
	case s.effectiveIndent > o.effectiveIndent:
		c = 1
	case s.effectiveIndent < o.effectiveIndent:
		c = -1
	}
	return indentWeight*c + s.penalty - o.penalty
}

func pick(cond bool, a, b int) int {
	if cond {
		return a
	}
	return b
}

// hunks renders the edits as unified hunks with ctx lines of context. Two
// changes at most 2*ctx unchanged lines apart share a hunk, as in git.
func (e edits) hunks(a, b []string, ctx int) []review.Hunk {
	var out []review.Hunk
	i, j := 0, 0 // current old and new line
	n, m := len(a), len(b)
	for i < n || j < m {
		// Find the next change.
		for i < n && j < m && !e.del[i] && !e.ins[j] {
			i++
			j++
		}
		if i >= n && j >= m {
			break
		}
		// Start a hunk ctx lines before the change.
		pre := min(ctx, i, j)
		hi, hj := i-pre, j-pre
		h := review.Hunk{}
		for k := 0; k < pre; k++ {
			h.Lines = append(h.Lines, " "+trimEOL(a[hi+k]))
		}
		for {
			// Emit the change.
			for i < n && e.del[i] {
				h.Lines = append(h.Lines, "-"+trimEOL(a[i]))
				i++
			}
			for j < m && e.ins[j] {
				h.Lines = append(h.Lines, "+"+trimEOL(b[j]))
				j++
			}
			// Count the unchanged run that follows.
			run := 0
			for i+run < n && j+run < m && !e.del[i+run] && !e.ins[j+run] {
				run++
			}
			atEnd := (i+run >= n || !e.del[i+run]) && (j+run >= m || !e.ins[j+run])
			if atEnd || run > 2*ctx {
				post := min(run, ctx)
				for k := 0; k < post; k++ {
					h.Lines = append(h.Lines, " "+trimEOL(a[i+k]))
				}
				i += post
				j += post
				break
			}
			for k := 0; k < run; k++ {
				h.Lines = append(h.Lines, " "+trimEOL(a[i+k]))
			}
			i += run
			j += run
		}
		h.OldLines = i - hi
		h.NewLines = j - hj
		h.OldStart, h.NewStart = hi+1, hj+1
		if h.OldLines == 0 {
			h.OldStart = hi
		}
		if h.NewLines == 0 {
			h.NewStart = hj
		}
		out = append(out, h)
	}
	return out
}

func trimEOL(s string) string {
	return strings.TrimSuffix(s, "\n")
}
