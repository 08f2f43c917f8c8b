package gitdiff

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"container/list"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/internal/regular"
)

// objectStore reads the objects of a repository's object directory and its
// alternates, as git does: packs first, each searched through its index
// in place (see [packIndex]), then loose objects; a miss looks for packs
// that appeared since (a `git gc` or fetch under a long-lived server)
// before it reports [plumbing.ErrObjectNotFound]. Deltas of both kinds are
// resolved by walking the chain to its base; resolved objects are kept in
// a cache of bounded size, so memory stays flat in the size of the packs.
// It is safe for concurrent use: reads of known objects run side by side
// (the diff of a large change reads a thousand blobs on two cores); only
// a scan for new packs, or a Close, takes the store for itself.
type objectStore struct {
	// mu guards dirs and their packs: held to read for a lookup and a
	// read, exclusively to scan the directories and to close.
	mu     sync.RWMutex
	dirs   []*objectDir
	cmu    sync.Mutex // guards cache
	cache  objectCache
	logger *slog.Logger
	// inflaters are reused to inflate one object after another.
	inflaters sync.Pool
	// reads counts the objects read, for tests of the caches above.
	reads atomic.Int64
}

// inflater is a zlib reader with its buffer, reused between objects.
type inflater struct {
	zr io.ReadCloser
	br *bufio.Reader
}

// errExclusive reports that a lookup under the shared lock needs the store
// for itself: a directory not scanned yet, or a base outside the pack.
var errExclusive = errors.New("object store: needs the exclusive lock")

// objectDir is one object directory: its loose objects and its packs.
type objectDir struct {
	path    string
	scanned bool
	packs   []*pack
	// unusable are the packs that could not be opened, with the reason,
	// by path: their objects read as missing, and the error says why.
	unusable map[string]error
}

// pack is an open pack file with its index.
type pack struct {
	path  string // of the .pack
	idx   *packIndex
	unmap func() error
	f     *os.File
	size  int64
}

// maxDeltaChain bounds the length of a delta chain, against a cyclic or
// absurd pack (git's own limit on --depth is 4095).
const maxDeltaChain = 10000

// maxObjectSize is the largest object size a header may claim.
const maxObjectSize = 1 << 40

// newObjectStore opens the object directories dirs, searched in order.
// Packs are opened on first use.
func newObjectStore(dirs []string, logger *slog.Logger) *objectStore {
	s := &objectStore{logger: logger, cache: newObjectCache(objectCacheBytes)}
	for _, d := range dirs {
		s.dirs = append(s.dirs, &objectDir{path: d})
	}
	return s
}

// Close releases every pack.
func (s *objectStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, d := range s.dirs {
		for _, p := range d.packs {
			errs = append(errs, p.close())
		}
		d.packs, d.scanned = nil, false
	}
	s.cmu.Lock()
	s.cache.clear()
	s.cmu.Unlock()
	return errors.Join(errs...)
}

func (p *pack) close() error {
	return errors.Join(p.unmap(), p.f.Close())
}

// scan opens the packs of d that are not open yet and closes those whose
// files are gone.
func (s *objectStore) scan(d *objectDir) {
	d.scanned = true
	dir := filepath.Join(d.path, "pack")
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		s.logger.Warn("list packs", "dir", dir, "err", err)
	}
	present := map[string]bool{}
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), ".idx"); ok && strings.HasPrefix(name, "pack-") {
			present[filepath.Join(dir, name+".pack")] = true
		}
	}
	kept := d.packs[:0]
	for _, p := range d.packs {
		if present[p.path] {
			kept = append(kept, p)
			delete(present, p.path)
			continue
		}
		// A repack deleted it; what it held is in the new packs.
		s.cmu.Lock()
		s.cache.dropPack(p)
		s.cmu.Unlock()
		if err := p.close(); err != nil {
			s.logger.Warn("close pack", "pack", p.path, "err", err)
		}
	}
	d.packs = kept
	d.unusable = map[string]error{}
	for _, path := range slices.Sorted(func(yield func(string) bool) {
		for p := range present {
			if !yield(p) {
				return
			}
		}
	}) {
		p, err := openPack(path)
		if err != nil {
			// git skips a pack it cannot use, and so does reviewls.
			s.logger.Warn("skip pack", "pack", path, "err", err)
			d.unusable[path] = err
			continue
		}
		d.packs = append(d.packs, p)
	}
}

