package gitdiff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/review"
)

// trackingDir is reviewls's own output folder at the root of the work
// tree; it is never part of a review.
const trackingDir = ".copilot-tracking"

// Change is one changed path found by [Repo.Status]: the fast scan that
// compares HEAD, the index and the work tree without diffing contents.
type Change struct {
	// Path is repo-relative and slash-separated (the new path of a rename).
	Path string
	// OldPath is the base path of a rename.
	OldPath string
	// Similarity is the similarity index of a rename, in percent, as
	// git status reports it for renames in the index.
	Similarity int
	// Status is the change from the target base to the reviewed content:
	// the work tree for a local or branch review, the index for a staged
	// one.
	Status review.FileStatus
	// Staged reports that the index differs from HEAD at the path;
	// Unstaged that the work tree differs from the index; Untracked that
	// the path is not in the index (and not ignored).
	Staged, Unstaged, Untracked bool
	// Submodule reports a gitlink: its commit changed, its content is
	// never entered.
	Submodule bool
	// Nested reports an untracked directory holding a repository of its
	// own, listed but not entered.
	Nested bool
	// Conflicted reports an unmerged path (index stages 1-3).
	Conflicted bool

	// The versions of the path at the target base, at HEAD, in the index
	// and in the work tree.
	base, head, index version
	work              wtObs
}

// state is everything one scan learned that a later Refresh of a few paths
// can reuse, as long as HEAD and the index have not moved.
type state struct {
	repo     *Repo
	root     string
	logger   *slog.Logger
	target   review.Target
	idx      *index
	fileMode bool
	filter   pathFilter
	// head is what HEAD resolved to, and the index's file identity is
	// idx.id: together they tell whether the state is stale.
	head refState
	// baseDiff and headDiff hold the tree side of every path where the
	// base (HEAD) tree and the index differ; absent paths have the zero
	// version. The index side of a path is absent for unmerged and
	// intent-to-add entries.
	baseDiff, headDiff map[string]version
	// renames maps the new path of a rename between the base and the
	// index to its base path, renamedFrom holds those base paths, and
	// renameScore the score of each (on git's scale of maxScore).
	renames     map[string]string
	renamedFrom map[string]bool
	renameScore map[string]int
	// renameOpts configures rename detection; noRenames turns it off
	// (status.renames or diff.renames false).
	renameOpts renameOptions
	noRenames  bool
	// ignore is the frame of info/exclude and core.excludesFile; frames
	// the frames of the directories the last walk read.
	ignore *ignoreFrame
	frames map[string]*ignoreFrame
	// conv decides how work tree content is converted before it is
	// compared with blobs.
	conv *converter
	// ignored are the changes of the paths that only Options.Ignore left
	// out, found by changes.
	ignored []Change
}

// Status lists the changed paths of target t, sorted by path: the staged,
// unstaged and untracked changes of a local review (only the staged ones
// when t.Staged), plus the committed ones since the merge-base for a
// branch diff. It reads the index once, compares HEAD and the base with it
// through the cache-tree, and walks the work tree in parallel, hashing
// only files whose stat data changed. Ignored files and the paths matched
// by [Options.Ignore] are left out.
func (r *Repo) Status(ctx context.Context, t review.Target) ([]Change, error) {
	st, changes, err := r.status(ctx, t)
	if err != nil {
		return nil, err
	}
	changes = st.pairWorkTree(ctx, changes, nil)
	r.keep(st)
	return changes, nil
}

