package gitdiff

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/internal/tracking"
)

// The history cache keeps, per commit, what History needs of it, in
// <root>/.copilot-tracking/cache/history.v1, so that a review after a
// commit reads one new commit instead of walking hundreds. Every problem
// with the file (missing, unreadable, corrupt, another version, another
// shallow state, not writable) makes History walk as if there were no
// cache; it never fails a review.
const (
	histCacheDir  = "cache"
	histCacheName = "history.v1"
	// histCacheMagic starts the file; the version follows it.
	histCacheMagic   = "reviewls history cache\n"
	histCacheVersion = 1
)

// maxHistEntries bounds the commits the cache file keeps: the most
// recently used ones, enough for ten walks of the engine's 200 commits
// (a walk after a new commit shares all but one with the one before), a
// few hundred kilobytes on moby.
const maxHistEntries = 2048

// maxTouchedPaths bounds the touched entries a commit's entry lists. A
// commit that grows more (asked about below a vendor bump, say) is marked
// wide and walked along the asked paths each time it is needed: listing
// thousands of paths would cost more to store and load than the walk. A
// variable for tests.
var maxTouchedPaths = 2000

// histCacheTempStale is the age after which a temporary file of the cache
// is a crashed writer's leftover: a write takes milliseconds.
const histCacheTempStale = time.Minute

// histCache is the per-commit cache of History. Guarded by objMu.
type histCache struct {
	// key identifies the shallow and graft state the entries were walked
	// in; another state drops them.
	key     [32]byte
	commits map[plumbing.Hash]*histCommit
	walks   uint64 // the number of the current walk, for histCommit.used
	dirty   bool   // entries changed since the file was read or written
}

func newHistCache(key [32]byte) *histCache {
	return &histCache{key: key, commits: map[plumbing.Hash]*histCommit{}}
}

// histKey digests the files that change what the walk sees as history:
// the shallow boundary, and the grafts (which go-git's reads, and so
// History, do not honour, but a change of them should not be trusted to
// leave entries valid). Replace refs are not honoured by the object reads
// either, so they cannot make an entry stale.
func (r *Repo) histKey() [32]byte {
	d := sha256.New()
	for _, name := range []string{"shallow", filepath.Join("info", "grafts")} {
		data, err := os.ReadFile(filepath.Join(r.commonDir, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			data = []byte("unreadable: " + err.Error())
		}
		fmt.Fprintf(d, "%s %d\n", name, len(data))
		d.Write(data)
	}
	var k [32]byte
	d.Sum(k[:0])
	return k
}

// historyCache returns the cache for the current shallow state, reading
// the file on first use. Called with objMu held.
func (r *Repo) historyCache() *histCache {
	key := r.histKey()
	if r.hist != nil && r.hist.key == key {
		return r.hist
	}
	if r.hist != nil {
		r.logger.Debug("history cache: shallow or graft state changed, dropping it")
		r.hist = newHistCache(key)
		r.hist.dirty = true
		return r.hist
	}
	r.hist = newHistCache(key)
	data, err := r.readTrackingFile(path.Join(histCacheDir, histCacheName))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.logger.Debug("history cache unreadable, walking without it", "err", err)
		}
		return r.hist
	}
	c, err := decodeHistCache(data)
	switch {
	case err != nil:
		r.logger.Debug("history cache unusable, walking without it", "err", err)
		r.hist.dirty = true // rewrite it
	case c.key != key:
		r.logger.Debug("history cache of another shallow or graft state, dropping it")
		r.hist.dirty = true
	default:
		r.hist = c
	}
	return r.hist
}

// saveHistoryCache writes the cache when it changed and writes are
// allowed. Called with objMu held.
func (r *Repo) saveHistoryCache() {
	c := r.hist
	if c == nil || !c.dirty || r.histReadOnly {
		return
	}
	c.dirty = false
	if len(c.commits) > 2*maxHistEntries {
		c.prune(maxHistEntries)
	}
	if err := r.writeTrackingFile(path.Join(histCacheDir, histCacheName), c.encode(maxHistEntries)); err != nil {
		r.logger.Debug("history cache not written", "err", err)
	}
}

// recent returns up to n entries, most recently used first (by hash among
// equals, so the file is a function of the cache).
func (c *histCache) recent(n int) []*histCommit {
	all := make([]*histCommit, 0, len(c.commits))
	for _, e := range c.commits {
		all = append(all, e)
	}
	slices.SortFunc(all, func(a, b *histCommit) int {
		if a.used != b.used {
			if a.used > b.used {
				return -1
			}
			return 1
		}
		return bytes.Compare(a.hash[:], b.hash[:])
	})
	return all[:min(n, len(all))]
}

