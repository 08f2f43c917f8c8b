package gitdiff

import (
	"container/heap"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// The merge-base is computed here as git computes it (commit-reach.c,
// paint_down_to_common): walking both histories newest first and stopping
// as soon as every commit left to walk is below a common ancestor. go-git's
// Commit.MergeBase walks the whole history of the newer side instead,
// which in a shallow clone runs into the parents cut off at the boundary
// ("object not found") even when the merge-base is within reach.

// Paint flags of the merge-base walk.
const (
	mbParent1 uint8 = 1 << iota // reachable from the first commit
	mbParent2                   // reachable from the second
	mbStale                     // below a common ancestor
	mbResult                    // recorded as a candidate
)

// mergeBaseWalker walks commits for merge-bases. Shallow commits (listed
// in the shallow file) have no parents, as for git. Called with objMu held.
type mergeBaseWalker struct {
	r       *Repo
	shallow map[plumbing.Hash]bool
	commits map[plumbing.Hash]*object.Commit
	// boundary records that the walk reached a shallow commit, whose
	// history is not local.
	boundary bool
}

func (r *Repo) newMergeBaseWalker() (*mergeBaseWalker, error) {
	shallow, err := r.shallowCommits()
	if err != nil {
		return nil, err
	}
	return &mergeBaseWalker{r: r, shallow: shallow, commits: map[plumbing.Hash]*object.Commit{}}, nil
}

func (w *mergeBaseWalker) parents(c *object.Commit) ([]*object.Commit, error) {
	if w.shallow[c.Hash] {
		w.boundary = true
		return nil, nil
	}
	ps := make([]*object.Commit, 0, len(c.ParentHashes))
	for _, h := range c.ParentHashes {
		p, ok := w.commits[h]
		if !ok {
			var err error
			if p, err = w.r.repo.CommitObject(h); err != nil {
				return nil, w.r.objectErr("commit", h, err)
			}
			w.commits[h] = p
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// mergeBases returns the best common ancestors of a and b: the common
// ancestors that are not ancestors of another one (`git merge-base --all`).
func (w *mergeBaseWalker) mergeBases(a, b *object.Commit) ([]*object.Commit, error) {
	if a.Hash == b.Hash {
		return []*object.Commit{a}, nil
	}
	res, err := w.paint(a, []*object.Commit{b}, map[plumbing.Hash]uint8{})
	if err != nil || len(res) <= 1 {
		return res, err
	}
	// Criss-cross merges leave several candidates: drop those reachable
	// from another (git's remove_redundant).
	redundant := make([]bool, len(res))
	for i := range res {
		if redundant[i] {
			continue
		}
		var others []*object.Commit
		var at []int
		for j := range res {
			if j != i && !redundant[j] {
				others, at = append(others, res[j]), append(at, j)
			}
		}
		flags := map[plumbing.Hash]uint8{}
		if _, err := w.paint(res[i], others, flags); err != nil {
			return nil, err
		}
		if flags[res[i].Hash]&mbParent2 != 0 {
			redundant[i] = true
		}
		for k, o := range others {
			if flags[o.Hash]&mbParent1 != 0 {
				redundant[at[k]] = true
			}
		}
	}
	var out []*object.Commit
	for i, c := range res {
		if !redundant[i] {
			out = append(out, c)
		}
	}
	return out, nil
}

// paint walks from one (flag mbParent1) and twos (mbParent2) newest first,
// and returns the commits reached from both that are not below another
// such commit. flags records what was painted.
func (w *mergeBaseWalker) paint(one *object.Commit, twos []*object.Commit, flags map[plumbing.Hash]uint8) ([]*object.Commit, error) {
	q := &commitQueue[*object.Commit]{}
	seq := 0
	push := func(c *object.Commit) {
		heap.Push(q, queued[*object.Commit]{c, c.Committer.When.Unix(), seq})
		seq++
	}
	flags[one.Hash] |= mbParent1
	push(one)
	for _, c := range twos {
		flags[c.Hash] |= mbParent2
		push(c)
	}
	var res []*object.Commit
	for w.nonStale(q, flags) {
		c := heap.Pop(q).(queued[*object.Commit]).c
		f := flags[c.Hash] & (mbParent1 | mbParent2 | mbStale)
		if f == mbParent1|mbParent2 {
			if flags[c.Hash]&mbResult == 0 {
				flags[c.Hash] |= mbResult
				res = append(res, c)
			}
			f |= mbStale // its ancestors are no better
		}
		ps, err := w.parents(c)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if flags[p.Hash]&f == f {
				continue
			}
			flags[p.Hash] |= f
			push(p)
		}
	}
	out := res[:0]
	for _, c := range res {
		if flags[c.Hash]&mbStale == 0 {
			out = append(out, c)
		}
	}
	return out, nil
}

// nonStale reports whether the queue holds a commit still worth walking.
func (w *mergeBaseWalker) nonStale(q *commitQueue[*object.Commit], flags map[plumbing.Hash]uint8) bool {
	for _, e := range *q {
		if flags[e.c.Hash]&mbStale == 0 {
			return true
		}
	}
	return false
}

// errShallow describes a revision or merge-base that the history of a
// shallow clone does not reach, and how to get more of it.
func errShallow(what, where string) error {
	return fmt.Errorf("%s %s the history of this shallow clone (.git/shallow lists its boundary); "+
		"deepen it with 'git fetch --deepen=<N>' (N more commits) or 'git fetch --unshallow' (all of it)", what, where)
}