// status builds the state of target t and its changes.
func (r *Repo) status(ctx context.Context, t review.Target) (*state, []Change, error) {
	start := time.Now()
	st, err := r.newState(t)
	if err != nil {
		return nil, nil, err
	}
	if t.Staged {
		if err := r.compareTrees(ctx, st); err != nil {
			return nil, nil, err
		}
		return st, st.changes(nil), nil
	}
	// The tree comparison (object store reads) and the work tree walk
	// (file system reads) touch disjoint parts of st: run them together.
	treeErr := make(chan error, 1)
	go func() { treeErr <- r.compareTrees(ctx, st) }()
	root := dirJob{lo: 0, hi: len(st.idx.entries), frame: st.ignore}
	res, err := st.walk(ctx, &hasher{repo: r, now: start}, []dirJob{root})
	if terr := <-treeErr; err == nil {
		err = terr
	}
	if err != nil {
		return nil, nil, err
	}
	st.frames = res.frames
	changes := st.changes(res)
	r.logger.DebugContext(ctx, "status", "changes", len(changes), "entries", len(st.idx.entries), "elapsed", time.Since(start))
	return st, changes, nil
}

// newState reads HEAD, the configuration and the index for target t.
func (r *Repo) newState(t review.Target) (*state, error) {
	head, err := readHead(r.gitDir, r.commonDir)
	if err != nil {
		return nil, err
	}
	if head.hash.String() != t.HeadSHA && !(t.HeadSHA == "" && head.hash.IsZero()) {
		// HEAD moved since t was resolved: record the target's commit, so
		// that Moved reports the state stale.
		r.logger.Warn("HEAD moved since the target was resolved", "head", head.hash.String(), "target", t.HeadSHA)
		head.hash = plumbing.NewHash(t.HeadSHA)
	}
	cfg, err := loadConfig(r.gitDir, r.commonDir)
	if err != nil {
		return nil, err
	}
	idx, err := r.readIndex()
	if err != nil {
		return nil, err
	}
	st := &state{
		repo:     r,
		root:     r.root,
		logger:   r.logger,
		target:   t,
		idx:      idx,
		fileMode: cfg.fileMode(),
		filter:   r.pathFilter(),
		head:     head,
		ignore:   baseFrame(cfg, r.commonDir),
	}
	st.conv = newConverter(cfg, newAttributes(cfg, r.root, r.commonDir, st.indexFile))
	st.renameOpts, st.noRenames = renameConfig(cfg)
	st.renameOpts.sizeCap = r.sizeCap
	return st, nil
}

// defaultRenameLimit is git's default diff.renameLimit (since git 2.33):
// above this many sources times destinations squared, only exact renames
// and renames keeping their base name are detected, which bounds the
// similarity matrix to a million pairs.
const defaultRenameLimit = 1000

// renameConfig reads status.renames and status.renameLimit, which default
// to diff.renames and diff.renameLimit, as git status does.
func renameConfig(cfg *gitConfig) (renameOptions, bool) {
	opts := renameOptions{minScore: defaultRenameScore, limit: defaultRenameLimit}
	off := false
	for _, sec := range []string{"diff", "status"} {
		if cfg.has(sec, "renames") {
			v := strings.ToLower(strings.TrimSpace(cfg.get(sec, "renames")))
			off = !(isTrue(v) || v == "copy" || v == "copies")
		}
		if n, err := strconv.Atoi(strings.TrimSpace(cfg.get(sec, "renamelimit"))); err == nil {
			opts.limit = n
		}
	}
	return opts, off
}

// indexFile reads the blob of path rel from the index, or returns nil.
func (st *state) indexFile(rel string) []byte {
	v, ok := st.indexBlob(rel)
	if !ok {
		return nil
	}
	data, err := st.repo.readBlob(v)
	if err != nil {
		return nil
	}
	return data
}

// compareTrees compares the base and HEAD trees of st's target with the
// index, and pairs exact renames.
func (r *Repo) compareTrees(ctx context.Context, st *state) error {
	t := st.target
	baseTree, err := r.commitTree(t.BaseSHA)
	if err != nil {
		return err
	}
	if st.baseDiff, err = r.diffTreeIndex(ctx, baseTree, st.idx); err != nil {
		return err
	}
	st.headDiff = st.baseDiff
	if t.HeadSHA != t.BaseSHA {
		headTree, err := r.commitTree(t.HeadSHA)
		if err != nil {
			return err
		}
		if st.headDiff, err = r.diffTreeIndex(ctx, headTree, st.idx); err != nil {
			return err
		}
	}
	st.pairRenames(ctx)
	return nil
}

