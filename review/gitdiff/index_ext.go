package gitdiff

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/internal/regular"
)

// Split and sparse indexes (git-update-index --split-index,
// `git sparse-checkout --sparse-index`, index.sparse) are read as git reads
// them and turned into the plain index the rest of the package works on:
// a split index is merged with its shared index, a sparse index expanded
// (git's ensure_full_index) from the trees its sparse directory entries
// name, every entry below them skip-worktree.

// splitLink is the link extension of a split index: the shared index it
// builds on and two EWAH bitmaps over the shared index's entries, those
// deleted and those replaced by the split index's nameless entries.
type splitLink struct {
	base      plumbing.Hash
	del, repl ewah
}

// parseLink parses the link extension.
func parseLink(b []byte) (*splitLink, error) {
	l := &splitLink{}
	if len(b) < len(l.base) {
		return nil, errors.New("link extension too short")
	}
	copy(l.base[:], b)
	b = b[len(l.base):]
	if len(b) == 0 {
		return l, nil
	}
	var n int
	var err error
	if l.del, n, err = parseEWAH(b); err != nil {
		return nil, fmt.Errorf("delete bitmap: %w", err)
	}
	b = b[n:]
	if l.repl, n, err = parseEWAH(b); err != nil {
		return nil, fmt.Errorf("replace bitmap: %w", err)
	}
	if n != len(b) {
		return nil, errors.New("garbage after the link extension's bitmaps")
	}
	return l, nil
}

// ewah is a compressed bitmap (git's ewah/ewah_io.c): 64-bit words, each
// run-length word (RLW) followed by its literal words. An RLW holds the
// running bit (bit 0), the number of words the bit fills (bits 1-32) and
// the number of literal words that follow (bits 33-63).
type ewah []uint64

// parseEWAH parses a serialised bitmap: its size in bits, its word count,
// the words, and the position of the last RLW (which git only needs for
// appending). It returns the bitmap and the bytes it took.
func parseEWAH(b []byte) (ewah, int, error) {
	// A header of 8 bytes, the words, and the 4-byte RLW position.
	if len(b) < 12 {
		return nil, 0, errors.New("truncated")
	}
	words := int(binary.BigEndian.Uint32(b[4:]))
	if words > (len(b)-12)/8 {
		return nil, 0, fmt.Errorf("%d words do not fit in %d bytes", words, len(b))
	}
	w := make(ewah, words)
	for i := range w {
		w[i] = binary.BigEndian.Uint64(b[8+8*i:])
	}
	return w, 8 + 8*words + 4, nil
}

// each calls fn with the position of every set bit, in increasing order,
// failing on a bit at or beyond limit (the bitmap covers limit entries) or
// on a literal count running past the end of the words.
func (w ewah) each(limit int, fn func(pos int) error) error {
	errPast := fmt.Errorf("bitmap sets bits past its %d entries", limit)
	pos := 0
	for i := 0; i < len(w); {
		rlw := w[i]
		i++
		run := int((rlw >> 1) & (1<<32 - 1))
		if rlw&1 != 0 {
			if run > (limit-pos)/64 {
				return errPast
			}
			for end := pos + 64*run; pos < end; pos++ {
				if err := fn(pos); err != nil {
					return err
				}
			}
		} else {
			// Positions past limit only matter if a bit is set there.
			pos = min(pos+64*run, limit)
		}
		lits := int(rlw >> 33)
		if lits > len(w)-i {
			return errors.New("bitmap literal words run past its end")
		}
		for _, lit := range w[i : i+lits] {
			for c := 0; lit != 0; c++ {
				if lit&(1<<c) == 0 {
					continue
				}
				lit &^= 1 << c
				if pos+c >= limit {
					return errPast
				}
				if err := fn(pos + c); err != nil {
					return err
				}
			}
			pos = min(pos+64, limit)
		}
		i += lits
	}
	return nil
}