// prune keeps the n most recently used entries.
func (c *histCache) prune(n int) {
	kept := map[plumbing.Hash]*histCommit{}
	for _, e := range c.recent(n) {
		kept[e.hash] = e
	}
	c.commits = kept
}

// encode returns the file of the n most recently used entries:
//
//	magic, uvarint version, key[32], uvarint count, entries, sha256[32]
//
// An entry is hash[20], tree[20], uvarint parent count, parents[20]...,
// varint committer and author times, state byte, and for a known state
// the count of touched entries and each entry's path, as the uvarint
// length of the prefix it shares with the one before and the rest as a
// string (uvarint length, bytes), then the uvarint count of its trees (0:
// closed) and the trees. The trailing digest covers all before it. Author names and
// subjects are left out: a subject may hold a secret, which nothing
// reviewls writes may.
func (c *histCache) encode(n int) []byte {
	ents := c.recent(n)
	b := []byte(histCacheMagic)
	b = binary.AppendUvarint(b, histCacheVersion)
	b = append(b, c.key[:]...)
	b = binary.AppendUvarint(b, uint64(len(ents)))
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	for _, e := range ents {
		b = append(b, e.hash[:]...)
		b = append(b, e.tree[:]...)
		b = binary.AppendUvarint(b, uint64(len(e.parents)))
		for _, p := range e.parents {
			b = append(b, p[:]...)
		}
		b = binary.AppendVarint(b, e.committed)
		b = binary.AppendVarint(b, e.authored)
		b = append(b, byte(e.state))
		if e.state != touchKnown {
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(e.touched)))
		prev := ""
		for _, t := range e.touched {
			k := commonPrefix(prev, t.path)
			b = binary.AppendUvarint(b, uint64(k))
			str(t.path[k:])
			prev = t.path
			b = binary.AppendUvarint(b, uint64(len(t.trees)))
			for _, h := range t.trees {
				b = append(b, h[:]...)
			}
		}
	}
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// decodeHistCache parses a cache file. It rejects, naming the problem,
// anything encode would not have written: a bad digest, another version,
// a truncated or overlong entry, unsorted or unclean paths, a duplicate
// commit. The most recently used entry comes first; used keeps that order.
func decodeHistCache(data []byte) (*histCache, error) {
	body, ok := bytes.CutPrefix(data, []byte(histCacheMagic))
	if !ok {
		return nil, errors.New("not a history cache file")
	}
	// The version comes first: another version may digest otherwise.
	if v, k := binary.Uvarint(body); k <= 0 || v != histCacheVersion {
		return nil, fmt.Errorf("history cache of an unknown version (want %d)", histCacheVersion)
	}
	if len(body) < sha256.Size {
		return nil, errors.New("truncated history cache")
	}
	content, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if got := sha256.Sum256(content); !bytes.Equal(got[:], sum) {
		return nil, errors.New("history cache digest mismatch (truncated or corrupt)")
	}
	d := &histDecoder{b: content[len(histCacheMagic):]}
	d.uvarint()
	c := &histCache{commits: map[plumbing.Hash]*histCommit{}}
	copy(c.key[:], d.bytes(len(c.key)))
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)/(2*hashLen)) {
		return nil, fmt.Errorf("history cache claims %d entries in %d bytes", n, len(d.b))
	}
	for i := uint64(0); i < n && d.err == nil; i++ {
		e := d.entry()
		if d.err != nil {
			break
		}
		if _, dup := c.commits[e.hash]; dup {
			return nil, fmt.Errorf("history cache lists commit %s twice", e.hash)
		}
		e.used = n - i
		c.commits[e.hash] = e
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%d bytes after the last entry", len(d.b))
	}
	if d.err != nil {
		return nil, fmt.Errorf("read history cache: %w", d.err)
	}
	c.walks = n
	return c, nil
}

// histDecoder reads the fields of a cache file; the first problem sticks
// in err and makes every later read return zero values.
type histDecoder struct {
	b   []byte
	err error
}

func (d *histDecoder) fail(what string) {
	if d.err == nil {
		d.err = errors.New(what)
	}
	d.b = nil
}

