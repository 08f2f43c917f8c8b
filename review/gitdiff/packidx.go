package gitdiff

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// A pack index (.idx) is searched where it lies, mapped into memory or
// read whole where mapping is not available: the fan-out table narrows a
// hash to the run of names sharing its first byte, a binary search over
// that run finds it, and the offset table at the same position gives its
// place in the pack. Nothing is decoded up front, so opening a pack costs
// the same for ten objects as for ten million, and a lookup touches a few
// pages of the file. (go-git decodes the whole index into memory and, to
// read one object from a pack, builds a map from the offset of every
// object to its hash.)

// packIndex is a parsed view of the bytes of a version 1 or 2 pack index.
// Its methods never panic, whatever the bytes.
type packIndex struct {
	data    []byte
	version int
	n       int // number of objects
	fanout  [256]uint32
	// names, offsets and large are the offsets in data of the sorted
	// hash table, the 4-byte offset table and the 8-byte large-offset
	// table (version 2); in version 1 names and offsets interleave.
	names, offsets, large int
	nlarge                int
}

// idxMagic opens a pack index of version 2 or later.
var idxMagic = []byte{0xff, 't', 'O', 'c'}

const (
	fanoutSize  = 256 * 4
	idxTrailer  = 2 * hashLen // pack checksum, index checksum
	hashLen     = 20
	idxV1Entry  = 4 + hashLen
	largeOffBit = 1 << 31
)

// errBadIndex is wrapped by every error of a malformed pack index.
var errBadIndex = errors.New("malformed pack index")

func badIndex(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBadIndex, fmt.Sprintf(format, args...))
}

// parsePackIndex checks the layout of the pack index data: its header, a
// non-decreasing fan-out table and a size that matches the object count.
// The hash order itself is not checked (that would read every page); an
// index out of order only fails to find objects.
func parsePackIndex(data []byte) (*packIndex, error) {
	x := &packIndex{data: data, version: 1}
	fan := 0
	if bytes.HasPrefix(data, idxMagic) {
		if len(data) < 8 {
			return nil, badIndex("truncated header")
		}
		if v := binary.BigEndian.Uint32(data[4:]); v != 2 {
			return nil, badIndex("unsupported version %d", v)
		}
		x.version, fan = 2, 8
	}
	if len(data) < fan+fanoutSize+idxTrailer {
		return nil, badIndex("truncated fan-out table (%d bytes)", len(data))
	}
	var prev uint32
	for i := range x.fanout {
		v := binary.BigEndian.Uint32(data[fan+4*i:])
		if v < prev {
			return nil, badIndex("fan-out table decreases at %d", i)
		}
		x.fanout[i], prev = v, v
	}
	n := int64(prev)
	body := int64(len(data) - fan - fanoutSize - idxTrailer)
	if x.version == 1 {
		if body != n*idxV1Entry {
			return nil, badIndex("%d bytes of entries for %d objects", body, n)
		}
		x.n, x.names = int(n), fan+fanoutSize
		return x, nil
	}
	rest := body - n*(hashLen+4+4)
	if rest < 0 || rest%8 != 0 || rest/8 > n {
		return nil, badIndex("%d bytes of tables for %d objects", body, n)
	}
	x.n = int(n)
	x.names = fan + fanoutSize
	x.offsets = x.names + x.n*(hashLen+4) // after the names and the CRCs
	x.large = x.offsets + x.n*4
	x.nlarge = int(rest / 8)
	return x, nil
}

// name returns the i-th hash of the sorted table.
func (x *packIndex) name(i int) []byte {
	if x.version == 1 {
		p := x.names + i*idxV1Entry + 4
		return x.data[p : p+hashLen]
	}
	p := x.names + i*hashLen
	return x.data[p : p+hashLen]
}

// offset returns the pack offset of the i-th object.
func (x *packIndex) offset(i int) (int64, error) {
	if x.version == 1 {
		return int64(binary.BigEndian.Uint32(x.data[x.names+i*idxV1Entry:])), nil
	}
	o := binary.BigEndian.Uint32(x.data[x.offsets+4*i:])
	if o&largeOffBit == 0 {
		return int64(o), nil
	}
	j := int(o &^ largeOffBit)
	if j >= x.nlarge {
		return 0, badIndex("large offset %d of %d", j, x.nlarge)
	}
	v := binary.BigEndian.Uint64(x.data[x.large+8*j:])
	if v > 1<<62 {
		return 0, badIndex("offset %d out of range", v)
	}
	return int64(v), nil
}

// bucket returns the range [lo, hi) of the sorted table whose hashes start
// with byte b.
func (x *packIndex) bucket(b byte) (lo, hi int) {
	if b > 0 {
		lo = int(x.fanout[b-1])
	}
	return lo, int(x.fanout[b])
}

// find returns the pack offset of object h and whether the index has it.
func (x *packIndex) find(h plumbing.Hash) (int64, bool, error) {
	lo, hi := x.bucket(h[0])
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(x.name(m), h[:]); {
		case c == 0:
			off, err := x.offset(m)
			return off, err == nil, err
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false, nil
}

// withPrefix appends to out the hashes of the index that start with
// prefix (at least one byte).
func (x *packIndex) withPrefix(prefix []byte, out []plumbing.Hash) []plumbing.Hash {
	if len(prefix) == 0 {
		return out
	}
	lo, hi := x.bucket(prefix[0])
	// The first name not below prefix, then every one that starts with it.
	i, j := lo, hi
	for i < j {
		m := int(uint(i+j) >> 1)
		if bytes.Compare(x.name(m), prefix) < 0 {
			i = m + 1
		} else {
			j = m
		}
	}
	for ; i < hi && bytes.HasPrefix(x.name(i), prefix); i++ {
		var h plumbing.Hash
		copy(h[:], x.name(i))
		out = append(out, h)
	}
	return out
}
