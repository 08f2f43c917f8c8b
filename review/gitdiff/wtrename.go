package gitdiff

import (
	"context"
	"fmt"
	"os"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// A local or branch review covers the work tree, untracked files
// included, so after the renames git status finds in the index a second
// round pairs what is left: a path of the base missing from the work tree
// (deleted there, or deleted in the index and left unpaired) with a path
// the base lacks that is added or untracked, compared with the content git
// would store. This is what `git add -A && git status` would show; git
// status itself lists such a pair as a deletion and an untracked file.
// Reviewing a moved file as a rename keeps its findings to the lines the
// move changed, where a whole-file addition would flag every line.

// isRenameSource reports whether c can be the source of a work tree
// rename: a file of the base missing from the reviewed content.
func isRenameSource(c *Change) bool {
	return c.Status == review.StatusDeleted && renameable(c.base) && !c.Submodule && !c.Conflicted
}

// isRenameDest reports whether c can be the destination of a work tree
// rename: a file the base lacks.
func isRenameDest(c *Change) bool {
	return (c.Status == review.StatusAdded || c.Status == review.StatusUntracked) && !c.Nested && !c.Submodule && !c.Conflicted
}

// pairWorkTree runs the work tree round over changes, with editor
// buffers in overlay (by repo-relative path) standing for their files.
func (st *state) pairWorkTree(ctx context.Context, changes []Change, overlay map[string][]byte) []Change {
	if st.noRenames || st.target.Staged {
		return changes
	}
	var srcAt, dstAt []int
	for i := range changes {
		switch c := &changes[i]; {
		case isRenameSource(c):
			srcAt = append(srcAt, i)
		case isRenameDest(c):
			dstAt = append(dstAt, i)
		}
	}
	if len(srcAt) == 0 || len(dstAt) == 0 {
		return changes
	}
	ov := cleanOverlay(overlay)
	var srcs, dsts []*renameSide
	at := map[string]int{}
	for _, i := range srcAt {
		srcs = append(srcs, st.blobSide(changes[i].Path, changes[i].base))
		at[changes[i].Path] = i
	}
	for _, i := range dstAt {
		dsts = append(dsts, st.workSide(&changes[i], ov))
		at[changes[i].Path] = i
	}
	matches := st.findRenames(ctx, srcs, dsts)
	if len(matches) == 0 {
		return changes
	}
	drop := map[int]bool{}
	for _, m := range matches {
		si, di := at[srcs[m.src].path], at[dsts[m.dst].path]
		sc, dc := &changes[si], &changes[di]
		dc.Status, dc.OldPath, dc.base = review.StatusRenamed, sc.Path, sc.base
		dc.Similarity = m.score * 100 / maxScore
		dc.Staged = dc.Staged || sc.Staged
		dc.Unstaged = dc.Unstaged || sc.Unstaged
		drop[si] = true
	}
	out := changes[:0]
	for i := range changes {
		if !drop[i] {
			out = append(out, changes[i])
		}
	}
	return out
}

// workTreeRename reports whether file f of a change set is a rename of
// the work tree round (not one git status finds in the index).
func (st *state) workTreeRename(f *review.File) bool {
	return f.Status == review.StatusRenamed && st.renames[f.Path] != f.OldPath
}

// renameCandidates returns the paths of prev a refresh must classify
// again for the work tree round, given the changes of the refreshed
// (observed) paths: none unless a refreshed path is, or was, part of the
// round; then every path of prev that takes part in it.
func (st *state) renameCandidates(prev *review.ChangeSet, obs map[string]wtObs, changes []Change) []string {
	if st.noRenames {
		return nil
	}
	touched := false
	for i := range changes {
		touched = touched || isRenameSource(&changes[i]) || isRenameDest(&changes[i])
	}
	for p := range obs {
		if f := prev.File(p); f != nil && (st.workTreeRename(f) || f.Status == review.StatusDeleted) {
			touched = true
		}
	}
	for _, f := range prev.Files {
		if _, ok := obs[f.OldPath]; ok && st.workTreeRename(f) {
			touched = true
		}
	}
	if !touched {
		return nil
	}
	var out []string
	haveSrc, haveDst := false, false
	for i := range changes {
		haveSrc = haveSrc || isRenameSource(&changes[i])
		haveDst = haveDst || isRenameDest(&changes[i])
	}
	for _, f := range prev.Files {
		switch {
		case st.workTreeRename(f):
			out = append(out, f.Path, f.OldPath)
			haveSrc, haveDst = true, true
		case f.Status == review.StatusDeleted:
			out = append(out, f.Path)
			haveSrc = true
		case f.Status == review.StatusAdded, f.Status == review.StatusUntracked:
			out = append(out, f.Path)
			haveDst = true
		}
	}
	if !haveSrc || !haveDst {
		return nil // nothing to pair, as before
	}
	return out
}

// cleanOverlay keys editor buffers by clean repo-relative path.
func cleanOverlay(overlay map[string][]byte) map[string][]byte {
	if len(overlay) == 0 {
		return nil
	}
	out := make(map[string][]byte, len(overlay))
	for p, data := range overlay {
		if rel, ok := cleanRel(p); ok {
			out[rel] = data
		}
	}
	return out
}

// workSide is the rename side of the reviewed content of change c: the
// work tree file (or its editor buffer in ov) as git would store it.
func (st *state) workSide(c *Change, ov map[string][]byte) *renameSide {
	v, _ := st.repo.newSide(st, c)
	p := c.Path
	data, hasOv := ov[p]
	var conv conversion
	if v.mode != modeSymlink {
		conv = st.conv.of(p)
	}
	s := &renameSide{path: p, mode: v.mode, oid: v.hash, diff: func() attrKind { return conv.diff }}
	s.read = func() ([]byte, error) {
		raw := data
		if !hasOv {
			var err error
			if v.mode == modeSymlink {
				var target string
				target, err = os.Readlink(st.abs(p))
				raw = []byte(target)
			} else {
				raw, err = readCapped(st.abs(p), st.renameOpts.sizeCap)
			}
			if err != nil {
				return nil, err
			}
		}
		if v.mode == modeSymlink {
			return raw, nil
		}
		return st.cleanContent(p, raw, conv), nil
	}
	if !hasOv && v.mode != modeSymlink && conv.identity() {
		s.size = func() (int64, error) {
			fi, err := os.Lstat(st.abs(p))
			if err != nil {
				return 0, err
			}
			return fi.Size(), nil
		}
		// Stream the file for the exact round: it may be larger than
		// anything worth holding.
		s.hash = func() (plumbing.Hash, error) {
			n, err := s.size()
			if err != nil {
				return plumbing.Hash{}, err
			}
			return hashFile(st.abs(p), n)
		}
	}
	return s
}

// readCapped reads the file at abs unless it is larger than limit.
func readCapped(abs string, limit int64) ([]byte, error) {
	fi, err := os.Lstat(abs)
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("read %s: %s", abs, sizeSkip(fi.Size(), limit))
	}
	return regular.ReadFile(abs)
}
