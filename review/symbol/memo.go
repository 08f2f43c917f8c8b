package symbol

import (
	"hash/maphash"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// Of returns the symbols of f's content, extracted once per file: the
// rules, the walkthrough and the board share them. The slice is shared;
// callers must not modify it.
func Of(f *review.File) []Symbol {
	return current.Of(f, func() []Symbol {
		if f.Language == review.LangGo {
			return extractParsed(f)
		}
		return extractShared(f)
	})
}

// extractParsed extracts the symbols of a Go file from the parse the rules
// share (syntax.Go) rather than parsing it again. A file with a syntax error
// is parsed again with its function bodies cut out: an error inside a body
// then costs nothing of the declarations after it.
func extractParsed(f *review.File) (syms []Symbol) {
	if syntax.Go(f).Err != nil {
		return Extract(f.Path, f.Content, f.Language)
	}
	defer func() {
		if recover() != nil {
			syms = nil // as Extract: a bug costs one file's symbols
		}
	}()
	out, starts := extractGoParsed(f)
	finish(out, f.Path, f.Content, starts)
	return out
}

// extractShared is Extract on the tokens every stage shares.
func extractShared(f *review.File) (syms []Symbol) {
	defer func() {
		if recover() != nil {
			syms = nil // as Extract: a bug costs one file's symbols
		}
	}()
	return extract(f.Path, f.Content, f.Language, syntax.TokensOf(f))
}

// OfBase returns the symbols of old, a base version of f, extracted once
// per file and base content (the rules rebuild the base from the hunks,
// the walkthrough reads it from the object store; both get the same
// bytes). A Go base is spliced from f's symbols where the hunks did not
// touch a declaration, and only the rest is parsed. The slice is shared;
// callers must not modify it.
func OfBase(f *review.File, old []byte) []Symbol {
	key := baseKey{n: len(old), h: maphash.Bytes(baseSeed, old)}
	return base.Of(f, key, func() []Symbol {
		if f.Language == review.LangGo {
			if syms, ok := spliceBase(f, old); ok {
				return syms
			}
		}
		return Extract(f.Path, old, f.Language)
	})
}

// spliceBase is spliceBaseGo, where a bug costs the shortcut, not the
// symbols.
func spliceBase(f *review.File, old []byte) (syms []Symbol, ok bool) {
	defer func() {
		if recover() != nil {
			syms, ok = nil, false
		}
	}()
	return spliceBaseGo(f, old)
}

var (
	current review.Memo[[]Symbol]
	base    review.MemoBy[baseKey, []Symbol]
)

// baseKey identifies a base content.
type baseKey struct {
	n int
	h uint64
}

var baseSeed = maphash.MakeSeed()
