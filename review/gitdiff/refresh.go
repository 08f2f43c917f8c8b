package gitdiff

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/review"
)

// Refresh re-diffs only the given paths of prev (repo-relative or absolute;
// a directory stands for everything below it) and returns a new change set
// that shares the unchanged *review.File values of prev. A file that became
// clean disappears; a new untracked, non-ignored file appears. overlay
// applies to the refreshed paths.
//
// Refresh reuses the index, the HEAD and base comparisons and the ignore
// rules cached by the last Scan of prev's target, so refreshing one file
// costs a few system calls and its own diff. When a refreshed path takes
// part in the work tree's rename detection (a deleted, added or untracked
// file, or one of a rename found in the work tree), prev's other such
// paths are classified again and paired anew with it; those that come
// out unchanged keep their file. When that cache cannot be
// trusted it falls back to a full scan: when HEAD (or the ref it points
// to) or the index moved since (see [Repo.Moved]; the target is then
// resolved again, so HEAD's new commit is reviewed), when the last scan was
// of another target, or when a refreshed path is a .gitignore or
// .gitattributes file. A change of info/exclude, core.excludesFile,
// info/attributes, core.attributesFile or the git configuration is only
// seen by a full scan.
func (r *Repo) Refresh(ctx context.Context, prev *review.ChangeSet, overlay map[string][]byte, paths ...string) (*review.ChangeSet, error) {
	if prev == nil {
		return nil, errors.New("refresh: no previous change set")
	}
	r.mu.Lock()
	st := r.snap
	r.mu.Unlock()
	if st == nil || !sameTarget(st.target, prev.Target) {
		return r.Scan(ctx, prev.Target, overlay)
	}
	moved, err := r.movedSince(st)
	if err != nil {
		return nil, err
	}
	if moved {
		base := ""
		if prev.Target.Kind == review.BranchDiff {
			base = prev.Target.BaseRef
		}
		t, err := r.Resolve(ctx, prev.Target.Staged, base)
		if err != nil {
			return nil, err
		}
		r.logger.DebugContext(ctx, "refresh: HEAD or index moved, scanning", "head", t.HeadSHA)
		return r.Scan(ctx, t, overlay)
	}
	if prev.Target.Staged {
		// Only the index is reviewed, and it has not moved.
		cs := &review.ChangeSet{Root: prev.Root, Target: prev.Target, Ignored: append([]*review.File(nil), prev.Ignored...)}
		for _, f := range prev.Files {
			if f.Skip != review.SkipIgnored {
				cs.Files = append(cs.Files, f)
			}
		}
		return cs, nil
	}

	start := time.Now()
	rels, dirs, full := r.refreshPaths(paths)
	if full {
		return r.Scan(ctx, prev.Target, overlay)
	}

	// Observe every affected path: the named files, and whatever the walk
	// of the named directories finds.
	obs := map[string]wtObs{}
	tracked := map[string]bool{}
	h := &hasher{repo: r, now: start}
	var seeds []dirJob
	for _, rel := range rels {
		o, isTracked, ok := st.observePath(rel, h)
		if ok {
			obs[rel], tracked[rel] = o, isTracked
		}
		if lo, hi := st.idx.dirRange(rel); lo < hi && !dirs[rel] {
			// A tracked directory replaced by a file, or gone.
			seeds = append(seeds, dirJob{rel: rel, lo: lo, hi: hi, excluded: true})
		}
	}
	for rel := range dirs {
		if _, isTracked := st.idx.find(rel); isTracked {
			// A submodule (compare its commit, never enter it), or a
			// tracked file replaced by a directory.
			if o, isTracked, ok := st.observePath(rel, h); ok {
				obs[rel], tracked[rel] = o, isTracked
			}
			if st.idx.isGitlink(rel) {
				continue
			}
		}
		parent := path.Dir(rel)
		if parent == "." {
			parent = ""
		}
		frame, excluded, hidden := st.dirContext(parent)
		if hidden {
			continue
		}
		lo, hi := st.idx.dirRange(rel)
		excluded = excluded || frame.excluded(rel, true) || st.filter.pruneDir(rel)
		if lo == hi {
			if excluded {
				continue // an ignored directory without tracked files
			}
			if _, nested, _ := dotGit(st.abs(rel)); nested {
				obs[rel] = wtObs{kind: wtNested}
				continue
			}
		}
		seeds = append(seeds, dirJob{rel: rel, lo: lo, hi: hi, frame: frame, excluded: excluded})
	}
	if len(seeds) > 0 {
		res, err := st.walk(ctx, h, seeds)
		if err != nil {
			return nil, err
		}
		for _, s := range seeds {
			for i := s.lo; i < s.hi; i++ {
				p := st.idx.entries[i].name
				if i > 0 && st.idx.entries[i-1].name == p {
					continue // a later stage of an unmerged path
				}
				o, dirty := res.dirty[i]
				if !dirty {
					o = wtObs{kind: wtClean}
				}
				obs[p], tracked[p] = o, true
			}
		}
		for p, o := range res.untracked {
			obs[p], tracked[p] = o, false
		}
	}
	ov := cleanOverlay(overlay)
	applyOverlay := func(rel string) {
		if data, ok := ov[rel]; ok {
			if o, isTracked, ok := st.observeOverlay(rel, data); ok {
				obs[rel], tracked[rel] = o, isTracked
			}
		}
	}
	for rel := range ov {
		if _, affected := obs[rel]; affected || under(rel, dirs) {
			applyOverlay(rel)
		}
	}

	// Classify them; prev's files under a refreshed path that were not
	// observed again are gone.
	var changes, ignored []Change
	classify := func(p string) {
		if c, ok := st.classify(p, obs[p], tracked[p]); ok {
			changes = append(changes, c)
		} else if c, ok := st.classifyIgnored(p, obs[p], tracked[p]); ok {
			ignored = append(ignored, c)
		}
	}
	for p := range obs {
		classify(p)
	}
	// The work tree round of rename detection pairs paths with each
	// other: when a refreshed path takes part, the paths of prev that do
	// are classified again and paired anew, and those that come out as
	// they were keep their file.
	extra := map[string]bool{}
	if cands := st.renameCandidates(prev, obs, changes); cands != nil {
		for _, p := range cands {
			if _, ok := obs[p]; ok {
				continue
			}
			if o, isTracked, ok := st.observePath(p, h); ok {
				obs[p], tracked[p], extra[p] = o, isTracked, true
				applyOverlay(p)
				classify(p)
			}
		}
		changes = st.pairWorkTree(ctx, changes, overlay)
	}
	var build []Change
	var kept []*review.File
	for _, c := range changes {
		if f := prev.File(c.Path); extra[c.Path] && f != nil && f.Status == c.Status && f.OldPath == c.OldPath {
			kept = append(kept, f)
			continue
		}
		build = append(build, c)
	}
	files, err := r.buildFiles(ctx, st, build, overlay)
	if err != nil {
		return nil, err
	}
	cs := &review.ChangeSet{Root: prev.Root, Target: prev.Target}
	refreshed := func(f *review.File) bool {
		_, affected := obs[f.Path]
		return affected || under(f.Path, dirs) || contains(rels, f.Path)
	}
	for _, f := range prev.Files {
		// A review lists an ignored file that holds a secret in Files;
		// Ignored says whether it still is one.
		if !refreshed(f) && f.Skip != review.SkipIgnored {
			cs.Files = append(cs.Files, f)
		}
	}
	cs.Files = append(append(cs.Files, kept...), files...)
	for _, f := range prev.Ignored {
		if !refreshed(f) {
			cs.Ignored = append(cs.Ignored, f)
		}
	}
	cs.Ignored = append(cs.Ignored, ignoredFiles(ignored)...)
	cs.Sort()
	r.logger.DebugContext(ctx, "refresh", "paths", len(paths), "files", len(files), "elapsed", time.Since(start))
	return cs, nil
}

