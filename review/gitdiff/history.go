package gitdiff

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/reviewls/reviewls/review"
)

// DefaultHistoryLimit is the number of commits History examines when the
// caller passes no limit: enough to see a file's recent churn in an active
// repository, while a walk of that length (a few tree reads per commit)
// stays within tens of milliseconds.
const DefaultHistoryLimit = 500

// History returns the commits that touched any of paths (files or
// directories, repo-relative), newest first by commit time, examining at
// most limit commits from HEAD (DefaultHistoryLimit when limit <= 0):
// the cost is bounded by limit, not by the size of the history.
//
// A commit touches a path when the path differs from its first parent, or
// for a merge from every parent (a merge that took one side's version
// unchanged did not touch it). A root commit touches the paths it adds.
// In a shallow clone the history stops at the shallow boundary, whose
// commits are not reported (their parents, and so their changes, are
// unknown); History.Shallow is set, and Available is false when no commit
// was found. An unborn HEAD has no history.
func (r *Repo) History(ctx context.Context, paths []string, limit int) (*review.History, error) {
	if limit <= 0 {
		limit = DefaultHistoryLimit
	}
	h := &review.History{}
	head, err := readHead(r.gitDir, r.commonDir)
	if err != nil {
		return nil, err
	}
	if head.hash.IsZero() {
		h.Reason = "no commits yet"
		return h, nil
	}

	r.objMu.Lock()
	defer r.objMu.Unlock()
	shallow := map[plumbing.Hash]bool{}
	if hs, err := r.store.Shallow(); err == nil {
		for _, s := range hs {
			shallow[s] = true
		}
	}
	h.Shallow = len(shallow) > 0

	trie := newPathTrie(paths)
	if r.histTrees == nil || len(r.histTrees) > maxHistTrees {
		r.histTrees = map[plumbing.Hash][]treeEntry{}
	}
	hw := historyWalker{r: r, trees: r.histTrees}
	start, err := r.commitObject(head.hash)
	if err != nil {
		return nil, fmt.Errorf("read HEAD commit: %w", err)
	}
	queue := &commitQueue{{start, 0}}
	pushed := 1
	seen := map[plumbing.Hash]bool{start.Hash: true}
	for queue.Len() > 0 && h.Limit < limit {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := heap.Pop(queue).(queued).c
		h.Limit++
		boundary := shallow[c.Hash]
		var parents []*object.Commit
		if !boundary {
			for _, ph := range c.ParentHashes {
				p, err := r.commitObject(ph)
				if errors.Is(err, plumbing.ErrObjectNotFound) {
					boundary = true // a grafted or incomplete history
					break
				}
				if err != nil {
					return nil, fmt.Errorf("read commit %s: %w", review.ShortSHA(ph.String()), err)
				}
				parents = append(parents, p)
			}
		}
		if boundary {
			continue
		}
		for _, p := range parents {
			if !seen[p.Hash] {
				seen[p.Hash] = true
				heap.Push(queue, queued{p, pushed})
				pushed++
			}
		}
		touched, err := hw.touched(c, parents, trie)
		if err != nil {
			return nil, err
		}
		if len(touched) == 0 {
			continue
		}
		subject, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
		h.Commits = append(h.Commits, review.Commit{
			Hash:    c.Hash.String(),
			Author:  c.Author.Name,
			When:    c.Author.When.Unix(),
			Subject: strings.TrimSpace(subject),
			Paths:   touched,
		})
	}
	h.Available = len(h.Commits) > 0 || !h.Shallow
	if !h.Available {
		h.Reason = fmt.Sprintf("shallow clone: none of the %d commits available touches the changed paths", h.Limit)
	}
	return h, nil
}

// Bounds of the objects History keeps between calls: a few walks of the
// default limit, and the trees along their paths.
const (
	maxHistCommits = 4096
	maxHistTrees   = 4096
)

// commitObject reads a commit through the cache History keeps. Requires
// objMu.
func (r *Repo) commitObject(h plumbing.Hash) (*object.Commit, error) {
	if c, ok := r.histCommits[h]; ok {
		return c, nil
	}
	c, err := r.repo.CommitObject(h)
	if err != nil {
		return nil, err
	}
	if r.histCommits == nil || len(r.histCommits) >= maxHistCommits {
		r.histCommits = map[plumbing.Hash]*object.Commit{}
	}
	r.histCommits[h] = c
	return c, nil
}

// commitQueue orders commits newest first by committer time, and in the
// order they were queued among equal times, as git log does.
type commitQueue []queued

