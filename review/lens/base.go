package lens

import (
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
)

// OldContent returns the base version of a changed file, rebuilt from its
// content and its hunks (a hunk holds the old lines of the region it
// replaces), so no repository access is needed. An added or untracked
// file's base is empty. ok is false when the hunks do not fit the content
// (a file built without hunks), and the base is unknown. It is rebuilt
// once per file; callers must not modify it.
func OldContent(f *review.File) (old []byte, ok bool) {
	b := oldContentOf.Of(f, func() baseContent {
		old, ok := rebuildBase(f)
		return baseContent{old, ok}
	})
	return b.old, b.ok
}

var oldContentOf review.Memo[baseContent]

type baseContent struct {
	old []byte
	ok  bool
}

func rebuildBase(f *review.File) (old []byte, ok bool) {
	if f.Status == review.StatusAdded || f.Status == review.StatusUntracked {
		return nil, true
	}
	if len(f.Hunks) == 0 {
		return nil, false
	}
	lines := Lines(f)
	size := len(f.Content) + 1
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l != "" && l[0] == '-' {
				size += len(l)
			}
		}
	}
	b := make([]byte, 0, size)
	next := 1 // the next new line to copy
	for _, h := range f.Hunks {
		start := h.NewStart
		if h.NewLines == 0 {
			start++ // a pure deletion sits after line NewStart
		}
		if start < next || start-1 > len(lines) {
			return nil, false
		}
		for ; next < start; next++ {
			b = append(append(b, lines[next-1]...), '\n')
		}
		kept := 0
		for _, l := range h.Lines {
			if l == "" {
				continue
			}
			switch l[0] {
			case ' ':
				kept++
				fallthrough
			case '-':
				b = append(append(b, l[1:]...), '\n')
			case '+':
				kept++
			}
		}
		if kept != h.NewLines {
			return nil, false
		}
		next = start + h.NewLines
	}
	for ; next <= len(lines); next++ {
		b = append(append(b, lines[next-1]...), '\n')
	}
	return b, true
}

// added is what AddedSymbols memoises.
type added struct {
	names map[string]bool
	ok    bool
}

var addedOf review.Memo[added]

// AddedSymbols returns the qualified names ("Store.Get", "Config") of the
// symbols the change adds to f, memoised on f: those of the new version
// that the base version (see [OldContent]) does not declare. ok is false
// when the base is unknown.
func AddedSymbols(f *review.File) (names map[string]bool, ok bool) {
	a := addedOf.Of(f, func() added {
		old, ok := OldContent(f)
		if !ok {
			return added{}
		}
		names := map[string]bool{}
		changes := symbol.Diff(symbol.OfBase(f, old), symbol.Of(f), f.Content, nil)
		for _, c := range changes {
			if c.Kind == symbol.ChangeAdded {
				names[c.Symbol.QualifiedName()] = true
			}
		}
		return added{names, true}
	})
	return a.names, a.ok
}
