package gitdiff

import (
	"context"
	"crypto/sha1"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/internal/regular"
)

// The work tree scan is one parallel walk that does what `git status` does
// in two passes: it compares every tracked file's stat data with its index
// entry (hashing the content only when they disagree, or when the entry is
// racily clean), and it lists untracked files, never entering an ignored
// directory unless it holds tracked files.
//
// Each directory is read once. Its entries, sorted in git's order (a
// directory sorts as its name followed by '/'), are merged with the index
// entries directly inside it; the index range of a directory is found by
// binary search, so the walk costs one readdir per directory and one lstat
// per tracked file. Tracked files whose directory is gone, or whose name
// now holds something else, are never matched and are reported absent.

// walkWorkers is the number of goroutines walking the work tree. The work
// is mostly system calls (getdents, fstatat) that may block on the file
// system, so a few goroutines per CPU keep the CPUs busy while others wait.
// On the 40,000-file benchmark of a 2-CPU machine, with a warm cache, 4 to
// 32 workers perform within noise of each other; more only add
// scheduling.
var walkWorkers = max(8, min(4*runtime.GOMAXPROCS(0), 16))

// wtKind says what the work tree holds at a path.
type wtKind uint8

const (
	wtClean     wtKind = iota // as recorded in the index
	wtModified                // a file differing from the index (mode and hash set)
	wtAbsent                  // tracked but missing, or no longer a file
	wtUntracked               // an untracked file that is not ignored
	wtNested                  // an untracked directory holding a repository
)

// version is one side of a path: its blob (or gitlink commit) and mode. The
// zero version means the path is absent.
type version struct {
	hash plumbing.Hash
	mode uint32
}

func (v version) present() bool { return v.mode != 0 }

// wtObs is what the walk observed of a path in the work tree.
type wtObs struct {
	kind wtKind
	// v is the work tree version: mode always for modified and untracked
	// files, hash for modified ones (zero for a conflicted path).
	v version
}

// dirJob is one directory to walk.
type dirJob struct {
	rel      string // repo-relative, "" for the root
	lo, hi   int    // index entries under rel
	frame    *ignoreFrame
	excluded bool // rel is ignored: only its tracked files matter
}

// walkResult collects what a walk found.
type walkResult struct {
	// dirty maps the index position of a tracked path (its first entry)
	// to its work tree state, for every path that is not clean.
	dirty map[int]wtObs
	// untracked maps untracked paths to their state (wtUntracked or
	// wtNested).
	untracked map[string]wtObs
	// frames holds the ignore frame in effect inside each walked
	// directory that is not ignored.
	frames map[string]*ignoreFrame
}

// walker walks parts of the work tree in parallel.
type walker struct {
	ctx    context.Context
	st     *state
	hasher *hasher

	jobs chan dirJob
	wg   sync.WaitGroup

	// marks records per index entry in [markLo, markLo+len(marks)) whether
	// its directory was read (markSeen) and whether a work tree entry
	// matched it (markMatched).
	marks  []uint8
	markLo int

	mu  sync.Mutex // guards res
	res walkResult
}

const (
	markSeen    = 1
	markMatched = 2
)

// walk walks the given directories (which must not nest) and returns what
// it found, including the tracked entries under them that were not found.
func (st *state) walk(ctx context.Context, h *hasher, seeds []dirJob) (*walkResult, error) {
	w := &walker{
		ctx:    ctx,
		st:     st,
		hasher: h,
		jobs:   make(chan dirJob, 1024),
		res: walkResult{
			dirty:     map[int]wtObs{},
			untracked: map[string]wtObs{},
			frames:    map[string]*ignoreFrame{},
		},
	}
	lo, hi := len(st.idx.entries), 0
	for _, s := range seeds {
		if s.lo < s.hi {
			lo, hi = min(lo, s.lo), max(hi, s.hi)
		}
	}
	if lo < hi {
		w.markLo = lo
		w.marks = make([]uint8, hi-lo)
	}

	for range walkWorkers {
		go func() {
			for j := range w.jobs {
				w.dir(j)
			}
		}()
	}
	for _, s := range seeds {
		w.wg.Add(1)
		w.jobs <- s
	}
	w.wg.Wait()
	close(w.jobs)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// Tracked entries the walk did not match: gone, or replaced by
	// something that is not a file of the same kind.
	for _, s := range seeds {
		for i := s.lo; i < s.hi; i++ {
			m := w.marks[i-w.markLo]
			e := &st.idx.entries[i]
			if m == markMatched || e.skipWorkTr || i > 0 && st.idx.entries[i-1].name == e.name {
				continue // matched, not checked out, or a later stage of an unmerged path
			}
			obs := wtObs{kind: wtAbsent}
			if m == markSeen {
				// Its directory was read but had no file of that name
				// and kind: look again, in case it appeared since.
				dir, name := st.parentDir(e.name)
				obs = st.observeTracked(i, dir, name, h)
			}
			if obs.kind != wtClean {
				w.res.dirty[i] = obs
			}
		}
	}
	return &w.res, nil
}