type queued struct {
	c   *object.Commit
	seq int
}

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	ti, tj := q[i].c.Committer.When, q[j].c.Committer.When
	if !ti.Equal(tj) {
		return ti.After(tj)
	}
	return q[i].seq < q[j].seq
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(queued)) }
func (q *commitQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// pathTrie holds the paths History asks about, by component.
type pathTrie struct {
	leaf     string // the full path when a queried path ends here
	children map[string]*pathTrie
}

func newPathTrie(paths []string) *pathTrie {
	root := &pathTrie{}
	for _, p := range paths {
		p, ok := cleanRel(p)
		if !ok {
			continue
		}
		n := root
		for _, c := range strings.Split(p, "/") {
			if n.children == nil {
				n.children = map[string]*pathTrie{}
			}
			next := n.children[c]
			if next == nil {
				next = &pathTrie{}
				n.children[c] = next
			}
			n = next
		}
		n.leaf = p
	}
	return root
}

// historyWalker compares commit trees along the queried paths only,
// caching the trees it reads. Used with objMu held.
type historyWalker struct {
	r     *Repo
	trees map[plumbing.Hash][]treeEntry
}

// touched returns the queried paths that c changed relative to its parents.
func (w *historyWalker) touched(c *object.Commit, parents []*object.Commit, trie *pathTrie) ([]string, error) {
	var out []string
	if len(parents) == 0 {
		ch, err := w.changed(c.TreeHash, plumbing.ZeroHash, trie, nil)
		if err != nil {
			return nil, err
		}
		out = ch
	}
	for i, p := range parents {
		ch, err := w.changed(c.TreeHash, p.TreeHash, trie, nil)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			out = ch
			continue
		}
		out = intersect(out, ch)
	}
	sort.Strings(out)
	return out, nil
}

// changed appends to out the queried paths under trie whose entries differ
// between trees a and b (zero: empty).
func (w *historyWalker) changed(a, b plumbing.Hash, trie *pathTrie, out []string) ([]string, error) {
	if a == b {
		return out, nil
	}
	ea, err := w.tree(a)
	if err != nil {
		return nil, err
	}
	eb, err := w.tree(b)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(trie.children))
	for name := range trie.children {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		n := trie.children[name]
		va, vb := findEntry(ea, name), findEntry(eb, name)
		if va == vb {
			continue
		}
		if n.leaf != "" {
			out = append(out, n.leaf)
		}
		if len(n.children) > 0 {
			ta, tb := plumbing.ZeroHash, plumbing.ZeroHash
			if va.mode == modeTree {
				ta = va.hash
			}
			if vb.mode == modeTree {
				tb = vb.hash
			}
			if out, err = w.changed(ta, tb, n, out); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (w *historyWalker) tree(h plumbing.Hash) ([]treeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	if t, ok := w.trees[h]; ok {
		return t, nil
	}
	t, err := w.r.readTree(h)
	if err != nil {
		return nil, err
	}
	w.trees[h] = t
	return t, nil
}

// findEntry returns the entry called name of a tree, or the zero version.
func findEntry(ents []treeEntry, name string) version {
	for _, e := range ents {
		if e.name == name {
			return version{hash: e.hash, mode: e.mode}
		}
	}
	return version{}
}

func intersect(a, b []string) []string {
	set := map[string]bool{}
	for _, s := range b {
		set[s] = true
	}
	out := a[:0]
	for _, s := range a {
		if set[s] {
			out = append(out, s)
		}
	}
	return out
}

// ReadBase returns the content of path at the base of target t (its
// BaseSHA tree: HEAD for a local or staged review, the merge-base for a
// branch diff). The error wraps [fs.ErrNotExist] when the base has no such
// file (or no commit at all).
func (r *Repo) ReadBase(ctx context.Context, t review.Target, path string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rel, ok := cleanRel(path)
	if !ok {
		return nil, fmt.Errorf("read %s at base: %w", path, fs.ErrNotExist)
	}
	if t.BaseSHA == "" {
		return nil, fmt.Errorf("read %s at base: no base commit: %w", rel, fs.ErrNotExist)
	}
	tree, err := r.commitTree(t.BaseSHA)
	if err != nil {
		return nil, err
	}
	r.objMu.Lock()
	v, err := r.findPath(tree, rel)
	r.objMu.Unlock()
	if err != nil {
		return nil, err
	}
	if !v.present() || v.mode == modeTree || v.mode == modeGitlink {
		return nil, fmt.Errorf("read %s at %s: %w", rel, review.ShortSHA(t.BaseSHA), fs.ErrNotExist)
	}
	return r.readBlob(v)
}

// findPath returns the entry at rel in tree t. Called with objMu held.
func (r *Repo) findPath(t plumbing.Hash, rel string) (version, error) {
	parts := strings.Split(rel, "/")
	for i, name := range parts {
		ents, err := r.readTree(t)
		if err != nil {
			return version{}, err
		}
		v := findEntry(ents, name)
		if i == len(parts)-1 || v.mode != modeTree {
			if i < len(parts)-1 {
				return version{}, nil
			}
			return v, nil
		}
		t = v.hash
	}
	return version{}, nil
}
