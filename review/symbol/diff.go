package symbol

import "github.com/reviewls/reviewls/review/syntax"

// ChangeKind says how a symbol changed between two versions of a file.
type ChangeKind string

// Change kinds.
const (
	ChangeAdded     ChangeKind = "added"
	ChangeRemoved   ChangeKind = "removed"
	ChangeSignature ChangeKind = "signature changed"
	ChangeBody      ChangeKind = "body changed"
	ChangeNone      ChangeKind = "unchanged"
)

func (k ChangeKind) String() string { return string(k) }

// Change is what happened to one symbol.
type Change struct {
	// Symbol is the new version of the symbol, or the old one when it was
	// removed.
	Symbol Symbol
	// Old is the base version, nil when the symbol was added.
	Old  *Symbol
	Kind ChangeKind
}

// Diff compares the symbols of the base version of a file (oldSyms) with
// those of the new one (newSyms, from newContent). Symbols match by
// QualifiedName and Kind; when several share both (overloads, getter and
// setter), they pair in order. A matched symbol has its signature changed
// when the signatures differ; else its body changed when one of its lines
// (new side, 1-based) is changed, or when its doc comment differs, so a
// doc-comment-only edit counts as a body change. Changed lines inside a
// symbol whose text is identical to the base's (by [Symbol.Hash]) do not
// count: the declaration was moved, not changed (newContent supplies the
// new hash of symbols built without one). changed may be nil, when only
// signatures and docs are compared.
//
// The result holds one change per new symbol, in the order of newSyms,
// followed by the removed ones in the order of oldSyms.
func Diff(oldSyms, newSyms []Symbol, newContent []byte, changed func(line int) bool) []Change {
	type key struct {
		name string
		kind Kind
	}
	olds := map[key][]int{}
	for i, s := range oldSyms {
		k := key{s.QualifiedName(), s.Kind}
		olds[k] = append(olds[k], i)
	}
	var starts []int32 // of newContent, for symbols built without a Hash
	hash := func(s Symbol) uint64 {
		if s.Hash != 0 || newContent == nil {
			return s.Hash
		}
		if starts == nil {
			starts = syntax.LineStarts(newContent)
		}
		return hashLines(newContent, starts, s.Line, s.EndLine)
	}
	matched := make([]bool, len(oldSyms))
	out := make([]Change, 0, len(newSyms))
	for _, s := range newSyms {
		k := key{s.QualifiedName(), s.Kind}
		cands := olds[k]
		if len(cands) == 0 {
			out = append(out, Change{Symbol: s, Kind: ChangeAdded})
			continue
		}
		olds[k] = cands[1:]
		matched[cands[0]] = true
		old := oldSyms[cands[0]]
		c := Change{Symbol: s, Old: &old, Kind: ChangeNone}
		switch {
		case old.Signature != s.Signature:
			c.Kind = ChangeSignature
		case old.Doc != s.Doc:
			c.Kind = ChangeBody
		case changed != nil && changedIn(changed, s.Line, s.EndLine) && !(old.Hash != 0 && hash(s) == old.Hash):
			c.Kind = ChangeBody
		}
		out = append(out, c)
	}
	for i, s := range oldSyms {
		if !matched[i] {
			old := s
			out = append(out, Change{Symbol: s, Old: &old, Kind: ChangeRemoved})
		}
	}
	return out
}

func changedIn(changed func(int) bool, from, to int) bool {
	for n := from; n <= max(to, from); n++ {
		if changed(n) {
			return true
		}
	}
	return false
}

// ChangeRenamed is a symbol that the change renamed and otherwise left as
// it was: see [Renamed].
const ChangeRenamed ChangeKind = "renamed"

// Renamed folds, in changes (as [Diff] returns them for oldContent and
// newContent), each added symbol and removed symbol that are one
// declaration under a new name into a single change of kind
// [ChangeRenamed], at the added one's place, with Old the removed one. They
// are one declaration when they are of the same kind, in the same
// container (or in one the change renamed), and their text is the same
// once the symbol's own name and its container's are set aside wherever
// they occur as identifiers (a recursive call, the receiver); an added
// symbol pairs only with the one removed symbol of its shape, so
// look-alike declarations (two empty functions) stay added and removed.
// It reuses the array of changes.
func Renamed(changes []Change, oldContent, newContent []byte) []Change {
	var added, removed []int
	for i, c := range changes {
		switch c.Kind {
		case ChangeAdded:
			added = append(added, i)
		case ChangeRemoved:
			removed = append(removed, i)
		}
	}
	if len(added) == 0 || len(removed) == 0 {
		return changes
	}
	oldStarts, newStarts := syntax.LineStarts(oldContent), syntax.LineStarts(newContent)
	shape := func(content []byte, starts []int32, s Symbol) uint64 {
		return hashLines(content, starts, s.Line, s.EndLine, s.Name, s.Container)
	}
	// Containers first, so that their members can follow them.
	containers := map[string]string{} // old name -> new name
	gone := map[int]bool{}
	pair := func(member bool) {
		byShape := map[uint64][]int{}
		for _, r := range removed {
			if s := changes[r].Symbol; !gone[r] && (s.Container != "") == member {
				k := shape(oldContent, oldStarts, s)
				byShape[k] = append(byShape[k], r)
			}
		}
		newShapes := map[uint64]int{}
		cands := map[int]uint64{}
		for _, a := range added {
			if s := changes[a].Symbol; (s.Container != "") == member {
				k := shape(newContent, newStarts, s)
				newShapes[k]++
				cands[a] = k
			}
		}
		for _, a := range added {
			k, ok := cands[a]
			if !ok {
				continue
			}
			s := changes[a].Symbol
			var match []int
			for _, r := range byShape[k] {
				o := changes[r].Symbol
				sameHome := o.Container == s.Container || containers[o.Container] == s.Container
				if !gone[r] && o.Kind == s.Kind && sameHome && o.QualifiedName() != s.QualifiedName() {
					match = append(match, r)
				}
			}
			if len(match) != 1 || newShapes[k] != 1 {
				continue
			}
			old := changes[match[0]].Symbol
			changes[a] = Change{Symbol: s, Old: &old, Kind: ChangeRenamed}
			gone[match[0]] = true
			if !member {
				containers[old.Name] = s.Name
			}
		}
	}
	pair(false)
	pair(true)
	if len(gone) == 0 {
		return changes
	}
	out := make([]Change, 0, len(changes)-len(gone))
	for i, c := range changes {
		if !gone[i] {
			out = append(out, c)
		}
	}
	return out
}
