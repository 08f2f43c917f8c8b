package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/reviewls/reviewls/review"
)

// LineOrigin says which commit last changed a line of a file at a commit.
type LineOrigin struct {
	Line    int    // 1-based line in the file at the base commit
	Commit  string // full hash; "" when unknown (beyond the limit or a shallow boundary)
	Author  string
	When    int64  // author time, Unix seconds
	Subject string // first line of the message
}

// LineHistory returns, for each of the given 1-based lines of path as it is
// at the target's base commit (t.BaseSHA; HEAD for local reviews), the
// commit that last changed it: `git blame --first-parent` for those lines
// only. The result has one LineOrigin per distinct line, sorted by line.
//
// It examines at most limit commits (DefaultHistoryLimit when <= 0),
// walking back from the base along first parents: a merge is compared with
// its first parent only, so a line brought in by a merged branch has its
// origin in the merge, which is what a reviewer of the mainline needs.
// Lines whose origin lies beyond the limit or a shallow boundary are
// reported with Commit "" (unknown). Lines past the end of the file, or
// below 1, are ignored. An unborn HEAD, or a path that is not a file at the
// base, gives an empty result.
//
// Each commit whose version of the file differs from its parent's is diffed
// with [Diff]'s algorithm, and the requested lines are carried back through
// the lines the commit kept; a line the commit added or modified has its
// origin there. The walk stops as soon as every line has an origin, so its
// cost is that of the commits between the base and the oldest origin, a
// tree lookup each plus a diff for those that changed the file. A rename
// is followed when the content moved unchanged (an exact rename, which
// costs a comparison of the two trees); a rename with edits is not, so
// the lines of the renamed file have their origin in the renaming commit,
// where git blame, which detects similar renames, would look further.
//
// LineHistory holds Repo.objMu only while it reads objects, one commit at a
// time, never while it diffs, so it can run beside a scan.
func (r *Repo) LineHistory(ctx context.Context, t review.Target, path string, lines []int, limit int) ([]LineOrigin, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = DefaultHistoryLimit
	}
	rel, ok := cleanRel(path)
	if !ok || t.BaseSHA == "" || len(lines) == 0 {
		return nil, nil
	}

	r.objMu.Lock()
	shallow, err := r.shallowCommits()
	if err != nil {
		r.objMu.Unlock()
		return nil, err
	}
	c, err := r.repo.CommitObject(plumbing.NewHash(t.BaseSHA))
	if err != nil {
		r.objMu.Unlock()
		return nil, fmt.Errorf("read commit %s: %w", review.ShortSHA(t.BaseSHA), err)
	}
	cur := newPathCursor(rel)
	v, err := cur.at(r, c.TreeHash)
	r.objMu.Unlock()
	if err != nil || !isFile(v) {
		return nil, err
	}
	data, err := r.readBlob(v)
	if err != nil {
		return nil, err
	}
	text := splitLines(data)

	// The requested lines, and where each is in the version being looked
	// at (0-based).
	want := slices.Clone(lines)
	slices.Sort(want)
	want = slices.Compact(want)
	var out []LineOrigin
	var at []int
	for _, l := range want {
		if l >= 1 && l <= len(text) {
			out = append(out, LineOrigin{Line: l})
			at = append(at, l-1)
		}
	}
	pending := len(out)
	found := func(c *object.Commit, i int) {
		out[i].Commit = c.Hash.String()
		out[i].Author = c.Author.Name
		out[i].When = c.Author.When.Unix()
		subject, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
		out[i].Subject = strings.TrimSpace(subject)
		at[i] = -1
		pending--
	}
	foundAll := func(c *object.Commit) {
		for i := range at {
			if at[i] >= 0 {
				found(c, i)
			}
		}
	}

	for examined := 0; pending > 0 && examined < limit; examined++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		step, err := r.blameStep(c, v, cur, shallow)
		if err != nil {
			return nil, err
		}
		switch {
		case step.boundary:
			return out, nil // the parent, and so the origin, is unknown
		case step.parent == nil || !isFile(step.v):
			foundAll(c) // a root commit, or the commit adding the path
			return out, nil
		case step.v.hash == v.hash:
			// The commit did not change the file: every line is the
			// parent's, at the same place.
			c, v = step.parent, step.v
			continue
		}
		pdata, err := r.readBlob(step.v)
		if err != nil {
			return nil, err
		}
		ptext := splitLines(pdata)
		e := diffLines(ptext, text)
		toOld := e.newToOld()
		for i, j := range at {
			switch {
			case j < 0:
			case e.ins[j]:
				found(c, i)
			default:
				at[i] = toOld[j]
			}
		}
		c, v, text = step.parent, step.v, ptext
	}
	return out, nil
}

// blameStep is one step back along the first parents of a commit.
type blameStep struct {
	parent   *object.Commit // nil for a root commit
	v        version        // the file in parent (after a rename, at its old path)
	boundary bool           // the parent is unknown: a shallow or incomplete history
}