// readShared reads the shared index of a split index at path, in the git
// directory gitDir, and merges the two.
func (idx *index) readShared(gitDir string) error {
	l := idx.link
	idx.link = nil
	if l.base.IsZero() {
		// Split indexes disabled again: the entries are all there is.
		return nil
	}
	p := filepath.Join(gitDir, "sharedindex."+l.base.String())
	data, err := regular.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("split index: its shared index %s is missing ('git update-index --no-split-index' cannot help either: restore it, or rebuild the index with 'git read-tree HEAD')", p)
	}
	if err != nil {
		return fmt.Errorf("split index: %w", err)
	}
	if len(data) < 20 || !bytes.Equal(data[len(data)-20:], l.base[:]) {
		return fmt.Errorf("split index: %w: %s does not hold shared index %s", errCorruptIndex, p, l.base)
	}
	base, err := parseIndex(data)
	if err != nil {
		return fmt.Errorf("split index: shared index %s: %w", p, err)
	}
	if base.link != nil {
		return fmt.Errorf("split index: %w: shared index %s is split itself", errCorruptIndex, p)
	}
	return idx.merge(base, l)
}

// merge applies the split index idx onto its shared index base as git's
// merge_base_index does: the replace bitmap's entries take the split
// index's nameless entries in order (keeping their names), the delete
// bitmap's go, and the split index's named entries are added as
// add_index_entry adds them.
func (idx *index) merge(base *index, l *splitLink) error {
	n := len(base.entries)
	ents := base.entries
	split := idx.entries
	nrepl := 0
	err := l.repl.each(n, func(pos int) error {
		if nrepl >= len(split) {
			return errors.New("more replacements than entries")
		}
		src := split[nrepl]
		if src.name != "" {
			return fmt.Errorf("replacement entry %d has a name", nrepl)
		}
		src.name = ents[pos].name
		ents[pos] = src
		nrepl++
		return nil
	})
	if err != nil {
		return fmt.Errorf("split index: %w: %v", errCorruptIndex, err)
	}
	deleted := make([]bool, n)
	if err := l.del.each(n, func(pos int) error { deleted[pos] = true; return nil }); err != nil {
		return fmt.Errorf("split index: %w: %v", errCorruptIndex, err)
	}
	kept := ents[:0]
	for i := range ents {
		if !deleted[i] {
			kept = append(kept, ents[i])
		}
	}
	adds := split[nrepl:]
	for i := range adds {
		if adds[i].name == "" {
			return fmt.Errorf("split index: %w: entry %d has no name", errCorruptIndex, nrepl+i)
		}
	}
	sort.SliceStable(adds, func(i, j int) bool { return adds[i].name < adds[j].name })

	// Merge the two sorted lists; where a name is in both, replay the
	// additions onto the kept entries of that name.
	out := make([]entry, 0, len(kept)+len(adds))
	i, j := 0, 0
	for i < len(kept) || j < len(adds) {
		switch {
		case j == len(adds) || i < len(kept) && kept[i].name < adds[j].name:
			out = append(out, kept[i])
			i++
		case i == len(kept) || adds[j].name < kept[i].name:
			k := j
			for k < len(adds) && adds[k].name == adds[j].name {
				k++
			}
			out = append(out, addStages(nil, adds[j:k])...)
			j = k
		default:
			name := kept[i].name
			ki, aj := i, j
			for i < len(kept) && kept[i].name == name {
				i++
			}
			for j < len(adds) && adds[j].name == name {
				j++
			}
			out = append(out, addStages(append([]entry(nil), kept[ki:i]...), adds[aj:j])...)
		}
	}
	idx.entries = out
	idx.sparse = idx.sparse || base.sparse
	return nil
}

// addStages adds entries of one name to the entries cur of that name: an
// entry replaces the one of its stage, and a stage-0 entry every stage.
// The result is sorted by stage.
func addStages(cur, adds []entry) []entry {
	for _, a := range adds {
		kept := cur[:0]
		for _, c := range cur {
			if a.stage != 0 && c.stage != a.stage {
				kept = append(kept, c)
			}
		}
		cur = append(kept, a)
	}
	sort.SliceStable(cur, func(i, j int) bool { return cur[i].stage < cur[j].stage })
	return cur
}