// openPack opens the pack at path (".pack") and maps its index.
func openPack(path string) (*pack, error) {
	idxPath := strings.TrimSuffix(path, ".pack") + ".idx"
	data, unmap, err := mapFile(idxPath)
	if err != nil {
		return nil, err
	}
	idx, err := parsePackIndex(data)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("%s: %w", filepath.Base(idxPath), err)
	}
	f, err := regular.Open(path)
	if err != nil {
		unmap()
		return nil, err
	}
	p := &pack{path: path, idx: idx, unmap: unmap, f: f}
	fi, err := f.Stat()
	if err == nil {
		p.size = fi.Size()
		err = p.checkHeader()
	}
	if err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// checkHeader checks the signature of the pack and that it holds as many
// objects as its index.
func (p *pack) checkHeader() error {
	var h [12]byte
	if _, err := p.f.ReadAt(h[:], 0); err != nil {
		return fmt.Errorf("read pack header: %w", err)
	}
	if string(h[:4]) != "PACK" {
		return fmt.Errorf("%s: not a pack file", filepath.Base(p.path))
	}
	if v := binary.BigEndian.Uint32(h[4:]); v != 2 && v != 3 {
		return fmt.Errorf("%s: unsupported pack version %d", filepath.Base(p.path), v)
	}
	if n := binary.BigEndian.Uint32(h[8:]); int(n) != p.idx.n {
		return fmt.Errorf("%s: %d objects, its index %d", filepath.Base(p.path), n, p.idx.n)
	}
	return nil
}

// location is where an object lives: a pack and an offset, or a loose
// object file.
type location struct {
	p     *pack
	off   int64
	loose string
}

// locate finds object h. Called with mu held exclusively.
func (s *objectStore) locate(h plumbing.Hash) (location, error) {
	loc, ok, err := s.search(h, true)
	if err != nil || ok {
		return loc, err
	}
	// Perhaps a repack or a fetch since the packs were listed.
	for _, d := range s.dirs {
		s.scan(d)
	}
	loc, ok, err = s.search(h, true)
	if err == nil && !ok {
		err = s.notFound()
	}
	return loc, err
}

// notFound is [plumbing.ErrObjectNotFound], with the first pack that could
// not be opened when there is one.
func (s *objectStore) notFound() error {
	for _, d := range s.dirs {
		for _, p := range slices.Sorted(maps.Keys(d.unusable)) {
			return fmt.Errorf("%w (unusable pack %s: %v)", plumbing.ErrObjectNotFound, p, d.unusable[p])
		}
	}
	return plumbing.ErrObjectNotFound
}

// search looks for h in the packs, then among the loose objects, of each
// directory in turn. Held exclusively, it scans a directory not scanned
// yet and moves the pack it finds h in first; held shared, it returns
// errExclusive instead of scanning.
func (s *objectStore) search(h plumbing.Hash, exclusive bool) (location, bool, error) {
	hex := h.String()
	for _, d := range s.dirs {
		if !d.scanned {
			if !exclusive {
				return location{}, false, errExclusive
			}
			s.scan(d)
		}
		for i, p := range d.packs {
			off, ok, err := p.idx.find(h)
			if err != nil {
				return location{}, false, fmt.Errorf("%s: %w", filepath.Base(p.path), err)
			}
			if ok {
				if i > 0 && exclusive {
					// Most lookups hit the pack of the last one.
					copy(d.packs[1:i+1], d.packs[:i])
					d.packs[0] = p
				}
				return location{p: p, off: off}, true, nil
			}
		}
		path := filepath.Join(d.path, hex[:2], hex[2:])
		if _, err := os.Lstat(path); err == nil {
			return location{loose: path}, true, nil
		}
	}
	return location{}, false, nil
}

