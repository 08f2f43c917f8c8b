package symbol

import (
	"hash/maphash"

	"github.com/reviewls/reviewls/review"
)

// Of returns the symbols of f's content, extracted once per file: the
// rules, the walkthrough and the board share them. The slice is shared;
// callers must not modify it.
func Of(f *review.File) []Symbol {
	return f.Memo(currentKey{}, func() any { return Extract(f.Path, f.Content, f.Language) }).([]Symbol)
}

// OfBase returns the symbols of old, a base version of f, extracted once
// per file and base content (the rules rebuild the base from the hunks,
// the walkthrough reads it from the object store; both get the same
// bytes). The slice is shared; callers must not modify it.
func OfBase(f *review.File, old []byte) []Symbol {
	key := baseKey{n: len(old), h: maphash.Bytes(baseSeed, old)}
	return f.Memo(key, func() any { return Extract(f.Path, old, f.Language) }).([]Symbol)
}

type currentKey struct{}

type baseKey struct {
	n int
	h uint64
}

var baseSeed = maphash.MakeSeed()