// refreshPaths turns the caller's paths into clean repo-relative ones,
// splitting off the directories. full reports that a full scan is needed.
func (r *Repo) refreshPaths(paths []string) (rels []string, dirs map[string]bool, full bool) {
	dirs = map[string]bool{}
	for _, p := range paths {
		if filepath.IsAbs(p) {
			rel, err := filepath.Rel(r.root, p)
			if err != nil {
				continue
			}
			p = rel
		}
		if c := path.Clean(filepath.ToSlash(p)); c == "." || c == "" {
			return nil, nil, true
		}
		rel, ok := cleanRel(p)
		if !ok {
			continue
		}
		if b := path.Base(rel); b == ".gitignore" || b == ".gitattributes" {
			return nil, nil, true
		}
		if fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(rel))); err == nil && fi.IsDir() {
			dirs[rel] = true
			continue
		}
		rels = append(rels, rel)
	}
	// A directory covers the paths below it.
	sort.Strings(rels)
	keep := rels[:0]
	for _, rel := range rels {
		if !under(rel, dirs) {
			keep = append(keep, rel)
		}
	}
	for d := range dirs {
		if under(d, dirs) {
			delete(dirs, d)
		}
	}
	return keep, dirs, false
}

// under reports whether p lies strictly below one of dirs.
func under(p string, dirs map[string]bool) bool {
	for i := strings.IndexByte(p, '/'); i >= 0; {
		if dirs[p[:i]] {
			return true
		}
		j := strings.IndexByte(p[i+1:], '/')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return false
}

func contains(s []string, x string) bool {
	i := sort.SearchStrings(s, x)
	return i < len(s) && s[i] == x
}

// observePath observes one path that is not a directory: tracked, it is
// compared with its index entry; untracked, it counts when it exists and is
// not ignored. ok is false when there is nothing to observe (an untracked
// path that is gone, ignored or inside a nested repository).
func (st *state) observePath(rel string, h *hasher) (obs wtObs, tracked, ok bool) {
	if i, isTracked := st.idx.find(rel); isTracked {
		if !st.leadingDirsOK(rel) {
			return wtObs{kind: wtAbsent}, true, true
		}
		dir, name := st.parentDir(rel)
		return st.observeTracked(i, dir, name, h), true, true
	}
	fi, err := os.Lstat(st.abs(rel))
	if err != nil || fi.IsDir() {
		return wtObs{}, false, true // gone: whatever prev listed vanishes
	}
	if !st.untrackedVisible(rel) {
		return wtObs{}, false, true
	}
	mode := uint32(modeRegular)
	switch {
	case fi.Mode().Type() == os.ModeSymlink:
		mode = modeSymlink
	case !fi.Mode().IsRegular():
		mode = modeSpecial
	}
	return wtObs{kind: wtUntracked, v: version{mode: mode}}, false, true
}

// leadingDirsOK reports whether every directory above rel is a real
// directory: git does not follow a symbolic link in the middle of a
// tracked path.
func (st *state) leadingDirsOK(rel string) bool {
	for i := strings.IndexByte(rel, '/'); i >= 0; {
		fi, err := os.Lstat(st.abs(rel[:i]))
		if err != nil || !fi.IsDir() {
			return false
		}
		j := strings.IndexByte(rel[i+1:], '/')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return true
}

// untrackedVisible reports whether an untracked file at rel would be listed
// by a scan: not ignored, not below an ignored directory, a nested
// repository or a submodule.
func (st *state) untrackedVisible(rel string) bool {
	dir := path.Dir(rel)
	if dir == "." {
		dir = ""
	}
	frame, excluded, hidden := st.dirContext(dir)
	return !hidden && !excluded && !frame.excluded(rel, false) && st.leadingDirsOK(rel)
}

// dirContext returns the ignore frame in effect inside directory dir
// ("" for the root), whether dir is excluded (it or a directory above it is
// ignored: only tracked files count below it), and whether it is hidden
// (inside a submodule or a nested repository, which are never entered).
func (st *state) dirContext(dir string) (frame *ignoreFrame, excluded, hidden bool) {
	frame = st.frameOf("", st.ignore)
	if dir == "" {
		return frame, false, false
	}
	cur := ""
	for _, c := range strings.Split(dir, "/") {
		if cur == "" {
			cur = c
		} else {
			cur += "/" + c
		}
		if c == ".git" || st.idx.isGitlink(cur) {
			return frame, excluded, true
		}
		lo, hi := st.idx.dirRange(cur)
		if !excluded && (frame.excluded(cur, true) || st.filter.pruneDir(cur)) {
			excluded = true
		}
		if lo == hi && !excluded {
			if _, nested, _ := dotGit(st.abs(cur)); nested {
				return frame, excluded, true
			}
		}
		if !excluded {
			frame = st.frameOf(cur, frame)
		}
	}
	return frame, excluded, false
}

// frameOf returns the ignore frame inside dir, from the last walk or read
// now on top of parent.
func (st *state) frameOf(dir string, parent *ignoreFrame) *ignoreFrame {
	if f, ok := st.frames[dir]; ok {
		return f
	}
	return dirFrame(st.root, dir, parent)
}

// isGitlink reports whether the index records a submodule at p.
func (idx *index) isGitlink(p string) bool {
	i, ok := idx.find(p)
	return ok && idx.entries[i].mode == modeGitlink
}

// Moved reports whether HEAD (or the ref it points to) or the index changed
// since the last Status or Scan, which Refresh then answers with a full
// scan. It is true before the first scan.
func (r *Repo) Moved() (bool, error) {
	return r.moved(nil)
}

// MovedFrom is Moved for a target just resolved: HEAD is taken from t
// rather than read again.
func (r *Repo) MovedFrom(t review.Target) (bool, error) {
	head := refState{hash: plumbing.NewHash(t.HeadSHA)} // "" is the zero hash: unborn
	if !t.Detached {
		head.symref = t.HeadRef
	}
	return r.moved(&head)
}

// moved is Moved with HEAD as given, or read from the ref files when nil.
func (r *Repo) moved(head *refState) (bool, error) {
	r.mu.Lock()
	st := r.snap
	r.mu.Unlock()
	if st == nil {
		return true, nil
	}
	if head == nil {
		return r.movedSince(st)
	}
	return r.movedSinceHead(st, *head)
}

func (r *Repo) movedSince(st *state) (bool, error) {
	head, err := readHead(r.gitDir, r.commonDir)
	if err != nil {
		return false, err
	}
	return r.movedSinceHead(st, head)
}

func (r *Repo) movedSinceHead(st *state, head refState) (bool, error) {
	if head != st.head {
		return true, nil
	}
	s, err := statPath(r.indexPath)
	if errors.Is(err, os.ErrNotExist) {
		return st.idx.id != fileID{}, nil
	}
	if err != nil {
		return false, err
	}
	return s.id() != st.idx.id, nil
}

// sameTarget reports whether two targets describe the same review.
func sameTarget(a, b review.Target) bool {
	return a.Kind == b.Kind && a.BaseRef == b.BaseRef && a.BaseSHA == b.BaseSHA &&
		a.HeadSHA == b.HeadSHA && a.Staged == b.Staged && a.Unborn == b.Unborn
}
