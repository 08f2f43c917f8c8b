package gitdiff

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/internal/regular"
)

// The index is parsed here rather than with go-git's
// plumbing/format/index decoder for two reasons: the decoder drops the
// invalidated nodes of the cache-tree (TREE) extension, which loses the
// shape of the tree that the HEAD-vs-index comparison walks, and it reads
// each entry through reflection and a hashing reader, which costs several
// times more than this parser on a 40,000-entry index.

// Index entry modes as stored in the index and in trees.
const (
	modeRegular    = 0o100644
	modeExecutable = 0o100755
	modeSymlink    = 0o120000
	modeGitlink    = 0o160000
	modeTree       = 0o040000
	// modeDeprecated is the group-writable file mode of trees written by
	// very old versions of git; it reads as modeRegular.
	modeDeprecated = 0o100664
)

// Index entry flags.
const (
	flagExtended     = 0x4000
	flagNameMask     = 0x0fff
	flagStageShift   = 12
	extIntentToAdd   = 1 << 13
	extSkipWorktree  = 1 << 14
	entryFixedLength = 62
)

// entry is one index entry. Names are repo-relative and slash-separated.
type entry struct {
	name       string
	hash       plumbing.Hash
	mode       uint32
	size       uint32
	ctimeSec   uint32
	ctimeNsec  uint32
	mtimeSec   uint32
	mtimeNsec  uint32
	ino        uint32
	stage      uint8
	intentAdd  bool
	skipWorkTr bool
}

// index is a parsed index file. Entries are sorted by name, then stage.
type index struct {
	entries []entry
	// tree is the cache-tree, or nil when the index has none (indexes
	// written by go-git, for example).
	tree *cacheNode
	// id identifies the file the index was read from, so that a change of
	// the index can be noticed without reading it.
	id fileID
	// link is the link extension of a split index, until the shared
	// index is merged in (readShared).
	link *splitLink
	// sparse reports sparse directory entries, until they are expanded
	// (expandSparse).
	sparse bool
}

// cacheNode is a node of the cache-tree: the tree object that the index
// entries under a directory would be written as. A node with count < 0 is
// invalidated (something below it changed since the tree was computed).
type cacheNode struct {
	name     string
	count    int
	hash     plumbing.Hash
	children []*cacheNode // sorted by name
}

func (n *cacheNode) valid() bool { return n != nil && n.count >= 0 }

// child returns the subtree node called name, or nil.
func (n *cacheNode) child(name string) *cacheNode {
	if n == nil {
		return nil
	}
	i := sort.Search(len(n.children), func(i int) bool { return n.children[i].name >= name })
	if i < len(n.children) && n.children[i].name == name {
		return n.children[i]
	}
	return nil
}