// read returns the type and content of object h. The content is the
// caller's.
func (s *objectStore) read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	s.reads.Add(1)
	s.mu.RLock()
	t, data, err := s.readLocked(h, false)
	s.mu.RUnlock()
	if err != errExclusive {
		return t, data, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readLocked(h, true)
}

// find locates h with mu held: exclusively, as locate; shared, a miss is
// errExclusive (h may be in a pack not seen yet).
func (s *objectStore) find(h plumbing.Hash, exclusive bool) (location, error) {
	if exclusive {
		return s.locate(h)
	}
	loc, ok, err := s.search(h, false)
	if err == nil && !ok {
		err = errExclusive
	}
	return loc, err
}

// readLocked is read with mu held, exclusively or not (see search).
func (s *objectStore) readLocked(h plumbing.Hash, exclusive bool) (plumbing.ObjectType, []byte, error) {
	loc, err := s.find(h, exclusive)
	if err != nil {
		return 0, nil, err
	}
	if loc.p == nil {
		t, _, data, err := s.readLoose(loc.loose, false)
		return t, data, err
	}
	t, data, err := s.unpack(loc.p, loc.off, exclusive)
	if err != nil {
		return 0, nil, err
	}
	return t, bytes.Clone(data), nil
}

// size returns the size of object h, reading no more than its header.
func (s *objectStore) size(h plumbing.Hash) (int64, error) {
	s.mu.RLock()
	n, err := s.sizeLocked(h, false)
	s.mu.RUnlock()
	if err != errExclusive {
		return n, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sizeLocked(h, true)
}

// sizeLocked is size with mu held, exclusively or not (see search).
func (s *objectStore) sizeLocked(h plumbing.Hash, exclusive bool) (int64, error) {
	loc, err := s.find(h, exclusive)
	if err != nil {
		return 0, err
	}
	if loc.p == nil {
		_, n, _, err := s.readLoose(loc.loose, true)
		return n, err
	}
	if e, ok := s.cacheGet(loc.p, loc.off); ok {
		return int64(len(e.data)), nil
	}
	hd, err := loc.p.header(loc.off)
	if err != nil {
		return 0, err
	}
	if !hd.delta() {
		return hd.size, nil
	}
	// A delta starts with the sizes of its base and of its result.
	prefix, err := s.inflate(loc.p, hd, 2*binary.MaxVarintLen64)
	if err != nil {
		return 0, err
	}
	_, n := binary.Uvarint(prefix)
	if n <= 0 {
		return 0, loc.p.corrupt(loc.off, "bad delta header")
	}
	size, m := binary.Uvarint(prefix[n:])
	if m <= 0 || size > maxObjectSize {
		return 0, loc.p.corrupt(loc.off, "bad delta header")
	}
	return int64(size), nil
}

// has reports whether object h exists.
func (s *objectStore) has(h plumbing.Hash) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.locate(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return false, nil
	}
	return err == nil, err
}

// withPrefix lists the objects whose hash starts with prefix.
func (s *objectStore) withPrefix(prefix []byte) ([]plumbing.Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []plumbing.Hash
	hexPrefix := fmt.Sprintf("%x", prefix)
	for _, d := range s.dirs {
		s.scan(d)
		for _, p := range d.packs {
			out = p.idx.withPrefix(prefix, out)
		}
		if len(hexPrefix) < 2 {
			continue
		}
		ents, _ := os.ReadDir(filepath.Join(d.path, hexPrefix[:2]))
		for _, e := range ents {
			if name := hexPrefix[:2] + e.Name(); strings.HasPrefix(name, hexPrefix) && plumbing.IsHash(name) {
				out = append(out, plumbing.NewHash(name))
			}
		}
	}
	slices.SortFunc(out, func(a, b plumbing.Hash) int { return bytes.Compare(a[:], b[:]) })
	return slices.Compact(out), nil
}

// entryHeader is the header of one pack entry.
type entryHeader struct {
	off   int64 // of the entry
	typ   plumbing.ObjectType
	size  int64 // of the inflated data (for a delta, of the delta)
	data  int64 // offset of the compressed data
	base  int64 // OFS_DELTA: offset of the base
	ref   plumbing.Hash
	isRef bool
}