// spawn queues a directory, or walks it on this goroutine when the queue
// is full.
func (w *walker) spawn(j dirJob) {
	w.wg.Add(1)
	select {
	case w.jobs <- j:
	default:
		w.dir(j)
	}
}

// dir walks one directory and queues its subdirectories.
func (w *walker) dir(j dirJob) {
	defer w.wg.Done()
	if w.ctx.Err() != nil {
		return
	}
	st := w.st
	abs := filepath.Join(st.root, filepath.FromSlash(j.rel))
	dh, ents, err := openDir(abs)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			// There but unreadable: like git, take its tracked files as
			// unchanged (and say so) rather than deleted.
			st.logger.Warn("cannot read directory; its tracked files are taken as unchanged", "path", j.rel, "err", err)
			for i := j.lo; i < j.hi; i++ {
				w.marks[i-w.markLo] = markMatched
			}
			return
		}
		// Gone: its tracked entries stay unmatched.
		st.logger.Debug("read directory", "path", j.rel, "err", err)
		return
	}
	defer dh.close()
	prefix := ""
	if j.rel != "" {
		prefix = j.rel + "/"
	}
	frame := j.frame
	if !j.excluded {
		for _, d := range ents {
			if d.name == ".gitignore" {
				if d.typ == 0 {
					frame = dirFrame(st.root, j.rel, frame)
				}
				break
			}
		}
	}

	kb := kidBufs.Get().(*[]child)
	kids := st.idx.children(j.lo, j.hi, len(prefix), (*kb)[:0])
	defer func() {
		*kb = kids[:0]
		kidBufs.Put(kb)
	}()
	for _, k := range kids {
		if !k.dir {
			for i := k.lo; i < k.hi; i++ {
				w.marks[i-w.markLo] = markSeen
			}
		}
	}
	// A gitlink matches a directory: sort it as one.
	for _, k := range kids {
		if !k.dir && st.idx.entries[k.lo].mode == modeGitlink {
			sort.SliceStable(kids, func(a, b int) bool {
				return cmpKey(kids[a].name, st.kidIsDir(kids[a]), kids[b].name, st.kidIsDir(kids[b])) < 0
			})
			break
		}
	}

	var dirty map[int]wtObs
	var untracked map[string]wtObs
	ki, di := 0, 0
	for ki < len(kids) || di < len(ents) {
		var c int
		switch {
		case ki >= len(kids):
			c = 1
		case di >= len(ents):
			c = -1
		default:
			c = cmpKey(kids[ki].name, st.kidIsDir(kids[ki]), ents[di].name, ents[di].isDir())
		}
		if c < 0 {
			ki++ // not in the work tree under this name and kind
			continue
		}
		if c > 0 {
			if obs, ok := w.untrackedEntry(j, prefix, ents[di], frame); ok {
				if untracked == nil {
					untracked = map[string]wtObs{}
				}
				untracked[joinRel(prefix, ents[di].name)] = obs
			}
			di++
			continue
		}
		k := kids[ki]
		ki++
		di++
		if k.dir {
			rel := prefix + k.name
			w.spawn(dirJob{rel: rel, lo: k.lo, hi: k.hi, frame: frame,
				excluded: j.excluded || frame.excluded(rel, true) || st.filter.pruneDir(rel)})
			continue
		}
		for i := k.lo; i < k.hi; i++ {
			w.marks[i-w.markLo] = markMatched
		}
		if obs := w.st.observeTracked(k.lo, dh, k.name, w.hasher); obs.kind != wtClean {
			if dirty == nil {
				dirty = map[int]wtObs{}
			}
			dirty[k.lo] = obs
		}
	}

	w.mu.Lock()
	if !j.excluded {
		w.res.frames[j.rel] = frame
	}
	for i, o := range dirty {
		w.res.dirty[i] = o
	}
	for p, o := range untracked {
		w.res.untracked[p] = o
	}
	w.mu.Unlock()
}

// joinRel returns prefix+name as a new string. Directory entry names point
// into a buffer that is reused once the directory is closed, and Go returns
// name itself for "" + name: anything kept must be built by joinRel.
func joinRel(prefix, name string) string {
	if prefix == "" {
		return strings.Clone(name)
	}
	return prefix + name
}

