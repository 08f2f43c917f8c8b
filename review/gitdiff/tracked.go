package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/review"
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
	return r.readIndex()
}

// trackedFiles lists the files of idx that f keeps. Index entries are
// sorted by name, then stage, so the stages of an unmerged path are
// adjacent, the entries below a directory are contiguous, and the output
// is sorted without sorting.
func trackedFiles(idx *index, f *globFilter) []string {
	ents := idx.entries
	skipLo, skipHi := idx.dirRange(trackingDir)
	out := make([]string, 0, len(ents)-(skipHi-skipLo))
	var dir string    // directory of the last entry looked at
	var dirOut bool   // whether f leaves out everything below dir
	dirKnown := false // whether dir and dirOut are set
	for i := 0; i < len(ents); {
		if i == skipLo && skipLo < skipHi {
			i = skipHi
			continue
		}
		e := &ents[i]
		name := e.name
		// A path is kept when one of its stages is not a gitlink (a
		// conflict between a submodule and a file is rare but possible).
		keep := e.mode != modeGitlink
		i++
		for e.stage != 0 && i < len(ents) && ents[i].name == name {
			keep = keep || ents[i].mode != modeGitlink
			i++
		}
		if !keep || name == trackingDir {
			continue
		}
		if f.empty() {
			out = append(out, name)
			continue
		}
		k := strings.LastIndexByte(name, '/')
		if d := name[:max(k, 0)]; !dirKnown || d != dir {
			dir, dirOut, dirKnown = d, f.dirExcluded(d), true
		}
		if dirOut || f.fileExcluded(name, name[k+1:]) {
			continue
		}
		out = append(out, name)
	}
	return out
}

// globFilter decides what [pathFilter] decides (the paths of
// Options.Ignore and the tracking folder) for many paths in index order,
// at a fraction of the cost: globs of the form "P/**" are settled once per
// directory, and every glob first checks the last path component against
// the literal end of its own last component (".pb.go" in "**/*.pb.go"),
// which rejects most paths without running doublestar.
type globFilter struct {
	// dirGlobs are the globs "P/**", with dir set to P: a path is
	// matched when one of its directories matches P, or the path itself
	// matches the whole glob (usually when it matches P; doublestar has
	// exceptions, "x*/**" does not match "x").
	dirGlobs []glob
	// other globs are matched against the whole path.
	other []glob
	// dirs memoizes dirExcluded.
	dirs map[string]bool
}

// glob is a doublestar pattern with a cheap necessary condition on the
// last component of a matching path: equal to base (when set), or else
// ending with suffix.
type glob struct {
	pattern      string
	dir          string // P of a pattern "P/**"
	base, suffix string
}

