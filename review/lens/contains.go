package lens

import (
	"bytes"
	"sync"

	"github.com/reviewls/reviewls/review"
)

// containsIndex answers "does the file contain s" for the many cheap
// pre-filters rules run, without scanning the whole file for each: a
// bitmap of the file's byte trigrams rejects most absent needles at once,
// and answers for present ones are remembered.
type containsIndex struct {
	content []byte
	tri     [1 << 16 / 64]uint64 // hashed trigrams present in content
	bytes   [256 / 64]uint64     // bytes present in content

	mu   sync.Mutex // guards seen
	seen map[string]bool
}

var containsOf review.Memo[*containsIndex]

// trigram hashes the three bytes at the low end of w (a<<16 | b<<8 | c)
// to 16 bits.
func trigram(w uint32) uint32 { return (w & 0xFFFFFF) * 0x9E3779B1 >> 16 }

func newContainsIndex(content []byte) *containsIndex {
	x := &containsIndex{content: content, seen: map[string]bool{}}
	var present [256]bool
	var w uint32
	for i, c := range content {
		present[c] = true
		w = w<<8 | uint32(c)
		if i >= 2 {
			h := trigram(w)
			x.tri[h>>6] |= 1 << (h & 63)
		}
	}
	for c, ok := range present {
		if ok {
			x.bytes[c>>6] |= 1 << (c & 63)
		}
	}
	return x
}

// mayContain reports false only when s is certainly absent.
func (x *containsIndex) mayContain(s string) bool {
	for i := 0; i < len(s); i++ {
		if x.bytes[s[i]>>6]&(1<<(s[i]&63)) == 0 {
			return false
		}
	}
	var w uint32
	for i := 0; i < len(s); i++ {
		w = w<<8 | uint32(s[i])
		if h := trigram(w); i >= 2 && x.tri[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}

func (x *containsIndex) contains(s string) bool {
	if !x.mayContain(s) {
		return false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	v, ok := x.seen[s]
	if !ok {
		v = bytes.Contains(x.content, []byte(s))
		x.seen[s] = v
	}
	return v
}

// Contains reports whether f's content contains s. It is the cheap
// pre-filter of rules and is safe for concurrent use.
func Contains(f *review.File, s string) bool {
	return containsOf.Of(f, func() *containsIndex { return newContainsIndex(f.Content) }).contains(s)
}