// kidBufs holds the buffers of the index children of a directory.
var kidBufs = sync.Pool{New: func() any { return new([]child) }}

// kidIsDir reports whether an index child sorts and matches as a
// directory: a subdirectory, or a gitlink (whose work tree is one).
func (st *state) kidIsDir(k child) bool {
	return k.dir || st.idx.entries[k.lo].mode == modeGitlink
}

// untrackedEntry observes a work tree entry with no index entry, and
// queues it when it is a directory worth walking.
func (w *walker) untrackedEntry(j dirJob, prefix string, d dirent, frame *ignoreFrame) (wtObs, bool) {
	name := d.name
	if j.excluded || name == ".git" || j.rel == "" && name == trackingDir {
		return wtObs{}, false
	}
	rel := joinRel(prefix, name)
	st := w.st
	switch t := d.typ; {
	case t == fs.ModeDir:
		if frame.excluded(rel, true) || st.filter.pruneDir(rel) {
			return wtObs{}, false
		}
		if _, ok, _ := dotGit(filepath.Join(st.root, filepath.FromSlash(rel))); ok {
			return wtObs{kind: wtNested}, true
		}
		w.spawn(dirJob{rel: rel, frame: frame})
		return wtObs{}, false
	case t == 0, t == fs.ModeSymlink:
		if frame.excluded(rel, false) {
			return wtObs{}, false
		}
		mode := uint32(modeRegular)
		if t == fs.ModeSymlink {
			mode = modeSymlink
		}
		return wtObs{kind: wtUntracked, v: version{mode: mode}}, true
	}
	// Sockets, pipes, devices: git ignores them; they are listed as
	// skipped, and never opened.
	if frame.excluded(rel, false) {
		return wtObs{}, false
	}
	return wtObs{kind: wtUntracked, v: version{mode: modeSpecial}}, true
}

// modeSpecial is the work tree version of a named pipe, a socket or a
// device (S_IFIFO; no index mode): git cannot track one, and reviewls lists
// it as skipped without opening it, which could block forever.
const modeSpecial = 0o010000

// observeTracked compares the tracked path whose first index entry is i
// with the file called name in directory dir.
func (st *state) observeTracked(i int, dir *dirHandle, name string, h *hasher) wtObs {
	e := &st.idx.entries[i]
	unmerged := e.stage != 0 || i+1 < len(st.idx.entries) && st.idx.entries[i+1].name == e.name
	if e.skipWorkTr && !unmerged {
		return wtObs{kind: wtClean}
	}
	s, err := dir.lstat(name)
	if err != nil {
		return wtObs{kind: wtAbsent}
	}
	if e.mode == modeGitlink && !unmerged {
		if !s.mode.IsDir() {
			return wtObs{kind: wtAbsent}
		}
		return st.gitlink(e, filepath.Join(dir.abs, name))
	}
	mode := worktreeMode(s.mode, st.fileMode, e.mode)
	if mode == 0 {
		return wtObs{kind: wtAbsent}
	}
	if unmerged || e.intentAdd {
		// The index holds no content to compare with: the work tree
		// version is all there is.
		return wtObs{kind: wtModified, v: version{mode: mode}}
	}
	if mode == e.mode && s.matches(e) && !racy(e, st.idx.id) {
		return wtObs{kind: wtClean}
	}
	if mode != e.mode {
		return wtObs{kind: wtModified, v: version{mode: mode}}
	}
	var conv conversion
	if mode != modeSymlink {
		conv = st.conv.of(e.name)
	}
	if conv.identity() && e.size != 0 && uint32(s.size) != e.size {
		// Changed for sure, no need to hash: Scan reads the content
		// anyway. (git zeroes the recorded size of an entry that was
		// racily clean when the index was written, so a zero size
		// proves nothing.) Content that is converted when checked in
		// may have a new size and the same blob: it is hashed, where
		// git status trusts the size and reports such a file modified
		// while git diff shows no change.
		return wtObs{kind: wtModified, v: version{mode: mode}}
	}
	hash, err := h.hash(st, e, filepath.Join(dir.abs, name), s, conv)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return wtObs{kind: wtAbsent}
	case err != nil:
		// There but unreadable (permissions): its content is unknown, so
		// it may have changed; reading it for the review reports why not.
		return wtObs{kind: wtModified, v: version{mode: mode}}
	}
	if hash == e.hash {
		return wtObs{kind: wtClean}
	}
	return wtObs{kind: wtModified, v: version{hash: hash, mode: mode}}
}

// parentDir returns a handle on the directory holding rel, and rel's base
// name.
func (st *state) parentDir(rel string) (*dirHandle, string) {
	abs := st.abs(rel)
	return pathDir(filepath.Dir(abs)), filepath.Base(abs)
}