func (hd entryHeader) delta() bool {
	return hd.typ == plumbing.OFSDeltaObject || hd.typ == plumbing.REFDeltaObject
}

func (p *pack) corrupt(off int64, what string) error {
	return fmt.Errorf("%s: object at offset %d: %s", filepath.Base(p.path), off, what)
}

// header reads the header of the entry at off.
func (p *pack) header(off int64) (entryHeader, error) {
	hd := entryHeader{off: off}
	if off < 12 || off >= p.size-hashLen {
		return hd, p.corrupt(off, "offset outside the pack")
	}
	var buf [2*binary.MaxVarintLen64 + hashLen]byte
	n, err := p.f.ReadAt(buf[:], off)
	if n == 0 && err != nil {
		return hd, fmt.Errorf("read %s: %w", filepath.Base(p.path), err)
	}
	b := buf[:n]
	c := b[0]
	hd.typ = plumbing.ObjectType(c >> 4 & 7)
	size := uint64(c & 15)
	i, shift := 1, 4
	for c&0x80 != 0 {
		if i >= len(b) || shift > 56 {
			return hd, p.corrupt(off, "bad size")
		}
		c = b[i]
		i++
		size |= uint64(c&0x7f) << shift
		shift += 7
	}
	if size > maxObjectSize {
		return hd, p.corrupt(off, "bad size")
	}
	hd.size = int64(size)
	switch hd.typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
	case plumbing.OFSDeltaObject:
		// Big-endian base-128 with an offset of one added per byte, so
		// that each length has its own range.
		if i >= len(b) {
			return hd, p.corrupt(off, "bad delta offset")
		}
		c = b[i]
		i++
		rel := uint64(c & 0x7f)
		for c&0x80 != 0 {
			if i >= len(b) || rel >= 1<<50 {
				return hd, p.corrupt(off, "bad delta offset")
			}
			c = b[i]
			i++
			rel = (rel+1)<<7 | uint64(c&0x7f)
		}
		if rel == 0 || rel > uint64(off) {
			return hd, p.corrupt(off, "delta base outside the pack")
		}
		hd.base = off - int64(rel)
	case plumbing.REFDeltaObject:
		if i+hashLen > len(b) {
			return hd, p.corrupt(off, "truncated delta base")
		}
		copy(hd.ref[:], b[i:])
		i += hashLen
		hd.isRef = true
	default:
		return hd, p.corrupt(off, fmt.Sprintf("bad object type %d", hd.typ))
	}
	hd.data = off + int64(i)
	if hd.data >= p.size {
		return hd, p.corrupt(off, "truncated")
	}
	return hd, nil
}

// inflate returns the first limit bytes (all, for -1) of the data of the
// entry hd. Called with mu held.
func (s *objectStore) inflate(p *pack, hd entryHeader, limit int64) ([]byte, error) {
	want := hd.size
	if limit >= 0 {
		want = min(want, limit)
	}
	in := s.inflater()
	defer s.inflaters.Put(in)
	if err := in.reset(io.NewSectionReader(p.f, hd.data, p.size-hd.data)); err != nil {
		return nil, p.corrupt(hd.off, err.Error())
	}
	data, err := readN(in.zr, want)
	if err != nil {
		return nil, p.corrupt(hd.off, "inflate: "+err.Error())
	}
	return data, nil
}

func (s *objectStore) inflater() *inflater {
	if in, ok := s.inflaters.Get().(*inflater); ok {
		return in
	}
	return &inflater{}
}

// reset points the inflater at the compressed data in r.
func (in *inflater) reset(r io.Reader) error {
	if in.br == nil {
		in.br = bufio.NewReaderSize(r, 16<<10)
	} else {
		in.br.Reset(r)
	}
	if in.zr == nil {
		zr, err := zlib.NewReader(in.br)
		in.zr = zr
		return err
	}
	return in.zr.(zlib.Resetter).Reset(in.br, nil)
}

func (s *objectStore) cacheGet(p *pack, off int64) (*cacheEntry, bool) {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	return s.cache.get(p, off)
}

