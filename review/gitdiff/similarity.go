package gitdiff

import (
	"slices"
)

// Similarity follows git's diffcore-delta.c and estimate_similarity in
// diffcore-rename.c. Each side is cut into chunks that end at a newline
// or after 64 bytes, whichever comes first (the CR of a CRLF is skipped in
// text), and each chunk is hashed; a side is the multiset of its chunk
// hashes, weighted by chunk length. The bytes the destination shares with
// the source are the sum over hashes of the smaller weight, and the score
// is that over the larger of the two sizes, on git's scale of maxScore.

// Rename scores, on git's scale.
const (
	maxScore = 60000
	// defaultRenameScore is git's default -M threshold, 50%.
	defaultRenameScore = 30000
)

// spanHashBase is git's HASHBASE: a prime between 2^16 and 2^17.
const spanHashBase = 107927

// span is one chunk hash and the number of bytes hashed to it.
type span struct {
	hash, count uint32
}

// hashSpans returns the chunk hashes of data sorted by hash, as git's
// hash_chars (with the final chunk that lacks a newline counted, as git
// does since 2.37). text says whether data is text, where the CR of a
// CRLF is not counted.
func hashSpans(data []byte, text bool) []span {
	counts := map[uint32]uint32{}
	var accum1, accum2 uint32
	n := uint32(0)
	for i := 0; i < len(data); i++ {
		c := uint32(data[i])
		if text && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		old1 := accum1
		accum1 = (accum1 << 7) ^ (accum2 >> 25)
		accum2 = (accum2 << 7) ^ (old1 >> 25)
		accum1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(accum1+accum2*0x61)%spanHashBase] += n
		n, accum1, accum2 = 0, 0, 0
	}
	if n > 0 {
		counts[(accum1+accum2*0x61)%spanHashBase] += n
	}
	out := make([]span, 0, len(counts))
	for h, c := range counts {
		out = append(out, span{h, c})
	}
	slices.SortFunc(out, func(a, b span) int { return int(a.hash) - int(b.hash) })
	return out
}

// copiedBytes returns how many bytes of dst come from src (git's
// diffcore_count_changes, src_copied).
func copiedBytes(src, dst []span) int64 {
	var copied int64
	j := 0
	for _, s := range src {
		for j < len(dst) && dst[j].hash < s.hash {
			j++
		}
		if j < len(dst) && dst[j].hash == s.hash {
			copied += int64(min(s.count, dst[j].count))
			j++
		}
	}
	return copied
}

// sizesAllow reports whether two files of these sizes can score at least
// minScore: git does not consider edits that change the size so much.
func sizesAllow(a, b int64, minScore int) bool {
	maxSize, baseSize := max(a, b), min(a, b)
	return maxSize*int64(maxScore-minScore) >= (maxSize-baseSize)*maxScore
}

// similarityScore returns the score of the source spans against the
// destination spans, whose contents have the given sizes.
func similarityScore(src, dst []span, srcSize, dstSize int64) int {
	maxSize := max(srcSize, dstSize)
	if dstSize == 0 || maxSize == 0 {
		return 0
	}
	return int(copiedBytes(src, dst) * maxScore / maxSize)
}

// similarity returns git's similarity index of new to old, in percent,
// as `git diff -M` prints it ("similarity index 97%"): the share of the
// larger one that the two have in common; identical content is 100. diff
// is the path's diff attribute.
func similarity(old, new []byte, diff attrKind) int {
	if string(old) == string(new) {
		return 100
	}
	text := func(b []byte) bool { return diff != attrUnset && (diff == attrSet || !isBinary(b)) }
	s := similarityScore(hashSpans(old, text(old)), hashSpans(new, text(new)), int64(len(old)), int64(len(new)))
	return s * 100 / maxScore
}
