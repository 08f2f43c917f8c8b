package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// Scan returns the change set of target t: [Repo.Status] plus, per file,
// the diff from the target base to the reviewed content, the state of each
// added line and the content itself.
//
// The reviewed content is the work tree for a local or branch review, with
// overlay (unsaved editor buffers by repo-relative path) taking the place
// of the files it names; for a staged review it is the index, read from
// its blobs, never from the work tree, and overlay is ignored. Files that
// are not reviewed (binary, over the size cap, lock files, ...) are listed
// with File.Skip set and neither Content nor Lines; the hunks of skipped
// text files under the size cap are still computed, for the counts and the
// diff of the review. File.Unstaged is also set for untracked files: their
// content lives only in the work tree.
//
// Scan remembers what it learned so that [Repo.Refresh] can re-diff single
// paths cheaply.
func (r *Repo) Scan(ctx context.Context, t review.Target, overlay map[string][]byte) (*review.ChangeSet, error) {
	st, changes, err := r.status(ctx, t)
	if err != nil {
		return nil, err
	}
	if !t.Staged && len(overlay) > 0 {
		changes = st.applyOverlay(changes, overlay)
	}
	changes = st.pairWorkTree(ctx, changes, overlay)
	files, err := r.buildFiles(ctx, st, changes, overlay)
	if err != nil {
		return nil, err
	}
	cs := &review.ChangeSet{Root: r.root, Target: t, Files: files, Ignored: ignoredFiles(st.ignored)}
	cs.Sort()
	r.keep(st)
	return cs, nil
}

// applyOverlay re-classifies the paths that have an editor buffer, whose
// content replaces the file on disk.
func (st *state) applyOverlay(changes []Change, overlay map[string][]byte) []Change {
	byPath := make(map[string]int, len(changes))
	for i, c := range changes {
		byPath[c.Path] = i
	}
	var out []Change
	drop := map[string]bool{}
	for p, data := range overlay {
		rel, ok := cleanRel(p)
		if !ok {
			continue
		}
		obs, tracked, ok := st.observeOverlay(rel, data)
		if !ok {
			continue
		}
		c, changed := st.classify(rel, obs, tracked)
		if i, ok := byPath[rel]; ok {
			if changed {
				changes[i] = c
			} else {
				drop[rel] = true
			}
			continue
		}
		if changed {
			out = append(out, c)
		}
	}
	for _, c := range changes {
		if !drop[c.Path] {
			out = append(out, c)
		}
	}
	return out
}

// observeOverlay returns the work tree state of path rel as if the file
// held data, whether the index tracks it, and false when the buffer does
// not count (an ignored, hidden or non-file path).
func (st *state) observeOverlay(rel string, data []byte) (wtObs, bool, bool) {
	if i, ok := st.idx.find(rel); ok {
		e := &st.idx.entries[i]
		switch {
		case e.mode == modeGitlink || e.mode == modeSymlink:
			return wtObs{}, true, false
		case e.stage != 0 || e.intentAdd:
			return wtObs{kind: wtModified, v: version{mode: e.mode}}, true, true
		}
		var h plumbing.Hash
		if e.mode == modeSymlink {
			h = hashObject(plumbing.BlobObject, data)
		} else {
			h = st.cleanHash(rel, data, st.conv.of(rel))
		}
		if h == e.hash {
			return wtObs{kind: wtClean}, true, true
		}
		return wtObs{kind: wtModified, v: version{hash: h, mode: e.mode}}, true, true
	}
	if !st.untrackedVisible(rel) {
		return wtObs{}, false, false
	}
	return wtObs{kind: wtUntracked, v: version{mode: modeRegular}}, false, true
}