func (s *objectStore) cachePut(p *pack, off int64, typ plumbing.ObjectType, data []byte) {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	s.cache.put(p, off, typ, data)
}

// readN reads exactly n bytes from r. Beyond 64 MiB it allocates as the
// bytes come rather than trusting n, which a damaged header may inflate.
func readN(r io.Reader, n int64) ([]byte, error) {
	if n <= 64<<20 {
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		return b, nil
	}
	var b bytes.Buffer
	m, err := b.ReadFrom(io.LimitReader(r, n))
	if err != nil {
		return nil, err
	}
	if m < n {
		return nil, io.ErrUnexpectedEOF
	}
	return b.Bytes(), nil
}

// deltaLink is one delta of a chain being resolved.
type deltaLink struct {
	p     *pack
	off   int64
	delta []byte
}

// unpack returns the type and content of the entry at off in p, resolving
// deltas. The content may be shared with the cache. Called with mu held,
// exclusively or not: held shared, a base outside p is errExclusive.
func (s *objectStore) unpack(p *pack, off int64, exclusive bool) (plumbing.ObjectType, []byte, error) {
	var chain []deltaLink
	var typ plumbing.ObjectType
	var data []byte
	for {
		if e, ok := s.cacheGet(p, off); ok {
			typ, data = e.typ, e.data
			break
		}
		hd, err := p.header(off)
		if err != nil {
			return 0, nil, err
		}
		d, err := s.inflate(p, hd, -1)
		if err != nil {
			return 0, nil, err
		}
		if !hd.delta() {
			typ, data = hd.typ, d
			s.cachePut(p, off, typ, data)
			break
		}
		if len(chain) >= maxDeltaChain {
			return 0, nil, p.corrupt(off, fmt.Sprintf("delta chain longer than %d", maxDeltaChain))
		}
		chain = append(chain, deltaLink{p, off, d})
		if !hd.isRef {
			off = hd.base
			continue
		}
		// A REF_DELTA base: in the same pack as a rule, anywhere else in
		// a thin pack that was completed by hand.
		if boff, ok, err := p.idx.find(hd.ref); err == nil && ok {
			off = boff
			continue
		}
		if !exclusive {
			return 0, nil, errExclusive
		}
		loc, err := s.locate(hd.ref)
		if err != nil {
			return 0, nil, fmt.Errorf("%s: object at offset %d: delta base %s: %w", filepath.Base(p.path), hd.off, hd.ref, err)
		}
		if loc.p == nil {
			t, _, base, err := s.readLoose(loc.loose, false)
			if err != nil {
				return 0, nil, err
			}
			typ, data = t, base
			break
		}
		p, off = loc.p, loc.off
	}
	for i := len(chain) - 1; i >= 0; i-- {
		l := chain[i]
		out, err := applyDelta(data, l.delta)
		if err != nil {
			return 0, nil, l.p.corrupt(l.off, err.Error())
		}
		data = out
		s.cachePut(l.p, l.off, typ, data)
	}
	return typ, data, nil
}

// applyDelta applies a git delta to base.
func applyDelta(base, delta []byte) ([]byte, error) {
	srcSize, n := binary.Uvarint(delta)
	if n <= 0 {
		return nil, errors.New("bad delta header")
	}
	delta = delta[n:]
	dstSize, n := binary.Uvarint(delta)
	if n <= 0 || dstSize > maxObjectSize {
		return nil, errors.New("bad delta header")
	}
	delta = delta[n:]
	if srcSize != uint64(len(base)) {
		return nil, fmt.Errorf("delta for a base of %d bytes applied to %d", srcSize, len(base))
	}
	out := make([]byte, 0, min(dstSize, 64<<20))
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			// Copy from the base: bits 0-3 say which offset bytes
			// follow, bits 4-6 which size bytes.
			var offset, size uint64
			for i := range 7 {
				if op&(1<<i) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, errors.New("truncated delta")
				}
				if i < 4 {
					offset |= uint64(delta[0]) << (8 * i)
				} else {
					size |= uint64(delta[0]) << (8 * (i - 4))
				}
				delta = delta[1:]
			}
			if size == 0 {
				size = 0x10000
			}
			if offset+size > uint64(len(base)) {
				return nil, errors.New("delta copies past its base")
			}
			out = append(out, base[offset:offset+size]...)
		case op != 0:
			if int(op) > len(delta) {
				return nil, errors.New("truncated delta")
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errors.New("reserved delta opcode 0")
		}
		if uint64(len(out)) > dstSize {
			return nil, errors.New("delta result larger than announced")
		}
	}
	if uint64(len(out)) != dstSize {
		return nil, fmt.Errorf("delta result of %d bytes, %d announced", len(out), dstSize)
	}
	return out, nil
}

