package lens

import (
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// CodeChanged reports whether a file's change alters its code at the token
// level: comments, layout, the text of string literals, type annotations
// (Go declaration types, Python annotations in defs and annotated
// assignments, TypeScript annotations, interfaces and type aliases) and a
// one-to-one renaming of the names a Go file declares do not count. Languages without a tokenizer here, and files
// whose base is unknown, count as changed.
func CodeChanged(f *review.File) bool {
	old, ok := OldContent(f)
	if !ok {
		return true
	}
	switch lang := f.Language; {
	case lang == review.LangGo, lang == review.LangPython, lang.IsJS():
		return !sameUpToRenaming(syntax.CodeTokens(lang, old), syntax.CodeTokens(lang, f.Content))
	}
	return true
}

// sameUpToRenaming reports whether two token streams are equal, or equal
// once the names each version declares are renamed one to one (a
// declared name maps to exactly one declared name, both ways; see
// [syntax.DeclaredMark]).
func sameUpToRenaming(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	fwd, back := map[string]string{}, map[string]string{}
	for i := range a {
		x, y := a[i], b[i]
		if x == y {
			if !strings.HasPrefix(x, syntax.DeclaredMark) {
				continue
			}
		} else if !strings.HasPrefix(x, syntax.DeclaredMark) || !strings.HasPrefix(y, syntax.DeclaredMark) {
			return false
		}
		if m, ok := fwd[x]; ok && m != y {
			return false
		}
		if m, ok := back[y]; ok && m != x {
			return false
		}
		fwd[x], back[y] = y, x
	}
	return true
}