// buildFiles builds the review files of changes, several at a time.
func (r *Repo) buildFiles(ctx context.Context, st *state, changes []Change, overlay map[string][]byte) ([]*review.File, error) {
	files := make([]*review.File, len(changes))
	errs := make([]error, len(changes))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0)+1)
	var wg sync.WaitGroup
	for i := range changes {
		if err := ctx.Err(); err != nil {
			break
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			c := &changes[i]
			var ov []byte
			hasOv := false
			if !st.target.Staged {
				ov, hasOv = overlay[c.Path]
			}
			files[i], errs[i] = r.buildFile(st, c, ov, hasOv)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return files, nil
}

// content is one version of a file while a review file is built.
type content struct {
	v    version
	data []byte
	ok   bool // data was read
}

// buildFile builds the review file of change c. ov is the editor buffer of
// the path when hasOv is set.
func (r *Repo) buildFile(st *state, c *Change, ov []byte, hasOv bool) (*review.File, error) {
	t := st.target
	f := &review.File{
		Path:       c.Path,
		OldPath:    c.OldPath,
		Similarity: c.Similarity,
		Status:     c.Status,
		Staged:     c.Staged,
		Unstaged:   c.Unstaged || c.Untracked,
	}
	defer func() { f.Language = review.DetectLanguage(f.Path, f.Content) }()

	switch {
	case c.Submodule:
		f.Skip = review.SkipSubmodule
		f.Hunks = Diff(subproject(c.base), subproject(r.newVersion(c)))
		countLines(f)
		return f, nil
	case c.Nested:
		f.Skip = review.SkipNested
		return f, nil
	case t.Staged && c.Conflicted:
		f.Skip = review.SkipUnmerged
		return f, nil
	}

	newV, inR := r.newSide(st, c)
	if inR && newV.mode == modeSpecial {
		f.Skip = specialSkip(st.abs(c.Path))
		return f, nil
	}
	if c.Status == review.StatusRenamed && !inR {
		f.Skip = review.SkipWorkTreeDeleted
	}
	if c.base.mode == modeSymlink || newV.mode == modeSymlink {
		f.Skip = review.SkipSymlink
		base, err := r.readBlob(c.base)
		if err != nil {
			return f, r.unreadable(f, err)
		}
		var target []byte
		if inR {
			if target, err = r.readNew(st, c, newV, ov, hasOv); err != nil {
				return f, r.unreadable(f, err)
			}
		}
		f.Hunks = Diff(base, target)
		countLines(f)
		return f, nil
	}
	conv := st.conv.of(c.Path)
	switch {
	case conv.filter != "":
		// Never diffed raw: the blob is what the filter made of it.
		f.Skip = filterSkip(conv.filter)
		return f, nil
	case conv.encoding != "":
		f.Skip = encodingSkip(conv.encoding)
		return f, nil
	case f.Skip == "":
		f.Skip = pathSkip(c.Path)
	}

	// Sizes first: a file over the cap is never read.
	var newSize int64
	if inR {
		size, err := r.newSize(st, c, newV, ov, hasOv)
		if err != nil {
			return f, r.unreadable(f, err)
		}
		newSize = size
	}
	baseSize, err := r.blobSize(c.base)
	if err != nil {
		return f, r.unreadable(f, err)
	}
	if n := max(newSize, baseSize); n > r.sizeCap {
		f.Skip, f.OverCap = sizeSkip(n, r.sizeCap), n
		return f, nil
	}

	base, err := r.readBlob(c.base)
	if err != nil {
		return f, r.unreadable(f, err)
	}
	f.BaseNoEOL = len(base) > 0 && base[len(base)-1] != '\n'
	var data []byte
	if inR {
		if data, err = r.readNew(st, c, newV, ov, hasOv); err != nil {
			return f, r.unreadable(f, err)
		}
	}
	if isLFSPointer(base) || isLFSPointer(data) {
		// A Git LFS pointer without the filter attribute.
		f.Skip = filterSkip("lfs")
		return f, nil
	}
	// The work tree (or an editor buffer) is compared as git would store
	// it; Content stays as it is, with the same line numbers (conversion
	// only drops the CR of CRLF).
	clean := data
	if inR && !t.Staged {
		clean = conv.clean(data, func() bool { return st.indexCRLF(c.Path) })
	}
	if conv.diff == attrUnset || conv.diff != attrSet && (isBinary(base) || isBinary(clean)) {
		f.Skip = review.SkipBinary
		return f, nil
	}
	if f.Skip == "" && inR && isGenerated(data) {
		f.Skip = review.SkipGenerated
	}

	if c.Status == review.StatusRenamed && inR {
		// The similarity of what is diffed, which for a rename in the
		// index differs from the index's when the work tree is edited.
		f.Similarity = similarity(base, clean, conv.diff)
	}
	a, b := splitLines(base), splitLines(clean)
	final := diffLines(a, b)
	f.Hunks = final.hunks(a, b, contextLines)
	countLines(f)
	if f.Skip != "" || !inR || c.Status == review.StatusDeleted {
		return f, nil
	}
	f.Content = data
	if f.Content == nil {
		f.Content = []byte{}
	}
	if c.base.present() {
		f.Base = c.base.hash.String()
	}
	lines, err := r.lineStates(st, c, content{v: c.base, data: base, ok: true}, content{v: newV, data: clean, ok: true}, final)
	if err != nil {
		return f, r.unreadable(f, err)
	}
	f.Lines = lines
	return f, nil
}

// unreadable turns a failure to read one file's content into a skip reason,
// so that one missing object (a partial clone, say) does not fail the whole
// review. Context errors are returned.
func (r *Repo) unreadable(f *review.File, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	r.logger.Warn("read file content", "path", f.Path, "err", err)
	f.Skip = review.SkipReason("unreadable: " + err.Error())
	if nl := (*notLocalError)(nil); errors.As(err, &nl) {
		f.Skip = review.SkipReason(nl.Error())
	}
	f.Hunks, f.Added, f.Deleted, f.Content, f.Lines = nil, 0, 0, nil, nil
	return nil
}

// newSide returns the version of the reviewed content of c (the index for a
// staged review, the work tree otherwise; the hash may be unknown) and
// whether it exists.
func (r *Repo) newSide(st *state, c *Change) (version, bool) {
	if st.target.Staged {
		return c.index, c.index.present()
	}
	switch c.work.kind {
	case wtClean:
		return c.index, c.index.present()
	case wtModified, wtUntracked:
		return c.work.v, true
	}
	return version{}, false
}

// newVersion returns the reviewed version of a submodule.
func (r *Repo) newVersion(c *Change) version {
	if c.work.kind == wtModified {
		return c.work.v
	}
	if c.work.kind == wtAbsent {
		return version{}
	}
	return c.index
}

// subproject renders a gitlink as git diff does.
func subproject(v version) []byte {
	if !v.present() {
		return nil
	}
	return []byte("Subproject commit " + v.hash.String() + "\n")
}

// newSize returns the size of the reviewed content.
func (r *Repo) newSize(st *state, c *Change, v version, ov []byte, hasOv bool) (int64, error) {
	switch {
	case hasOv:
		return int64(len(ov)), nil
	case st.target.Staged || st.fromIndex(c):
		return r.blobSize(v)
	}
	fi, err := os.Lstat(st.abs(c.Path))
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// readNew reads the reviewed content.
func (r *Repo) readNew(st *state, c *Change, v version, ov []byte, hasOv bool) ([]byte, error) {
	switch {
	case hasOv:
		return ov, nil
	case st.target.Staged || st.fromIndex(c):
		return r.readBlob(v)
	case v.mode == modeSymlink:
		target, err := os.Readlink(st.abs(c.Path))
		return []byte(target), err
	}
	return regular.ReadFile(st.abs(c.Path))
}

// fromIndex reports whether the reviewed content of c is the index's
// although the review is of the work tree: a skip-worktree entry (outside
// a sparse checkout's cone) is not checked out, and git takes the index's
// version for it.
func (st *state) fromIndex(c *Change) bool {
	if c.work.kind != wtClean {
		return false
	}
	i, ok := st.idx.find(c.Path)
	return ok && st.idx.entries[i].skipWorkTr && st.idx.entries[i].stage == 0
}

func (st *state) abs(rel string) string {
	return filepath.Join(st.root, filepath.FromSlash(rel))
}

// countLines sets Added and Deleted from the hunks.
func countLines(f *review.File) {
	f.Added, f.Deleted = 0, 0
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch l[0] {
			case '+':
				f.Added++
			case '-':
				f.Deleted++
			}
		}
	}
}