func (d *histDecoder) bytes(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		d.fail("truncated entry")
		return make([]byte, max(n, 0))
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *histDecoder) uvarint() uint64 {
	v, k := binary.Uvarint(d.b)
	if d.err != nil || k <= 0 {
		d.fail("bad number")
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *histDecoder) varint() int64 {
	v, k := binary.Varint(d.b)
	if d.err != nil || k <= 0 {
		d.fail("bad number")
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *histDecoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("string longer than the file")
		return ""
	}
	return string(d.bytes(int(n)))
}

func (d *histDecoder) hash() plumbing.Hash {
	var h plumbing.Hash
	copy(h[:], d.bytes(hashLen))
	return h
}

func (d *histDecoder) entry() *histCommit {
	e := &histCommit{hash: d.hash(), tree: d.hash()}
	np := d.uvarint()
	if np > uint64(len(d.b)/hashLen) {
		d.fail("more parents than the file holds")
		return e
	}
	for range np {
		e.parents = append(e.parents, d.hash())
	}
	e.committed, e.authored = d.varint(), d.varint()
	st := d.bytes(1)
	e.state = touchState(st[0])
	switch e.state {
	case touchUnknown, touchWide:
		return e
	case touchKnown:
	default:
		d.fail(fmt.Sprintf("unknown entry state %d", st[0]))
		return e
	}
	np = d.uvarint()
	if np > uint64(maxTouchedPaths) {
		d.fail(fmt.Sprintf("%d paths in an entry (at most %d)", np, maxTouchedPaths))
		return e
	}
	prev := ""
	for range np {
		k := d.uvarint()
		if k > uint64(len(prev)) {
			d.fail("path shares more than the one before")
			return e
		}
		p := prev[:k] + d.str()
		if d.err != nil {
			return e
		}
		if clean, ok := cleanRel(p); !ok || clean != p || p <= prev {
			d.fail(fmt.Sprintf("bad or unsorted path %q", p))
			return e
		}
		te := touchEntry{path: p}
		if nt := d.uvarint(); nt != 0 {
			if nt != uint64(max(len(e.parents), 1)+1) {
				d.fail(fmt.Sprintf("open directory %q with %d trees for %d parents", p, nt, len(e.parents)))
				return e
			}
			for range nt {
				te.trees = append(te.trees, d.hash())
			}
		}
		e.touched = append(e.touched, te)
		prev = p
	}
	return e
}

// readTrackingFile reads rel (slash-separated) inside the work tree's
// .copilot-tracking folder.
func (r *Repo) readTrackingFile(rel string) ([]byte, error) {
	t, err := r.openTracking(false)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	return t.ReadFile(filepath.FromSlash(rel))
}

// writeTrackingFile writes data to rel (slash-separated) inside the work
// tree's .copilot-tracking folder, creating the folders: through a
// temporary file in the same folder and a rename, so a reader sees the old
// file or the new one, and concurrent writers each rename a whole file of
// their own (the last one wins; the cache loses nothing but entries it
// can compute again). It does not sync: a crash may leave a truncated
// file, which the digest rejects. Stale temporary files of crashed
// writers are removed.
func (r *Repo) writeTrackingFile(rel string, data []byte) (err error) {
	t, err := r.openTracking(true)
	if err != nil {
		return err
	}
	defer t.Close()
	dir, base := path.Split(rel)
	if dir != "" {
		if err := t.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", path.Join(trackingDir, dir), err)
		}
		// The folder ignores itself, so `git add -A` in a repository that
		// does not ignore .copilot-tracking never commits a cache.
		ignore := filepath.FromSlash(path.Join(dir, ".gitignore"))
		if _, err := t.Lstat(ignore); errors.Is(err, fs.ErrNotExist) {
			if err := t.WriteFile(ignore, []byte("*\n"), 0o644); err != nil {
				return fmt.Errorf("write %s: %w", path.Join(trackingDir, dir, ".gitignore"), err)
			}
		}
	}
	tmpPrefix := "." + base + ".tmp-"
	removeStaleTemps(t, dir, tmpPrefix)
	tmp := path.Join(dir, tmpPrefix+rand.Text()[:10])
	f, err := t.OpenFile(filepath.FromSlash(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w", path.Join(trackingDir, tmp), err)
	}
	defer func() {
		if err != nil {
			t.Remove(filepath.FromSlash(tmp))
		}
	}()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path.Join(trackingDir, tmp), err)
	}
	if err := t.Rename(filepath.FromSlash(tmp), filepath.FromSlash(rel)); err != nil {
		return fmt.Errorf("rename %s: %w", path.Join(trackingDir, rel), err)
	}
	return nil
}

// removeStaleTemps removes the temporary files named prefix* in dir of t
// that are older than histCacheTempStale.
func removeStaleTemps(t *os.Root, dir, prefix string) {
	d, err := t.Open(filepath.FromSlash(path.Clean("./" + dir)))
	if err != nil {
		return
	}
	ents, _ := d.ReadDir(-1)
	d.Close()
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > histCacheTempStale {
			t.Remove(filepath.FromSlash(path.Join(dir, e.Name())))
		}
	}
}

// openTracking opens the work tree's .copilot-tracking folder, creating it
// when create is set, and refuses it when it is a symbolic link or not a
// directory: nothing is ever read or written outside it.
func (r *Repo) openTracking(create bool) (*os.Root, error) {
	return tracking.Open(r.root, create)
}