// readIndex reads and parses the index file at path, merging a split index
// with its shared index from gitDir. A missing index is an empty index (a
// fresh repository). A sparse index is returned with sparse set.
func readIndex(path, gitDir string) (*index, error) {
	// Stat before reading: should the index be replaced in between, the
	// recorded identity is the old one and the next check sees a change.
	st, err := statPath(path)
	if errors.Is(err, os.ErrNotExist) {
		return &index{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	data, err := regular.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	idx, err := parseIndex(data)
	if err == nil && idx.link != nil {
		if err = idx.readShared(gitDir); err == nil {
			err = idx.check()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", path, err)
	}
	idx.id = st.id()
	return idx, nil
}

var errCorruptIndex = errors.New("corrupt index")

// parseIndex parses an index file (versions 2 to 4), taking ownership of
// data: the entries' names point into it. The trailing checksum is not
// verified, as git does not verify it when reading either. A split index
// is returned with its link, unchecked (its entries are not sorted, some
// have no name) until merged; any other is checked.
func parseIndex(data []byte) (*index, error) {
	const hashSize = sha1.Size
	if len(data) < 12+hashSize || string(data[:4]) != "DIRC" {
		return nil, fmt.Errorf("%w: bad signature", errCorruptIndex)
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("unsupported index version %d", version)
	}
	count := int(binary.BigEndian.Uint32(data[8:]))
	end := len(data) - hashSize
	if count > end/entryFixedLength {
		return nil, fmt.Errorf("%w: %d entries do not fit in %d bytes", errCorruptIndex, count, len(data))
	}
	// View data as one string so that the names of a version 2 or 3 index
	// are substrings of it, costing no allocation or copy each. data is
	// never modified after this point: the caller hands it over.
	str := unsafe.String(&data[0], end)
	idx := &index{entries: make([]entry, count)}
	off := 12
	prev := ""
	for i := range idx.entries {
		if off+entryFixedLength > end {
			return nil, fmt.Errorf("%w: entry %d truncated", errCorruptIndex, i)
		}
		b := data[off:]
		e := &idx.entries[i]
		e.ctimeSec = binary.BigEndian.Uint32(b[0:])
		e.ctimeNsec = binary.BigEndian.Uint32(b[4:])
		e.mtimeSec = binary.BigEndian.Uint32(b[8:])
		e.mtimeNsec = binary.BigEndian.Uint32(b[12:])
		// dev (16), uid (28) and gid (32) are not compared, as git does not
		// by default either.
		e.ino = binary.BigEndian.Uint32(b[20:])
		e.mode = binary.BigEndian.Uint32(b[24:])
		e.size = binary.BigEndian.Uint32(b[36:])
		copy(e.hash[:], b[40:60])
		flags := binary.BigEndian.Uint16(b[60:])
		e.stage = uint8(flags>>flagStageShift) & 3
		n := entryFixedLength
		if flags&flagExtended != 0 {
			if version < 3 || off+n+2 > end {
				return nil, fmt.Errorf("%w: bad extended flags in entry %d", errCorruptIndex, i)
			}
			ext := binary.BigEndian.Uint16(b[n:])
			e.intentAdd = ext&extIntentToAdd != 0
			e.skipWorkTr = ext&extSkipWorktree != 0
			n += 2
		}
		start := off + n
		if version == 4 {
			strip, w := varint(data[start:end])
			if w == 0 || strip > len(prev) {
				return nil, fmt.Errorf("%w: bad name prefix in entry %d", errCorruptIndex, i)
			}
			start += w
			nul := bytes.IndexByte(data[start:end], 0)
			if nul < 0 {
				return nil, fmt.Errorf("%w: unterminated name in entry %d", errCorruptIndex, i)
			}
			e.name = prev[:len(prev)-strip] + str[start:start+nul]
			off = start + nul + 1
		} else {
			nameLen := int(flags & flagNameMask)
			if nameLen == flagNameMask {
				nameLen = bytes.IndexByte(data[start:end], 0)
			}
			if nameLen < 0 || start+nameLen > end {
				return nil, fmt.Errorf("%w: bad name in entry %d", errCorruptIndex, i)
			}
			e.name = str[start : start+nameLen]
			// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
			off += (n + nameLen + 8) &^ 7
		}
		if off > end {
			return nil, fmt.Errorf("%w: entry %d truncated", errCorruptIndex, i)
		}
		if e.mode == modeTree {
			idx.sparse = true
		}
		prev = e.name
	}

	// Extensions follow the entries: a 4-byte signature, a 4-byte length
	// and the data. Upper-case signatures are optional.
	for off+8 <= end {
		sig := string(data[off : off+4])
		size := int(binary.BigEndian.Uint32(data[off+4:]))
		off += 8
		if size > end-off {
			return nil, fmt.Errorf("%w: extension %q truncated", errCorruptIndex, sig)
		}
		ext := data[off : off+size]
		off += size
		switch {
		case sig == "TREE":
			root, rest, err := parseCacheTree(ext)
			if err != nil || len(rest) != 0 {
				// A broken cache-tree only costs speed: compare the
				// trees in full instead.
				root = nil
			}
			idx.tree = root
		case sig == "link":
			l, err := parseLink(ext)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", errCorruptIndex, err)
			}
			idx.link = l
		case sig == "sdir":
			// Marks a sparse index; its sparse directory entries say
			// where.
		case sig[0] < 'A' || sig[0] > 'Z':
			return nil, fmt.Errorf("unsupported index extension %q", sig)
		}
	}
	if idx.link == nil {
		if err := idx.check(); err != nil {
			return nil, err
		}
	}
	return idx, nil
}

// varint decodes the offset encoding of version 4 names. It returns the
// value and the number of bytes read, or 0 bytes on malformed input.
func varint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := int(c & 0x7f)
	i := 1
	for c&0x80 != 0 {
		if i >= len(b) || v > 1<<48 {
			return 0, 0
		}
		c = b[i]
		i++
		v = (v+1)<<7 | int(c&0x7f)
	}
	return v, i
}

// parseCacheTree parses one node of the TREE extension and its subtrees:
// "<name>\0<entry count> <subtree count>\n" followed by the tree hash when
// the entry count is not negative, then the subtrees, depth first.
func parseCacheTree(b []byte) (*cacheNode, []byte, error) {
	nul := bytes.IndexByte(b, 0)
	if nul < 0 {
		return nil, nil, errCorruptIndex
	}
	n := &cacheNode{name: string(b[:nul])}
	b = b[nul+1:]
	sp := bytes.IndexByte(b, ' ')
	nl := bytes.IndexByte(b, '\n')
	if sp < 0 || nl < sp {
		return nil, nil, errCorruptIndex
	}
	count, err := strconv.Atoi(string(b[:sp]))
	if err != nil {
		return nil, nil, errCorruptIndex
	}
	subtrees, err := strconv.Atoi(string(b[sp+1 : nl]))
	if err != nil || subtrees < 0 {
		return nil, nil, errCorruptIndex
	}
	b = b[nl+1:]
	n.count = count
	if count >= 0 {
		if len(b) < len(n.hash) {
			return nil, nil, errCorruptIndex
		}
		copy(n.hash[:], b)
		b = b[len(n.hash):]
	}
	if subtrees > len(b) {
		return nil, nil, errCorruptIndex
	}
	// The count is a claim: allocating by it at every level of a deep,
	// broken extension costs memory quadratic in its size.
	n.children = make([]*cacheNode, 0, min(subtrees, 16))
	for range subtrees {
		var c *cacheNode
		c, b, err = parseCacheTree(b)
		if err != nil {
			return nil, nil, err
		}
		n.children = append(n.children, c)
	}
	// git keeps subtrees ordered by name length first; order them by name.
	sort.Slice(n.children, func(i, j int) bool { return n.children[i].name < n.children[j].name })
	return n, b, nil
}

// find returns the position of the first entry named name (any stage), and
// whether it exists.
func (idx *index) find(name string) (int, bool) {
	i := sort.Search(len(idx.entries), func(i int) bool { return idx.entries[i].name >= name })
	return i, i < len(idx.entries) && idx.entries[i].name == name
}

// dirRange returns the range of entries under the directory dir ("" for
// the root).
func (idx *index) dirRange(dir string) (lo, hi int) {
	if dir == "" {
		return 0, len(idx.entries)
	}
	return idx.prefixRange(0, len(idx.entries), dir)
}

// prefixRange returns the range of entries within [lo, hi) under dir, which
// must be non-empty. Entries under "a/b/" are contiguous: every name between
// two names sharing a prefix shares it too.
func (idx *index) prefixRange(lo, hi int, dir string) (int, int) {
	e := idx.entries[lo:hi]
	// Names under dir are those in [dir+"/", dir+"0"), as '0' follows '/'.
	start := sort.Search(len(e), func(i int) bool { return cmpPrefixed(e[i].name, dir, '/') >= 0 })
	stop := start + sort.Search(len(e)-start, func(i int) bool { return cmpPrefixed(e[start+i].name, dir, '0') >= 0 })
	return lo + start, lo + stop
}

// cmpPrefixed compares s with dir+string(c) without building the latter.
func cmpPrefixed(s, dir string, c byte) int {
	if len(s) <= len(dir) {
		if r := strings.Compare(s, dir); r != 0 {
			return r
		}
		return -1 // s == dir, which is shorter than dir+c
	}
	if r := strings.Compare(s[:len(dir)], dir); r != 0 {
		return r
	}
	switch {
	case s[len(dir)] < c:
		return -1
	case s[len(dir)] > c:
		return 1
	}
	if len(s) == len(dir)+1 {
		return 0
	}
	return 1 // s starts with dir+c and is longer
}

// child describes one name directly inside a directory of the index: a
// file (one entry, or up to three for an unmerged path) or a subdirectory
// holding the entries [lo, hi).
type child struct {
	name   string
	lo, hi int
	dir    bool
}

// children lists the direct children of the directory whose entries are
// [lo, hi) and whose path prefix (with its trailing slash) has length plen.
// They come in index order, which is git's tree order: a subdirectory sorts
// as its name followed by '/'. buf is reused when large enough.
func (idx *index) children(lo, hi, plen int, buf []child) []child {
	out := buf[:0]
	for i := lo; i < hi; {
		rest := idx.entries[i].name[plen:]
		if slash := strings.IndexByte(rest, '/'); slash >= 0 {
			name := rest[:slash]
			_, j := idx.prefixRange(i, hi, idx.entries[i].name[:plen+slash])
			out = append(out, child{name: name, lo: i, hi: j, dir: true})
			i = j
			continue
		}
		j := i + 1
		for j < hi && idx.entries[j].name == idx.entries[i].name {
			j++
		}
		out = append(out, child{name: rest, lo: i, hi: j})
		i = j
	}
	return out
}

// computeCacheTree builds the cache-tree of the whole index by writing the
// tree objects of every directory in memory and hashing them, as git would
// when committing the index. It is the stand-in for a missing TREE
// extension: hashing the index's trees is much cheaper than reading every
// tree of HEAD from the object store. Directories holding unmerged entries
// get an invalid node.
func (idx *index) computeCacheTree() *cacheNode {
	var buf []byte
	var build func(name string, lo, hi, plen int) *cacheNode
	build = func(name string, lo, hi, plen int) *cacheNode {
		n := &cacheNode{name: name}
		kids := idx.children(lo, hi, plen, nil)
		type item struct {
			mode uint32
			name string
			hash plumbing.Hash
		}
		items := make([]item, 0, len(kids))
		valid := true
		for _, k := range kids {
			if k.dir {
				c := build(k.name, k.lo, k.hi, plen+len(k.name)+1)
				if !c.valid() {
					valid = false
				}
				if c.count == 0 {
					continue // only intent-to-add entries: no tree
				}
				n.children = append(n.children, c)
				items = append(items, item{modeTree, k.name, c.hash})
				n.count += c.count
				continue
			}
			e := &idx.entries[k.lo]
			switch {
			case e.stage != 0:
				valid = false
			case e.intentAdd:
				// Not part of the tree that would be committed.
			default:
				items = append(items, item{e.mode, k.name, e.hash})
				n.count++
			}
		}
		if !valid {
			n.count = -1
			return n
		}
		buf = buf[:0]
		for _, it := range items {
			buf = strconv.AppendUint(buf, uint64(it.mode), 8)
			buf = append(buf, ' ')
			buf = append(buf, it.name...)
			buf = append(buf, 0)
			buf = append(buf, it.hash[:]...)
		}
		n.hash = hashObject(plumbing.TreeObject, buf)
		return n
	}
	return build("", 0, len(idx.entries), 0)
}

// hashObject returns the git object id of data as an object of type t. It
// uses crypto/sha1 rather than go-git's plumbing.ComputeHash, whose
// collision-detecting SHA-1 is several times slower: these ids only compare
// local content with ids git computed.
func hashObject(t plumbing.ObjectType, data []byte) plumbing.Hash {
	h := sha1.New()
	var hdr [32]byte
	b := append(hdr[:0], t.String()...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(data)), 10)
	b = append(b, 0)
	h.Write(b)
	h.Write(data)
	var out plumbing.Hash
	h.Sum(out[:0])
	return out
}