// lineStates says, for each line added between the base and the reviewed
// content (final), where the change lives. The path's versions form a
// chain: base -> HEAD (committed, for a branch diff) -> index (staged) ->
// work tree (unstaged, or untracked). A line takes the state of the last
// step that added it, tracing it back through the lines each step kept.
func (r *Repo) lineStates(st *state, c *Change, base, final content, finalEdits edits) (map[int]review.LineState, error) {
	type step struct {
		to    content
		state review.LineState
	}
	var steps []step
	t := st.target
	switch {
	case t.Staged:
		steps = []step{{final, review.LineStaged}}
	case c.Untracked && !c.index.present() && !c.head.present():
		steps = []step{{final, review.LineUntracked}}
	default:
		if t.Kind == review.BranchDiff {
			steps = append(steps, step{content{v: c.head}, review.LineCommitted})
		}
		steps = append(steps, step{content{v: c.index}, review.LineStaged})
		last := review.LineUnstaged
		if c.Untracked {
			last = review.LineUntracked
		}
		steps = append(steps, step{final, last})
	}

	// Read each version, reusing equal ones, and diff consecutive ones.
	prev := base
	type link struct {
		ins     []bool
		toOld   []int
		state   review.LineState
		ident   bool
		newSize int
	}
	links := make([]link, len(steps))
	for i := range steps {
		cur := steps[i].to
		if !cur.ok {
			switch {
			case cur.v == prev.v:
				cur = prev
			case cur.v == final.v && final.v.hash != (plumbing.Hash{}):
				cur = final
			default:
				data, err := r.readBlob(cur.v)
				if err != nil {
					return nil, err
				}
				cur = content{v: cur.v, data: data, ok: true}
			}
		}
		l := link{state: steps[i].state}
		if i == len(steps)-1 && len(steps) == 1 {
			l.ins, l.toOld = finalEdits.ins, finalEdits.newToOld()
		} else if string(prev.data) == string(cur.data) {
			l.ident = true
		} else {
			a, b := splitLines(prev.data), splitLines(cur.data)
			e := diffLines(a, b)
			l.ins, l.toOld = e.ins, e.newToOld()
		}
		links[i] = l
		prev = cur
	}

	// The state of the last step that changed anything, for the rare line
	// that the final diff calls added but the chain traces to the base
	// (two diffs may align repeated lines differently).
	fallback := links[len(links)-1].state
	for i := len(links) - 1; i >= 0; i-- {
		if !links[i].ident {
			fallback = links[i].state
			break
		}
	}
	out := map[int]review.LineState{}
	for j, added := range finalEdits.ins {
		if !added {
			continue
		}
		state := fallback
		cur := j
		for i := len(links) - 1; i >= 0 && cur >= 0; i-- {
			l := &links[i]
			if l.ident {
				continue
			}
			if l.ins[cur] {
				state = l.state
				break
			}
			cur = l.toOld[cur]
		}
		out[j+1] = state
	}
	return out, nil
}

