package symbol

import (
	"bytes"
	"go/ast"
	"slices"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// spliceBaseGo returns the symbols of old, the base version of the Go file
// f, without parsing all of it. A top-level declaration that no hunk
// touches (nor the line above it, which decides its doc comment) has the
// same text in both versions, so its symbols are those of f's, moved by
// the lines the hunks added and removed above it. Only the rest is parsed:
// old with the lines of those declarations emptied, so that every line
// keeps its number. ok is false when that cannot be trusted (f does not
// parse, old does not fit f's hunks); the caller then parses old whole.
// The result is what [Extract] returns for old.
func spliceBaseGo(f *review.File, old []byte) (syms []Symbol, ok bool) {
	p := syntax.Go(f)
	if p.Err != nil || p.File == nil || len(f.Hunks) == 0 {
		return nil, false
	}
	tf := p.Fset.File(p.File.Package)
	if tf == nil {
		return nil, false
	}
	lm, ok := mapLines(f.Hunks, tf.LineCount())
	if !ok {
		return nil, false
	}
	oldStarts := syntax.LineStarts(old)
	if len(oldStarts) < lm.oldLines {
		return nil, false
	}
	newStarts := syntax.LineStarts(f.Content)
	type span struct{ from, to, shift int } // current lines, and to base lines
	var clean []span
	cut := 0 // bytes of old the clean spans hold
	for _, d := range p.File.Decls {
		from, to := tf.Line(d.Pos()), tf.Line(d.End())
		if doc := declDoc(d); doc != nil {
			from = tf.Line(doc.Pos())
		}
		shift, ok := lm.untouched(max(from-1, 1), to)
		if !ok || !sameLines(f.Content, newStarts, old, oldStarts, max(from-1, 1), to, shift) {
			continue
		}
		clean = append(clean, span{from, to, shift})
		cut += lineEnd(old, oldStarts, to+shift) - int(oldStarts[from+shift-1])
	}
	if len(clean) == 0 {
		return Extract(f.Path, old, f.Language), true
	}
	cur := Of(f)
	// The fragment keeps the lines of old outside the clean spans and
	// empties those inside, so every line keeps its number.
	frag := make([]byte, 0, len(old)-cut+len(oldStarts))
	prev := 0
	for _, c := range clean {
		frag = append(frag, old[prev:oldStarts[c.from+c.shift-1]]...)
		for range c.to - c.from {
			frag = append(frag, '\n')
		}
		prev = lineEnd(old, oldStarts, c.to+c.shift)
	}
	frag = append(frag, old[prev:]...)
	g, err := parseGoErr(frag, false)
	if g == nil || err != nil {
		return nil, false
	}
	parsed := g.symbols()
	finish(parsed, f.Path, frag, g.starts)
	syms = make([]Symbol, 0, len(parsed)+len(cur))
	syms = append(syms, parsed...)
	for _, s := range cur {
		i, found := slices.BinarySearchFunc(clean, s.Line, func(c span, line int) int {
			switch {
			case c.to < line:
				return -1
			case c.from > line:
				return 1
			}
			return 0
		})
		if found {
			s.Line += clean[i].shift
			s.EndLine += clean[i].shift
			syms = append(syms, s)
		}
	}
	sortSymbols(syms)
	for i := range syms {
		syms[i].Methods = nil
	}
	fillMethods(syms)
	return syms, true
}

func declDoc(d ast.Decl) *ast.CommentGroup {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Doc
	case *ast.GenDecl:
		return d.Doc
	}
	return nil
}

// lineMap says, per line of a file's current content, what its hunks
// did: flags[n] holds lineAdded when line n is new, lineCut when base
// lines were removed just before it, and shift[n] moves an unchanged
// line n to its base line.
type lineMap struct {
	flags    []uint8
	shift    []int32
	oldLines int
}

const (
	lineAdded uint8 = 1 << iota
	lineCut
)

// mapLines reads hunks over a content of n lines; ok is false when they
// do not fit it.
func mapLines(hunks []review.Hunk, n int) (lineMap, bool) {
	lm := lineMap{flags: make([]uint8, n+2), shift: make([]int32, n+2)}
	cur, old := 1, 1            // the next current and base lines
	skip := func(to int) bool { // copies unchanged lines up to current line to
		if to < cur || to > n+1 {
			return false
		}
		for ; cur < to; cur++ {
			lm.shift[cur] = int32(old - cur)
			old++
		}
		return true
	}
	for _, h := range hunks {
		start := h.NewStart
		if h.NewLines == 0 {
			start++ // a pure deletion sits after line NewStart
		}
		want := h.OldStart // the first base line of the hunk
		if h.OldLines == 0 {
			want++ // a pure addition sits after base line OldStart
		}
		if !skip(start) || old != want {
			return lm, false
		}
		for _, l := range h.Lines {
			if l == "" || cur > n+1 {
				continue
			}
			switch l[0] {
			case ' ':
				lm.shift[cur] = int32(old - cur)
				cur++
				old++
			case '-':
				lm.flags[cur] |= lineCut
				old++
			case '+':
				lm.flags[cur] |= lineAdded
				cur++
			}
		}
		if cur > n+1 {
			return lm, false
		}
	}
	if !skip(n + 1) {
		return lm, false
	}
	lm.oldLines = old - 1
	return lm, true
}

// untouched reports whether current lines from..to are unchanged, with no
// base lines removed between them, and the shift that moves them to the
// base.
func (lm lineMap) untouched(from, to int) (int, bool) {
	if from < 1 || to >= len(lm.flags)-1 || from > to {
		return 0, false
	}
	for n := from; n <= to; n++ {
		if lm.flags[n]&lineAdded != 0 || n > from && lm.flags[n]&lineCut != 0 {
			return 0, false
		}
	}
	return int(lm.shift[from]), true
}

// lineEnd returns the offset of the end of line n (its "\n", or the end).
func lineEnd(content []byte, starts []int32, n int) int {
	if n < len(starts) {
		return int(starts[n]) - 1
	}
	return len(content)
}

// sameLines reports whether lines from..to of cur equal lines
// from+shift..to+shift of old.
func sameLines(cur []byte, curStarts []int32, old []byte, oldStarts []int32, from, to, shift int) bool {
	if to+shift > len(oldStarts) || from+shift < 1 {
		return false
	}
	for n := from; n <= to; n++ {
		if !bytes.Equal(lineText(cur, curStarts, n), lineText(old, oldStarts, n+shift)) {
			return false
		}
	}
	return true
}