// blameStep finds the first parent of c and the version of the file there.
// v is the file in c, found by cur, which moves on to the parent's tree
// (and to the old path of an exact rename).
func (r *Repo) blameStep(c *object.Commit, v version, cur *pathCursor, shallow map[plumbing.Hash]bool) (blameStep, error) {
	r.objMu.Lock()
	defer r.objMu.Unlock()
	if shallow[c.Hash] {
		return blameStep{boundary: true}, nil
	}
	if len(c.ParentHashes) == 0 {
		return blameStep{}, nil
	}
	p, err := r.repo.CommitObject(c.ParentHashes[0])
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return blameStep{boundary: true}, nil // a grafted or incomplete history
	}
	if err != nil {
		return blameStep{}, fmt.Errorf("read commit %s: %w", review.ShortSHA(c.ParentHashes[0].String()), err)
	}
	pv, err := cur.at(r, p.TreeHash)
	if err != nil {
		return blameStep{}, err
	}
	if !isFile(pv) && renameable(v) {
		from, err := r.exactRenameSource(c.TreeHash, p.TreeHash, v.hash, cur.path)
		if err != nil {
			return blameStep{}, err
		}
		if from != "" {
			*cur = *newPathCursor(from)
			if pv, err = cur.at(r, p.TreeHash); err != nil {
				return blameStep{}, err
			}
		}
	}
	return blameStep{parent: p, v: pv}, nil
}

// shallowCommits returns the shallow boundary of a shallow clone. Called
// with objMu held.
func (r *Repo) shallowCommits() (map[plumbing.Hash]bool, error) {
	hs, err := r.store.Shallow()
	if err != nil {
		return nil, fmt.Errorf("read shallow commits: %w", err)
	}
	m := make(map[plumbing.Hash]bool, len(hs))
	for _, h := range hs {
		m[h] = true
	}
	return m, nil
}

// isFile reports whether v is a file's content (a blob): present, and not
// a directory or a submodule.
func isFile(v version) bool {
	return v.present() && v.mode != modeTree && v.mode != modeGitlink
}

// pathCursor looks up one path in a sequence of root trees, typically the
// commits of a history walk, reading only the trees along the path that
// differ from those of the previous lookup: a file deep in a large
// repository costs one or two tree reads per commit.
type pathCursor struct {
	path  string
	parts []string
	// trees[i] is the tree holding parts[i] in the last lookup; it may
	// be shorter than parts when the path ended early (a missing
	// directory).
	trees []plumbing.Hash
	v     version // the result of the last lookup
}

func newPathCursor(rel string) *pathCursor {
	return &pathCursor{path: rel, parts: strings.Split(rel, "/")}
}

// at returns the entry at the cursor's path in the root tree root. Called
// with objMu held.
func (pc *pathCursor) at(r *Repo, root plumbing.Hash) (version, error) {
	t := root
	for i, name := range pc.parts {
		if i < len(pc.trees) && pc.trees[i] == t {
			// The same tree as last time: the same entry below.
			return pc.v, nil
		}
		if i < len(pc.trees) {
			pc.trees[i] = t
		} else {
			pc.trees = append(pc.trees, t)
		}
		var e version
		if !t.IsZero() {
			ents, err := r.readTree(t)
			if err != nil {
				pc.trees = pc.trees[:0] // no longer a record of a lookup
				return version{}, err
			}
			e = findEntry(ents, name)
		}
		if i == len(pc.parts)-1 {
			pc.v = e
			return e, nil
		}
		if e.mode != modeTree {
			pc.trees, pc.v = pc.trees[:i+1], version{}
			return version{}, nil
		}
		t = e.hash
	}
	return version{}, nil // unreachable: parts is never empty
}

// exactRenameSource returns the path of a file of tree p (the parent) that
// tree c (the child) no longer has and whose content is blob, preferring
// the base name of dst: the source of an exact rename to dst, or "". Only
// the subtrees that differ are read. Called with objMu held.
func (r *Repo) exactRenameSource(c, p, blob plumbing.Hash, dst string) (string, error) {
	var first, sameBase string
	var walk func(c, p plumbing.Hash, prefix string) error
	walk = func(c, p plumbing.Hash, prefix string) error {
		if c == p || p.IsZero() || sameBase != "" {
			return nil
		}
		var cents []treeEntry
		if !c.IsZero() {
			var err error
			if cents, err = r.readTree(c); err != nil {
				return err
			}
		}
		pents, err := r.readTree(p)
		if err != nil {
			return err
		}
		names := make(map[string]treeEntry, len(cents))
		for _, e := range cents {
			names[e.name] = e
		}
		for _, pe := range pents {
			ce, inC := names[pe.name]
			switch {
			case pe.mode == modeTree:
				sub := plumbing.ZeroHash
				if inC && ce.mode == modeTree {
					sub = ce.hash
				}
				if err := walk(sub, pe.hash, prefix+pe.name+"/"); err != nil {
					return err
				}
			case pe.hash == blob && pe.mode != modeGitlink && (!inC || ce.mode == modeTree):
				src := prefix + pe.name
				if first == "" {
					first = src
				}
				if path.Base(src) == path.Base(dst) {
					sameBase = src
					return nil
				}
			}
		}
		return nil
	}
	if err := walk(c, p, ""); err != nil {
		return "", err
	}
	if sameBase != "" {
		return sameBase, nil
	}
	return first, nil
}