// readLoose reads the type, size and, unless headerOnly, the content of
// the loose object file at path. Called with mu held.
func (s *objectStore) readLoose(path string, headerOnly bool) (plumbing.ObjectType, int64, []byte, error) {
	f, err := regular.Open(path)
	if err != nil {
		return 0, 0, nil, err
	}
	defer f.Close()
	bad := func(what string) error { return fmt.Errorf("loose object %s: %s", path, what) }
	in := s.inflater()
	defer s.inflaters.Put(in)
	if err := in.reset(f); err != nil {
		return 0, 0, nil, bad(err.Error())
	}
	zr := bufio.NewReaderSize(in.zr, 64)
	hdr, err := zr.ReadSlice(0)
	if err != nil {
		return 0, 0, nil, bad("bad header")
	}
	kind, num, ok := strings.Cut(string(hdr[:len(hdr)-1]), " ")
	t, terr := plumbing.ParseObjectType(kind)
	size, serr := strconv.ParseUint(num, 10, 63)
	if !ok || terr != nil || serr != nil || size > maxObjectSize || t < plumbing.CommitObject || t > plumbing.TagObject {
		return 0, 0, nil, bad("bad header")
	}
	if headerOnly {
		return t, int64(size), nil, nil
	}
	data, err := readN(zr, int64(size))
	if err != nil {
		return 0, 0, nil, bad(err.Error())
	}
	return t, int64(size), data, nil
}

// objectCacheBytes bounds the content kept by the cache of a store.
const objectCacheBytes = 32 << 20

// objectCache is a least-recently-used cache of resolved pack entries,
// bounded in bytes: delta bases are read once per chain, and the trees a
// walk of history meets again are not resolved again.
type objectCache struct {
	max, used int
	lru       *list.List // of *cacheEntry, most recent first
	byKey     map[cacheKey]*list.Element
}

type cacheKey struct {
	p   *pack
	off int64
}

type cacheEntry struct {
	key  cacheKey
	typ  plumbing.ObjectType
	data []byte
}

func newObjectCache(max int) objectCache {
	return objectCache{max: max, lru: list.New(), byKey: map[cacheKey]*list.Element{}}
}

func (c *objectCache) get(p *pack, off int64) (*cacheEntry, bool) {
	el, ok := c.byKey[cacheKey{p, off}]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cacheEntry), true
}

func (c *objectCache) put(p *pack, off int64, typ plumbing.ObjectType, data []byte) {
	k := cacheKey{p, off}
	if _, ok := c.byKey[k]; ok || len(data) > c.max/8 {
		return
	}
	c.byKey[k] = c.lru.PushFront(&cacheEntry{key: k, typ: typ, data: data})
	c.used += len(data)
	for c.used > c.max {
		c.remove(c.lru.Back())
	}
}

func (c *objectCache) remove(el *list.Element) {
	e := c.lru.Remove(el).(*cacheEntry)
	delete(c.byKey, e.key)
	c.used -= len(e.data)
}

// dropPack forgets the entries of p.
func (c *objectCache) dropPack(p *pack) {
	for el := c.lru.Front(); el != nil; {
		next := el.Next()
		if el.Value.(*cacheEntry).key.p == p {
			c.remove(el)
		}
		el = next
	}
}

func (c *objectCache) clear() {
	c.lru.Init()
	clear(c.byKey)
	c.used = 0
}