// readIndex reads the repository's index (see [Options.IndexFile]), a
// sparse one expanded.
func (r *Repo) readIndex() (*index, error) {
	idx, err := readIndex(r.indexPath, r.gitDir)
	if err != nil || !idx.sparse {
		return idx, err
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	if err := idx.expandSparse(r.readTree); err != nil {
		return nil, fmt.Errorf("read index %s: %w", r.indexPath, err)
	}
	return idx, nil
}

// maxTreeDepth bounds the nesting of trees a sparse directory expands to,
// against a cyclic or absurd object store.
const maxTreeDepth = 1000

// expandSparse replaces every sparse directory entry (mode 040000, a name
// ending in "/") with the files of its tree, read by readTree, all
// skip-worktree: what git's ensure_full_index does.
func (idx *index) expandSparse(readTree func(plumbing.Hash) ([]treeEntry, error)) error {
	if !idx.sparse {
		return nil
	}
	out := make([]entry, 0, len(idx.entries))
	var expand func(prefix string, h plumbing.Hash, depth int) error
	expand = func(prefix string, h plumbing.Hash, depth int) error {
		if depth > maxTreeDepth {
			return fmt.Errorf("trees nested deeper than %d under %s", maxTreeDepth, prefix)
		}
		ents, err := readTree(h)
		if err != nil {
			return err
		}
		for _, te := range ents {
			name := prefix + te.name
			if te.mode == modeTree {
				if err := expand(name+"/", te.hash, depth+1); err != nil {
					return err
				}
				continue
			}
			out = append(out, entry{name: name, hash: te.hash, mode: te.mode, skipWorkTr: true})
		}
		return nil
	}
	for i := range idx.entries {
		e := &idx.entries[i]
		if e.mode != modeTree {
			out = append(out, *e)
			continue
		}
		if err := expand(e.name, e.hash, 0); err != nil {
			return fmt.Errorf("expand sparse directory %s: %w", e.name, err)
		}
	}
	idx.entries = out
	idx.sparse = false
	return idx.check()
}

// check verifies what the rest of the package relies on: entries sorted
// by name then stage, an unmerged path without a stage-0 entry, and every
// name a clean relative path (no "", "." or ".." component, no ".git",
// no NUL), a sparse directory's ending in "/".
func (idx *index) check() error {
	for i := range idx.entries {
		e := &idx.entries[i]
		if !validEntryName(e.name, e.mode == modeTree) {
			return fmt.Errorf("%w: bad path %q in entry %d", errCorruptIndex, e.name, i)
		}
		if i == 0 {
			continue
		}
		p := &idx.entries[i-1]
		switch c := strings.Compare(p.name, e.name); {
		case c > 0:
			return fmt.Errorf("%w: entry %q out of order", errCorruptIndex, e.name)
		case c == 0 && (p.stage == 0 || p.stage >= e.stage):
			return fmt.Errorf("%w: bad stages of %q", errCorruptIndex, e.name)
		}
	}
	return nil
}

// validEntryName reports whether name can be an index path; dir marks a
// sparse directory entry, whose name ends in "/".
func validEntryName(name string, dir bool) bool {
	if dir {
		var ok bool
		if name, ok = strings.CutSuffix(name, "/"); !ok {
			return false
		}
	}
	if name == "" || name[0] == '/' || name[len(name)-1] == '/' ||
		strings.Contains(name, "//") || strings.IndexByte(name, 0) >= 0 {
		return false
	}
	if name[0] != '.' && !strings.Contains(name, "/.") {
		return true
	}
	for rest := name; ; {
		c, more, found := strings.Cut(rest, "/")
		if c == "." || c == ".." || strings.EqualFold(c, ".git") {
			return false
		}
		if !found {
			return true
		}
		rest = more
	}
}
