package gitdiff

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

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
//
// The commits read, with the paths each touched, are kept in a cache
// (see histcache.go) in memory and in the work tree's .copilot-tracking,
// so a later call, even after HEAD moved by a commit, reads only the
// commits it has not seen.
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
	return r.historyFrom(ctx, head.hash, paths, limit)
}

// historyFrom is History from the commit head.
func (r *Repo) historyFrom(ctx context.Context, head plumbing.Hash, paths []string, limit int) (*review.History, error) {
	h := &review.History{}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	shallow := map[plumbing.Hash]bool{}
	if hs, err := r.store.Shallow(); err == nil {
		for _, s := range hs {
			shallow[s] = true
		}
	}
	h.Shallow = len(shallow) > 0

	cache := r.historyCache()
	cache.walks++
	defer r.saveHistoryCache()
	query := queryPaths(paths)
	var trie *pathTrie // built for the first commit that needs a tree walk
	if r.histTrees == nil || len(r.histTrees) > maxHistTrees {
		r.histTrees = map[plumbing.Hash][]treeEntry{}
	}
	hw := historyWalker{r: r, trees: r.histTrees}
	start, err := r.commitInfo(head)
	if err != nil {
		return nil, fmt.Errorf("read HEAD commit: %w", err)
	}
	queue := &commitQueue[*histCommit]{{start, start.committed, 0}}
	pushed := 1
	seen := map[plumbing.Hash]bool{start.hash: true}
	parents := make([]*histCommit, 0, 2)
	for queue.Len() > 0 && h.Limit < limit {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := heap.Pop(queue).(queued[*histCommit]).c
		h.Limit++
		boundary := shallow[c.hash]
		parents = parents[:0]
		if !boundary {
			for _, ph := range c.parents {
				p, err := r.commitInfo(ph)
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
			if !seen[p.hash] {
				seen[p.hash] = true
				heap.Push(queue, queued[*histCommit]{p, p.committed, pushed})
				pushed++
			}
		}
		if c.state == touchUnknown {
			if err := hw.exploreRoot(c, parents); err != nil {
				return nil, err
			}
			cache.dirty = true
		}
		var touched []string
		if c.state == touchKnown {
			var grew bool
			if touched, grew, err = hw.match(c, query); err != nil {
				return nil, err
			}
			cache.dirty = cache.dirty || grew
		}
		if c.state == touchWide {
			if trie == nil {
				trie = newPathTrie(query)
			}
			if touched, err = hw.touched(c, parents, trie); err != nil {
				return nil, err
			}
		}
		if len(touched) == 0 {
			continue
		}
		if err := r.commitMeta(c); err != nil {
			return nil, err
		}
		h.Commits = append(h.Commits, review.Commit{
			Hash:    c.hash.String(),
			Author:  c.author,
			When:    c.authored,
			Subject: c.subject,
			Paths:   touched,
		})
	}
	h.Available = len(h.Commits) > 0 || !h.Shallow
	if !h.Available {
		h.Reason = fmt.Sprintf("shallow clone: none of the %d commits available touches the changed paths", h.Limit)
	}
	return h, nil
}

// SetHistoryCacheWrites allows or forbids History to write its cache
// under .copilot-tracking (allowed by default). A forbidding caller (the
// CLI's --no-artifacts: nothing written) still has an existing cache read.
func (r *Repo) SetHistoryCacheWrites(on bool) {
	r.objMu.Lock()
	r.histReadOnly = !on
	r.objMu.Unlock()
}

// maxHistTrees bounds the trees History keeps between calls: those along
// the paths of a few walks of the default limit.
const maxHistTrees = 4096

// commitInfo returns commit h from the history cache, reading and adding
// it when missing. A missing object, or one that is not a commit, is
// [plumbing.ErrObjectNotFound]. Requires objMu.
func (r *Repo) commitInfo(h plumbing.Hash) (*histCommit, error) {
	cache := r.hist
	if c, ok := cache.commits[h]; ok {
		c.used = cache.walks
		return c, nil
	}
	t, data, err := r.store.objs.read(h)
	if err != nil {
		return nil, err
	}
	if t != plumbing.CommitObject {
		return nil, plumbing.ErrObjectNotFound
	}
	c, err := parseCommit(h, data)
	if err != nil {
		return nil, err
	}
	c.used = cache.walks
	cache.commits[h] = c
	cache.dirty = true
	return c, nil
}

// commitMeta reads the author and subject of a commit the cache file
// gave without them. Requires objMu.
func (r *Repo) commitMeta(c *histCommit) error {
	if c.meta {
		return nil
	}
	data, err := r.readObject(plumbing.CommitObject, c.hash)
	if err != nil {
		return err
	}
	full, err := parseCommit(c.hash, data)
	if err != nil {
		return fmt.Errorf("read commit %s: %w", review.ShortSHA(c.hash.String()), err)
	}
	c.author, c.subject, c.meta = full.author, full.subject, true
	return nil
}

// queryPaths returns the asked paths History can answer for, clean,
// sorted and without duplicates.
func queryPaths(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p, ok := cleanRel(p); ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// commitQueue orders commits newest first by committer time (Unix
// seconds, git's resolution), and in the order they were queued among
// equal times, as git log does.
type commitQueue[C any] []queued[C]

type queued[C any] struct {
	c    C
	when int64
	seq  int
}

func (q commitQueue[C]) Len() int { return len(q) }
func (q commitQueue[C]) Less(i, j int) bool {
	if q[i].when != q[j].when {
		return q[i].when > q[j].when
	}
	return q[i].seq < q[j].seq
}
func (q commitQueue[C]) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue[C]) Push(x any)   { *q = append(*q, x.(queued[C])) }
func (q *commitQueue[C]) Pop() any {
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
func (w *historyWalker) touched(c *histCommit, parents []*histCommit, trie *pathTrie) ([]string, error) {
	var out []string
	if len(parents) == 0 {
		ch, err := w.changed(c.tree, plumbing.ZeroHash, trie, nil)
		if err != nil {
			return nil, err
		}
		out = ch
	}
	for i, p := range parents {
		ch, err := w.changed(c.tree, p.tree, trie, nil)
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

// exploreRoot lists the entries of the root tree of c that differ from
// every parent's (a root commit: all it has). Past maxTouchedPaths the
// commit is wide.
func (w *historyWalker) exploreRoot(c *histCommit, parents []*histCommit) error {
	trees := []plumbing.Hash{c.tree, plumbing.ZeroHash}
	if len(parents) > 0 {
		trees = trees[:1]
		for _, p := range parents {
			trees = append(trees, p.tree)
		}
	}
	ents, err := w.explore(trees, "")
	if err != nil {
		return err
	}
	c.touched, c.state = ents, touchKnown
	if len(ents) > maxTouchedPaths {
		c.touched, c.state = nil, touchWide
	}
	return nil
}

// match returns the paths of query (clean, sorted) that c touched,
// exploring the open directories they lie below, and reports whether it
// explored any. A commit that grows past maxTouchedPaths becomes wide,
// and match returns nothing for it.
func (w *historyWalker) match(c *histCommit, query []string) (out []string, grew bool, err error) {
	for _, q := range query {
		for {
			hit, open := c.lookup(q)
			if open < 0 {
				if hit {
					out = append(out, q)
				}
				break
			}
			e := c.touched[open]
			ents, err := w.explore(e.trees, e.path+"/")
			if err != nil {
				return nil, grew, err
			}
			grew = true
			if len(ents) == 0 {
				// A directory whose entries are the same, renormalized.
				c.touched[open].trees = nil
				continue
			}
			c.touched = slices.Insert(slices.Delete(c.touched, open, open+1), open, ents...)
			slices.SortFunc(c.touched, func(a, b touchEntry) int { return strings.Compare(a.path, b.path) })
			if len(c.touched) > maxTouchedPaths {
				c.touched, c.state = nil, touchWide
				return nil, grew, nil
			}
		}
	}
	return out, grew, nil
}

// lookup reports whether c touched q as far as is known, or returns the
// index of the open directory above q that must be explored first (-1
// when none).
func (c *histCommit) lookup(q string) (hit bool, open int) {
	t := c.touched
	find := func(p string) int {
		return sort.Search(len(t), func(i int) bool { return t[i].path >= p })
	}
	i := find(q)
	if i < len(t) && t[i].path == q {
		return true, -1
	}
	// Below q/ in byte order: "q-x" and "q.x" sort between q and q/.
	for ; i < len(t) && strings.HasPrefix(t[i].path, q); i++ {
		if p := t[i].path; len(p) > len(q) && p[len(q)] == '/' {
			return true, -1
		}
	}
	// The directories above q, without allocating (this runs for every
	// path and commit of the walk).
	for a := q; ; {
		slash := strings.LastIndexByte(a, '/')
		if slash < 0 {
			break
		}
		a = a[:slash]
		if i := find(a); i < len(t) && t[i].path == a {
			if t[i].trees != nil {
				return false, i
			}
			return false, -1
		}
	}
	return false, -1
}

// explore returns, sorted, the entries below prefix whose version in tree
// trees[0] differs from the version in every tree of trees[1:] (zero:
// empty): directories open, the rest closed.
func (w *historyWalker) explore(trees []plumbing.Hash, prefix string) ([]touchEntry, error) {
	a, bs := trees[0], trees[1:]
	if slices.Contains(bs, a) {
		return nil, nil
	}
	ea, err := w.tree(a)
	if err != nil {
		return nil, err
	}
	ebs := make([][]treeEntry, len(bs))
	for i, b := range bs {
		if ebs[i], err = w.tree(b); err != nil {
			return nil, err
		}
	}
	var out []touchEntry
	visit := func(name string) {
		va := lookupEntry(ea, name)
		sub := make([]plumbing.Hash, len(trees))
		if va.mode == modeTree {
			sub[0] = va.hash
		}
		dir := !sub[0].IsZero()
		for i, eb := range ebs {
			vb := lookupEntry(eb, name)
			if vb == va {
				return
			}
			if vb.mode == modeTree {
				sub[i+1], dir = vb.hash, true
			}
		}
		e := touchEntry{path: prefix + name}
		if dir {
			e.trees = sub
		}
		out = append(out, e)
	}
	for _, e := range ea {
		visit(e.name)
	}
	// The names only parents have: deleted, or (in a merge) from the side
	// c did not take.
	for i, eb := range ebs {
		for _, e := range eb {
			if lookupEntry(ea, e.name).present() || slices.ContainsFunc(ebs[:i], func(o []treeEntry) bool { return lookupEntry(o, e.name).present() }) {
				continue
			}
			visit(e.name)
		}
	}
	slices.SortFunc(out, func(a, b touchEntry) int { return strings.Compare(a.path, b.path) })
	return out, nil
}

// lookupEntry returns the entry called name of a tree in git's order
// (names compared as if a directory's ended in "/"), or the zero version:
// by a linear scan in a small tree, by binary search in a large one.
func lookupEntry(ents []treeEntry, name string) version {
	if len(ents) <= 16 {
		return findEntry(ents, name)
	}
	for _, tree := range []bool{false, true} {
		i := sort.Search(len(ents), func(i int) bool { return treeOrder(ents[i], name, tree) >= 0 })
		if i < len(ents) && ents[i].name == name && (ents[i].mode == modeTree) == tree {
			return version{hash: ents[i].hash, mode: ents[i].mode}
		}
	}
	return version{}
}

// treeOrder compares entry e with an entry called name (a directory when
// tree) in git's tree order.
func treeOrder(e treeEntry, name string, tree bool) int {
	ka, kb := e.name, name
	k := min(len(ka), len(kb))
	if c := strings.Compare(ka[:k], kb[:k]); c != 0 {
		return c
	}
	sa, sb := ka[k:], kb[k:]
	if e.mode == modeTree && sa == "" {
		sa = "/"
	}
	if tree && sb == "" {
		sb = "/"
	}
	return strings.Compare(sa, sb)
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
