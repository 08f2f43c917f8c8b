package gitdiff

import (
	"bytes"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// FuzzPackIndex feeds arbitrary bytes to the pack index parser: it must
// never panic, and an index it accepts whose hash table is in order must
// find each of its hashes at that hash's offset, and list it by prefix.
func FuzzPackIndex(f *testing.F) {
	hashes := craftedHashes
	f.Add(craftIndex(hashes, []int64{12, 5 << 32, 1<<31 - 1, 1<<40 + 7}), hashes[1][:])
	f.Add(craftIndex(hashes[:1], []int64{99}), hashes[0][:])
	// A version 1 index of one object.
	v1 := make([]byte, fanoutSize+idxV1Entry+idxTrailer)
	for i := 1; i < 256; i++ {
		v1[4*i+3] = 1
	}
	copy(v1[fanoutSize+4:], hashes[0][:])
	v1[fanoutSize+3] = 12
	f.Add(v1, hashes[0][:])
	f.Fuzz(func(t *testing.T, data, probe []byte) {
		x, err := parsePackIndex(data)
		if err != nil {
			return
		}
		var h plumbing.Hash
		copy(h[:], probe)
		x.find(h)
		x.withPrefix(probe, nil)
		if x.n > 4096 {
			return
		}
		sorted := true
		for i := 1; i < x.n && sorted; i++ {
			sorted = bytes.Compare(x.name(i-1), x.name(i)) < 0
		}
		for i := range x.n {
			want, werr := x.offset(i)
			copy(h[:], x.name(i))
			off, ok, err := x.find(h)
			if !sorted {
				continue
			}
			// The fan-out table may disagree with the first bytes of
			// the names; then a hash is looked for in the wrong run.
			if lo, hi := x.bucket(h[0]); i < lo || i >= hi {
				continue
			}
			switch {
			case werr != nil:
				if err == nil {
					t.Fatalf("find %s: no error, offset(%d): %v", h, i, werr)
				}
			case !ok || err != nil || off != want:
				t.Fatalf("find %s = %d, %v, %v; want %d", h, off, ok, err, want)
			}
			if got := x.withPrefix(h[:3], nil); !slices.Contains(got, h) {
				t.Fatalf("withPrefix %x = %v, lacks %s", h[:3], got, h)
			}
		}
	})
}