func newGlob(pattern string) glob {
	g := glob{pattern: pattern}
	last := pattern
	if p, ok := strings.CutSuffix(pattern, "/**"); ok {
		g.dir, last = p, p
	}
	last = last[strings.LastIndexByte(last, '/')+1:]
	const meta = `*?[]{}\`
	switch {
	case last == "":
	case !strings.ContainsAny(last, meta):
		g.base = last
	case last[0] == '*' && !strings.ContainsAny(last[1:], meta):
		// "*" never matches a slash: the last component ends with the
		// rest.
		g.suffix = last[1:]
	}
	return g
}

// match reports whether the path p matches pattern (or dir when isDir),
// given p's last component.
func (g *glob) match(p, last string, isDir bool) bool {
	if g.base != "" && last != g.base || g.suffix != "" && !strings.HasSuffix(last, g.suffix) {
		return false
	}
	pattern := g.pattern
	if isDir {
		pattern = g.dir
	}
	ok, _ := doublestar.Match(pattern, p)
	return ok
}

func newGlobFilter(globs []string) *globFilter {
	f := &globFilter{dirs: map[string]bool{}}
	for _, p := range globs {
		if g := newGlob(p); g.dir != "" {
			f.dirGlobs = append(f.dirGlobs, g)
		} else {
			f.other = append(f.other, g)
		}
	}
	return f
}

// empty reports whether f leaves out nothing but the tracking folder.
func (f *globFilter) empty() bool { return len(f.dirGlobs) == 0 && len(f.other) == 0 }

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
	out := d == trackingDir || f.dirExcluded(parent) || f.matchDirGlob(d, strings.TrimPrefix(d[len(parent):], "/"), true)
	f.dirs[d] = out
	return out
}

// matchDirGlob reports whether p, whose last component is last, matches
// one of the globs "P/**": their P when isDir, the whole glob otherwise.
func (f *globFilter) matchDirGlob(p, last string, isDir bool) bool {
	for i := range f.dirGlobs {
		if f.dirGlobs[i].match(p, last, isDir) {
			return true
		}
	}
	return false
}

// fileExcluded reports whether the path p, whose directory is not
// excluded and whose last component is last, is left out.
func (f *globFilter) fileExcluded(p, last string) bool {
	if p == trackingDir || f.matchDirGlob(p, last, false) {
		return true
	}
	for i := range f.other {
		if f.other[i].match(p, last, false) {
			return true
		}
	}
	return false
}

// TrackedFile is one committed file as a whole-tree scan reads it: its
// content, or why it is not reviewed.
type TrackedFile struct {
	Path    string
	Content []byte
	// Skip is the reason the file is not reviewed, as a review gives it
	// (vendored, lock file, binary, generated, over the size cap, a
	// symbolic link); Content is nil then.
	Skip review.SkipReason
}

// CommittedFile is one file of a commit's tree, as [Repo.CommittedFiles]
// lists it for a whole-tree scan.
type CommittedFile struct {
	Path string
	v    version
}

// CommittedFiles returns the files of the tree of commit sha (HEAD's, for
// a baseline: the committed content, never the index or the work tree),
// repo-relative, slash-separated and sorted as [Repo.TrackedFiles] lists
// the index: submodules, the paths matched by [Options.Ignore] and
// reviewls's own folder left out. An empty sha (an unborn HEAD) has none.
func (r *Repo) CommittedFiles(ctx context.Context, sha string) ([]CommittedFile, error) {
	tree, err := r.commitTree(sha)
	if err != nil || tree.IsZero() {
		return nil, err
	}
	f := newGlobFilter(r.ignore)
	var out []CommittedFile
	var walk func(t plumbing.Hash, dir string) error
	walk = func(t plumbing.Hash, dir string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		ents, err := r.readTree(t)
		if err != nil {
			return err
		}
		for _, e := range ents {
			p := dir + e.name
			switch {
			case e.mode == modeTree:
				if !f.dirExcluded(p) {
					if err := walk(e.hash, p+"/"); err != nil {
						return err
					}
				}
			case e.mode != modeGitlink && !f.fileExcluded(p, e.name):
				out = append(out, CommittedFile{Path: p, v: version{hash: e.hash, mode: e.mode}})
			}
		}
		return nil
	}
	r.objMu.Lock()
	err = walk(tree, "")
	r.objMu.Unlock()
	if err != nil {
		return nil, err
	}
	// Tree order sorts a directory as if its name ended in "/".
	slices.SortFunc(out, func(a, b CommittedFile) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// ReadCommitted reads a file of [Repo.CommittedFiles] for a whole-tree
// scan, applying the skips of a review. It is safe for concurrent use.
func (r *Repo) ReadCommitted(f CommittedFile) (*TrackedFile, error) {
	tf := &TrackedFile{Path: f.Path}
	if tf.Skip = pathSkip(f.Path); tf.Skip != "" {
		return tf, nil
	}
	if f.v.mode == modeSymlink {
		tf.Skip = review.SkipSymlink
		return tf, nil
	}
	n, err := r.blobSize(f.v)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Path, err)
	}
	if n > r.sizeCap {
		tf.Skip = sizeSkip(n, r.sizeCap)
		return tf, nil
	}
	data, err := r.readBlob(f.v)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Path, err)
	}
	switch {
	case isBinary(data):
		tf.Skip = review.SkipBinary
	case isGenerated(data):
		tf.Skip = review.SkipGenerated
	default:
		tf.Content = data
	}
	return tf, nil
}