// keep makes st the state that Refresh and Moved compare with.
func (r *Repo) keep(st *state) {
	r.mu.Lock()
	r.snap = st
	r.mu.Unlock()
}

// changes classifies every path that differs anywhere, given the walk
// result (nil for a staged review, which never looks at the work tree).
func (st *state) changes(res *walkResult) []Change {
	var out []Change
	seen := map[string]bool{}
	st.ignored = nil
	add := func(p string, obs wtObs, tracked bool) {
		if seen[p] {
			return
		}
		seen[p] = true
		if c, ok := st.classify(p, obs, tracked); ok {
			out = append(out, c)
		} else if c, ok := st.classifyIgnored(p, obs, tracked); ok {
			st.ignored = append(st.ignored, c)
		}
	}
	workObs := func(p string) (wtObs, bool) {
		i, ok := st.idx.find(p)
		switch {
		case ok && res != nil:
			if o, ok := res.dirty[i]; ok {
				return o, true
			}
			return wtObs{kind: wtClean}, true
		case ok:
			return wtObs{kind: wtClean}, true
		case res != nil:
			if o, ok := res.untracked[p]; ok {
				return o, false
			}
		}
		return wtObs{kind: wtAbsent}, false
	}
	for p := range st.baseDiff {
		o, tracked := workObs(p)
		add(p, o, tracked)
	}
	for p := range st.headDiff {
		o, tracked := workObs(p)
		add(p, o, tracked)
	}
	if res != nil {
		for i, o := range res.dirty {
			add(st.idx.entries[i].name, o, true)
		}
		for p, o := range res.untracked {
			add(p, o, false)
		}
	} else {
		// A staged review still lists unmerged paths.
		for i := range st.idx.entries {
			if e := &st.idx.entries[i]; e.stage != 0 {
				add(e.name, wtObs{kind: wtClean}, true)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// classify decides whether path p is a change of the target and of what
// kind, given what the work tree holds there (obs) and whether the index
// tracks it.
func (st *state) classify(p string, obs wtObs, tracked bool) (Change, bool) {
	if st.filter.excluded(p) {
		return Change{}, false
	}
	return st.classifyPath(p, obs, tracked)
}

// classifyIgnored classifies p as classify would, when the ignore globs
// of the options alone leave it out and it still has content of its own
// (not deleted, a submodule or a nested repository): the paths a review
// does not read and its secret scan does.
func (st *state) classifyIgnored(p string, obs wtObs, tracked bool) (Change, bool) {
	if !st.filter.globbed(p) || inDir(p, trackingDir) || st.filter.inGitDir(p) {
		return Change{}, false
	}
	c, ok := st.classifyPath(p, obs, tracked)
	return c, ok && !c.Submodule && !c.Nested && c.Status != review.StatusDeleted
}

// classifyPath is classify without the path filter.
func (st *state) classifyPath(p string, obs wtObs, tracked bool) (Change, bool) {
	var iv version
	conflicted := false
	if i, ok := st.idx.find(p); ok {
		e := &st.idx.entries[i]
		conflicted = e.stage != 0
		if !conflicted && !e.intentAdd {
			iv = version{hash: e.hash, mode: e.mode}
		}
	}
	c := Change{Path: p, index: iv, work: obs, Conflicted: conflicted}
	c.base = lookup(st.baseDiff, p, iv)
	c.head = lookup(st.headDiff, p, iv)

	var inR bool // whether the reviewed content has the path
	if st.target.Staged {
		c.Staged = c.head != iv || conflicted
		if !c.Staged {
			return Change{}, false
		}
		c.work = wtObs{kind: wtClean}
		inR = iv.present() || conflicted
	} else {
		c.Staged = c.head != iv && !conflicted
		c.Unstaged = tracked && obs.kind != wtClean
		c.Untracked = !tracked && (obs.kind == wtUntracked || obs.kind == wtNested)
		c.Nested = obs.kind == wtNested
		if !c.Staged && !c.Unstaged && !c.Untracked && c.base == c.head {
			return Change{}, false
		}
		inR = tracked && obs.kind != wtAbsent || c.Untracked
	}
	c.Submodule = c.base.mode == modeGitlink || c.head.mode == modeGitlink || iv.mode == modeGitlink || c.work.v.mode == modeGitlink

	inBase := c.base.present()
	switch {
	case st.renames[p] != "":
		// A staged rename stays one even when the new file is then
		// deleted from the work tree (Scan lists it without content).
		c.Status = review.StatusRenamed
		c.OldPath = st.renames[p]
		c.Similarity = st.renameScore[p] * 100 / maxScore
		c.base = lookup(st.baseDiff, c.OldPath, version{})
	case st.renamedFrom[p]:
		// The base content moved to another path; a file here now is a
		// new, untracked one.
		// (Its staged deletion belongs to the rename.)
		if !c.Untracked {
			return Change{}, false
		}
		c.base, c.Staged = version{}, false
		c.Status = review.StatusUntracked
	case inBase && inR:
		c.Status = review.StatusModified
	case inBase:
		c.Status = review.StatusDeleted
	case inR && tracked:
		c.Status = review.StatusAdded
	case inR:
		c.Status = review.StatusUntracked
	default:
		// Added to the index, then deleted from the work tree: nothing
		// at the base and nothing in the reviewed content.
		return Change{}, false
	}
	return c, true
}

// lookup returns the tree side of p from a tree-vs-index diff, which is
// the index side def where the diff has no record.
func lookup(diff map[string]version, p string, def version) version {
	if v, ok := diff[p]; ok {
		return v
	}
	return def
}

// pairRenames detects the renames between the base and the index, as git
// status does for the index: the sources are the base's paths the index
// lacks, the destinations the index's paths the base lacks, compared as
// blobs.
func (st *state) pairRenames(ctx context.Context) {
	if st.noRenames {
		return
	}
	var srcPaths, dstPaths []string
	for p, v := range st.baseDiff {
		i, tracked := st.idx.find(p)
		switch {
		case v.present() && !tracked && renameable(v):
			srcPaths = append(srcPaths, p)
		case !v.present() && tracked:
			if e := &st.idx.entries[i]; e.stage == 0 && !e.intentAdd && e.mode != modeGitlink {
				dstPaths = append(dstPaths, p)
			}
		}
	}
	if len(srcPaths) == 0 || len(dstPaths) == 0 {
		return
	}
	var srcs, dsts []*renameSide
	for _, p := range srcPaths {
		srcs = append(srcs, st.blobSide(p, st.baseDiff[p]))
	}
	for _, p := range dstPaths {
		i, _ := st.idx.find(p)
		dsts = append(dsts, st.blobSide(p, version{hash: st.idx.entries[i].hash, mode: st.idx.entries[i].mode}))
	}
	matches := st.findRenames(ctx, srcs, dsts)
	if len(matches) == 0 {
		return
	}
	st.renames, st.renamedFrom, st.renameScore = map[string]string{}, map[string]bool{}, map[string]int{}
	for _, m := range matches {
		src, dst := srcs[m.src].path, dsts[m.dst].path
		st.renames[dst], st.renamedFrom[src], st.renameScore[dst] = src, true, m.score
	}
}

// findRenames sorts the sides by path and pairs them, logging when the
// rename limit stopped inexact detection.
func (st *state) findRenames(ctx context.Context, srcs, dsts []*renameSide) []renameMatch {
	byPath := func(s []*renameSide) {
		sort.Slice(s, func(i, j int) bool { return s[i].path < s[j].path })
	}
	byPath(srcs)
	byPath(dsts)
	matches, limited := findRenames(srcs, dsts, st.renameOpts)
	if limited {
		st.logger.WarnContext(ctx, "too many files for inexact rename detection; only exact renames and renames keeping their base name were detected",
			"sources", len(srcs), "destinations", len(dsts), "limit", st.renameOpts.limit)
	}
	return matches
}

// blobSide is the rename side of path p with blob v.
func (st *state) blobSide(p string, v version) *renameSide {
	return &renameSide{
		path: p, mode: v.mode, oid: v.hash,
		read: func() ([]byte, error) { return st.repo.readBlob(v) },
		size: func() (int64, error) { return st.repo.blobSize(v) },
		diff: func() attrKind { return st.conv.of(p).diff },
	}
}

func renameable(v version) bool {
	return v.mode == modeRegular || v.mode == modeExecutable || v.mode == modeSymlink
}

// commitTree returns the root tree of the commit sha, or the zero hash for
// "" (an unborn HEAD).
func (r *Repo) commitTree(sha string) (plumbing.Hash, error) {
	if sha == "" {
		return plumbing.ZeroHash, nil
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	h := plumbing.NewHash(sha)
	data, err := r.readObject(plumbing.CommitObject, h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	// A commit starts with the line "tree <hex>".
	line, _, _ := bytes.Cut(data, []byte{'\n'})
	hex, ok := bytes.CutPrefix(line, []byte("tree "))
	if !ok || !plumbing.IsHash(string(hex)) {
		return plumbing.ZeroHash, fmt.Errorf("read commit %s: no tree line", review.ShortSHA(sha))
	}
	return plumbing.NewHash(string(hex)), nil
}

// diffTreeIndex returns the tree side of every path where the tree (zero:
// empty) and the index differ. Subtrees whose cache-tree node matches the
// tree's hash are skipped without being read; an index without a
// cache-tree gets one computed in memory.
func (r *Repo) diffTreeIndex(ctx context.Context, tree plumbing.Hash, idx *index) (map[string]version, error) {
	out := map[string]version{}
	d := treeDiffer{ctx: ctx, r: r, idx: idx, out: out}
	node := idx.tree
	if node == nil && !tree.IsZero() {
		node = idx.computeCacheTree()
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	if err := d.dir(tree, "", 0, len(idx.entries), node); err != nil {
		return nil, err
	}
	return out, nil
}

type treeDiffer struct {
	ctx context.Context
	r   *Repo
	idx *index
	out map[string]version
}

// dir compares tree t with the index entries [lo, hi) under prefix.
// Called with objMu held.
func (d *treeDiffer) dir(t plumbing.Hash, prefix string, lo, hi int, node *cacheNode) error {
	if !t.IsZero() && node.valid() && node.hash == t {
		return nil
	}
	if err := d.ctx.Err(); err != nil {
		return err
	}
	var tents []treeEntry
	if !t.IsZero() {
		var err error
		if tents, err = d.r.readTree(t); err != nil {
			return err
		}
	}
	kids := d.idx.children(lo, hi, len(prefix), nil)
	ki, ti := 0, 0
	for ki < len(kids) || ti < len(tents) {
		var c int
		switch {
		case ki >= len(kids):
			c = 1
		case ti >= len(tents):
			c = -1
		default:
			c = cmpKey(kids[ki].name, kids[ki].dir, tents[ti].name, tents[ti].mode == modeTree)
		}
		switch {
		case c < 0:
			k := kids[ki]
			ki++
			if k.dir {
				if err := d.dir(plumbing.ZeroHash, prefix+k.name+"/", k.lo, k.hi, nil); err != nil {
					return err
				}
			} else if d.indexSide(k).present() {
				d.out[prefix+k.name] = version{}
			}
		case c > 0:
			te := tents[ti]
			ti++
			if te.mode == modeTree {
				if err := d.treeOnly(te.hash, prefix+te.name+"/"); err != nil {
					return err
				}
			} else {
				d.out[prefix+te.name] = version{hash: te.hash, mode: te.mode}
			}
		default:
			k, te := kids[ki], tents[ti]
			ki++
			ti++
			if k.dir {
				if err := d.dir(te.hash, prefix+k.name+"/", k.lo, k.hi, node.child(k.name)); err != nil {
					return err
				}
				continue
			}
			if tv := (version{hash: te.hash, mode: te.mode}); d.indexSide(k) != tv {
				d.out[prefix+k.name] = tv
			}
		}
	}
	return nil
}

// indexSide returns the index version of a file child: absent for unmerged
// and intent-to-add entries, which hold no content to commit.
func (d *treeDiffer) indexSide(k child) version {
	e := &d.idx.entries[k.lo]
	if k.hi-k.lo != 1 || e.stage != 0 || e.intentAdd {
		return version{}
	}
	return version{hash: e.hash, mode: e.mode}
}

// treeOnly records every file of tree t, which the index lacks.
func (d *treeDiffer) treeOnly(t plumbing.Hash, prefix string) error {
	tents, err := d.r.readTree(t)
	if err != nil {
		return err
	}
	for _, te := range tents {
		if te.mode == modeTree {
			if err := d.treeOnly(te.hash, prefix+te.name+"/"); err != nil {
				return err
			}
			continue
		}
		d.out[prefix+te.name] = version{hash: te.hash, mode: te.mode}
	}
	return nil
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	name string
	mode uint32
	hash plumbing.Hash
}

// readTree reads the entries of tree h, in git's tree order. Called with
// objMu held.
func (r *Repo) readTree(h plumbing.Hash) ([]treeEntry, error) {
	data, err := r.readObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	ents, err := parseTree(data)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", review.ShortSHA(h.String()), err)
	}
	return ents, nil
}

// parseTree parses the entries of a tree object: "<octal mode> <name>\0"
// and the 20 bytes of the hash, each.
func parseTree(data []byte) ([]treeEntry, error) {
	out := make([]treeEntry, 0, bytes.Count(data, []byte{0}))
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp <= 0 || nul < sp+2 || len(data) < nul+1+hashLen {
			return nil, errors.New("malformed tree entry")
		}
		m, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("malformed tree entry mode %q", data[:sp])
		}
		e := treeEntry{name: string(data[sp+1 : nul]), mode: uint32(m)}
		if e.mode == modeDeprecated {
			e.mode = modeRegular
		}
		copy(e.hash[:], data[nul+1:])
		out = append(out, e)
		data = data[nul+1+hashLen:]
	}
	return out, nil
}

// pathFilter leaves out the paths of Options.Ignore, reviewls's own
// folder and the repository's git directories when they lie inside the
// work tree under another name than ".git" ($GIT_DIR=.dotfiles, say: git
// lists such a directory as untracked, a review never looks into it).
type pathFilter struct {
	globs []string
	// dirs are the prefixes P of globs "P/**": every path below a
	// directory matching P is excluded, so the walk need not enter it.
	dirs []string
	// gitDirs are the repo-relative git directories inside the work tree.
	gitDirs []string
}

func newPathFilter(globs, gitDirs []string) pathFilter {
	f := pathFilter{globs: globs, gitDirs: gitDirs}
	for _, g := range globs {
		if p, ok := strings.CutSuffix(g, "/**"); ok {
			f.dirs = append(f.dirs, p)
		}
	}
	return f
}

// excluded reports whether the repo-relative path p is left out.
func (f pathFilter) excluded(p string) bool {
	if inDir(p, trackingDir) || f.inGitDir(p) {
		return true
	}
	return f.globbed(p)
}

// globbed reports whether one of the ignore globs matches p.
func (f pathFilter) globbed(p string) bool {
	for _, g := range f.globs {
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}

// inGitDir reports whether p is or lies in one of f.gitDirs.
func (f pathFilter) inGitDir(p string) bool {
	for _, d := range f.gitDirs {
		if inDir(p, d) {
			return true
		}
	}
	return false
}

// inDir reports whether the slash path p is dir or lies below it.
func inDir(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir) && p[len(dir)] == '/'
}

// pruneDir reports whether every path below directory dir is left out.
func (f pathFilter) pruneDir(dir string) bool {
	if f.inGitDir(dir) {
		return true
	}
	for _, p := range f.dirs {
		if ok, _ := doublestar.Match(p, dir); ok {
			return true
		}
	}
	return false
}

func validGlob(g string) bool { return doublestar.ValidatePattern(g) }