// gitlink observes a submodule: changed when its checked-out commit is not
// the recorded one. Its work tree is never entered.
func (st *state) gitlink(e *entry, abs string) wtObs {
	head, ok := submoduleHead(abs)
	if !ok || head == e.hash {
		return wtObs{kind: wtClean}
	}
	return wtObs{kind: wtModified, v: version{hash: head, mode: modeGitlink}}
}

// cmpKey compares two names in git's tree order, where a directory sorts
// as its name followed by '/'.
func cmpKey(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	x, y := keyAt(a, aDir, n), keyAt(b, bDir, n)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// keyAt returns byte i of name as sorted (with '/' after a directory), or
// -1 past its end.
func keyAt(name string, dir bool, i int) int {
	switch {
	case i < len(name):
		return int(name[i])
	case i == len(name) && dir:
		return '/'
	}
	return -1
}

// hasher hashes work tree files as git blobs, remembering the results of
// earlier scans of files whose stat data disagrees with the index.
type hasher struct {
	repo *Repo
	now  time.Time
}

type hashMemo struct {
	st   stat
	conv conversion
	// index is the blob of the index entry the hash was compared with:
	// text=auto conversion depends on it.
	index plumbing.Hash
	hash  plumbing.Hash
}

// racyMargin is how recent a file's modification may be for its hash to be
// remembered: a file written within this window of the hashing could
// change again without its timestamp changing on file systems with coarse
// timestamps (FAT has 2 seconds).
const racyMargin = 3 * time.Second

// hash returns the blob hash of the file at abs (the link target for a
// symbolic link), whose stat data is s and whose index entry is e, as git
// would store it (after conversion conv).
func (h *hasher) hash(st *state, e *entry, abs string, s stat, conv conversion) (plumbing.Hash, error) {
	if h.repo != nil {
		h.repo.mu.Lock()
		m, ok := h.repo.hashes[e.name]
		h.repo.mu.Unlock()
		if ok && m.st == s && m.conv == conv && m.index == e.hash {
			return m.hash, nil
		}
	}
	var sum plumbing.Hash
	switch {
	case s.mode.Type() == fs.ModeSymlink:
		target, err := os.Readlink(abs)
		if err != nil {
			return sum, err
		}
		sum = hashObject(plumbing.BlobObject, []byte(target))
	case !conv.identity():
		var err error
		if sum, err = st.hashConverted(e, abs, conv); err != nil {
			return sum, err
		}
	default:
		var err error
		if sum, err = hashFile(abs, s.size); err != nil {
			return sum, err
		}
	}
	mtime := time.Unix(int64(s.mtimeSec), int64(s.mtimeNsec))
	if h.repo != nil && mtime.Before(h.now.Add(-racyMargin)) {
		h.repo.mu.Lock()
		if h.repo.hashes == nil {
			h.repo.hashes = map[string]hashMemo{}
		}
		h.repo.hashes[e.name] = hashMemo{st: s, conv: conv, index: e.hash, hash: sum}
		h.repo.mu.Unlock()
	}
	return sum, nil
}

// hashFile returns the blob hash of the file at abs, whose size is size
// unless it is being written to.
func hashFile(abs string, size int64) (plumbing.Hash, error) {
	var sum plumbing.Hash
	f, err := regular.Open(abs)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	d := sha1.New()
	d.Write([]byte("blob " + strconv.FormatInt(size, 10) + "\x00"))
	n, err := io.Copy(d, f)
	if err != nil {
		return sum, err
	}
	if n != size {
		// Written to while we read it: hash what is there now.
		b, err := regular.ReadFile(abs)
		if err != nil {
			return sum, err
		}
		return hashObject(plumbing.BlobObject, b), nil
	}
	d.Sum(sum[:0])
	return sum, nil
}

// hashConverted returns the blob hash of the work tree file at abs, whose
// index entry is e, after conversion conv.
func (st *state) hashConverted(e *entry, abs string, conv conversion) (plumbing.Hash, error) {
	if conv.cleans && st.lfsFilter(e.name, conv) {
		// git-lfs's clean filter: stream the content into its pointer.
		f, err := regular.Open(abs)
		if err != nil {
			return plumbing.Hash{}, err
		}
		defer f.Close()
		p, err := lfsClean(f)
		if err != nil {
			return plumbing.Hash{}, err
		}
		return hashObject(plumbing.BlobObject, p), nil
	}
	data, err := regular.ReadFile(abs)
	if err != nil {
		return plumbing.Hash{}, err
	}
	return hashObject(plumbing.BlobObject, conv.clean(data, func() bool { return st.indexCRLF(e.name) })), nil
}
