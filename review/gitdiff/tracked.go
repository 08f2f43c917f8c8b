package gitdiff

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// TrackedFiles returns the paths of the files in the index, repo-relative,
// slash-separated and sorted (byte order, as `git ls-files`): stage-0
// entries, unmerged paths once, intent-to-add and skip-worktree entries
// included, submodules left out. The paths matched by [Options.Ignore] and
// reviewls's own folder (.copilot-tracking) are left out.
//
// The index is the one cached by the last [Repo.Status] or [Repo.Scan]
// while the index file is unchanged since (a moved HEAD does not change
// what is tracked); otherwise it is read once, and not cached. The cost is
// one pass over the entries: a few milliseconds for 40,000 of them.
func (r *Repo) TrackedFiles() ([]string, error) {
	idx, err := r.currentIndex()
	if err != nil {
		return nil, err
	}
	return trackedFiles(idx, newGlobFilter(r.ignore)), nil
}

// currentIndex returns the index of the last scan when the index file has
// not changed since, or reads it.
func (r *Repo) currentIndex() (*index, error) {
	r.mu.Lock()
	st := r.snap
	r.mu.Unlock()
	if st != nil {
		s, err := statPath(r.indexPath)
		switch {
		case errors.Is(err, os.ErrNotExist):
			if st.idx.id == (fileID{}) {
				return st.idx, nil
			}
		case err != nil:
			return nil, fmt.Errorf("read index: %w", err)
		case s.id() == st.idx.id:
			return st.idx, nil
		}
	}
	return readIndex(r.indexPath)
}

// trackedFiles lists the files of idx that f keeps. Index entries are
// sorted by name, then stage, so the stages of an unmerged path are
// adjacent and the output is sorted without sorting.
func trackedFiles(idx *index, f *globFilter) []string {
	out := make([]string, 0, len(idx.entries))
	ents := idx.entries
	var dir string    // directory of the last entry looked at
	var dirOut bool   // whether f leaves out everything below dir
	dirKnown := false // whether dir and dirOut are set
	for i := 0; i < len(ents); {
		name := ents[i].name
		// A path is kept when one of its stages is not a gitlink (a
		// conflict between a submodule and a file is rare but possible).
		keep := false
		j := i
		for ; j < len(ents) && ents[j].name == name; j++ {
			keep = keep || ents[j].mode != modeGitlink
		}
		i = j
		if !keep {
			continue
		}
		d := ""
		if k := strings.LastIndexByte(name, '/'); k >= 0 {
			d = name[:k]
		}
		if !dirKnown || d != dir {
			dir, dirOut, dirKnown = d, f.dirExcluded(d), true
		}
		if dirOut || f.fileExcluded(name) {
			continue
		}
		out = append(out, name)
	}
	return out
}

// globFilter decides what [pathFilter] decides, the paths of
// Options.Ignore and the tracking folder, for many paths at once: it
// settles globs of the form "P/**" once per directory and matches globs of
// the form "**/B" (B without a slash) against the base name only, which
// costs a tenth of matching the whole path with doublestar.
type globFilter struct {
	// dirGlobs are the P of globs "P/**": a path is matched when it or
	// one of its directories matches P.
	dirGlobs []string
	// baseGlobs are the B of globs "**/B": a path is matched when its
	// base name matches B.
	baseGlobs []string
	// other globs are matched against the whole path.
	other []string
	// dirs memoizes dirExcluded.
	dirs map[string]bool
}

func newGlobFilter(globs []string) *globFilter {
	f := &globFilter{dirs: map[string]bool{}}
	for _, g := range globs {
		if p, ok := strings.CutSuffix(g, "/**"); ok {
			f.dirGlobs = append(f.dirGlobs, p)
			continue
		}
		// "**/" matches any number of leading directories, none included.
		if b, ok := strings.CutPrefix(g, "**/"); ok && !strings.Contains(b, "/") && !strings.Contains(b, "**") {
			f.baseGlobs = append(f.baseGlobs, b)
			continue
		}
		f.other = append(f.other, g)
	}
	return f
}

// dirExcluded reports whether everything below directory d ("" for the
// root) is left out: d or a directory above it is the tracking folder or
// matches the P of a glob "P/**".
func (f *globFilter) dirExcluded(d string) bool {
	if d == "" {
		return false
	}
	if out, ok := f.dirs[d]; ok {
		return out
	}
	parent := ""
	if k := strings.LastIndexByte(d, '/'); k >= 0 {
		parent = d[:k]
	}
	out := d == trackingDir || f.dirExcluded(parent) || f.matchDir(d)
	f.dirs[d] = out
	return out
}

func (f *globFilter) matchDir(p string) bool {
	for _, g := range f.dirGlobs {
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}

// fileExcluded reports whether the path p, whose directory is not
// excluded, is left out.
func (f *globFilter) fileExcluded(p string) bool {
	if p == trackingDir || f.matchDir(p) {
		return true
	}
	if len(f.baseGlobs) > 0 {
		base := p[strings.LastIndexByte(p, '/')+1:]
		for _, g := range f.baseGlobs {
			if ok, _ := doublestar.Match(g, base); ok {
				return true
			}
		}
	}
	for _, g := range f.other {
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}