// readBlob reads the blob of v; an absent version reads as nothing.
func (r *Repo) readBlob(v version) ([]byte, error) {
	if !v.present() || v.mode == modeGitlink {
		return nil, nil
	}
	return r.readObject(plumbing.BlobObject, v.hash) // the store is safe for concurrent use
}

// ReadBlob returns the content of the blob with the given id (a
// [review.File.Base]).
func (r *Repo) ReadBlob(id string) ([]byte, error) {
	if !plumbing.IsHash(id) {
		return nil, fmt.Errorf("read blob %q: not an object id", id)
	}
	return r.readBlob(version{hash: plumbing.NewHash(id), mode: modeRegular})
}

// blobSize returns the size of the blob of v without reading it.
func (r *Repo) blobSize(v version) (int64, error) {
	if !v.present() || v.mode == modeGitlink {
		return 0, nil
	}
	n, err := r.store.objs.size(v.hash)
	if err != nil {
		return 0, r.objectErr("blob", v.hash, err)
	}
	return n, nil
}

// cleanRel turns a repo-relative path given by a caller into the canonical
// slash-separated form, rejecting paths that leave the work tree or enter
// .git.
func cleanRel(p string) (string, bool) {
	p = path.Clean(filepath.ToSlash(p))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return "", false
	}
	if p == ".git" || strings.HasPrefix(p, ".git/") || strings.Contains(p, "/.git/") || strings.HasSuffix(p, "/.git") {
		return "", false
	}
	return p, true
}
