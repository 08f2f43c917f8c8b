package gitdiff

import (
	"path"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// Rename detection follows git's diffcore_rename (diffcore-rename.c, as of
// git 2.33) for `-M` with its default threshold of 50%, in three rounds
// over the deleted paths (sources) and added paths (destinations), each
// list in path order:
//
//  1. Exact renames: a destination pairs with an unused source of the same
//     blob (of the same mode unless both are regular files), preferring
//     one with the same base name, else the first.
//  2. Base names: a source and a destination whose base names are each
//     unique among the remaining ones pair when they score at least
//     halfway between the threshold and 100%.
//  3. Inexact renames, unless the remaining sources times destinations
//     exceed the square of the rename limit (diff.renameLimit, 1000 by
//     default, as in git): every remaining pair of regular files is
//     scored, each destination keeps its four best candidates, and the
//     candidates are taken best first (the same base name breaking ties),
//     each source and destination used once.
//
// The score (similarity.go) compares content as git would store it: blobs,
// and work tree files after the clean conversion.

// renameSide is a rename source or destination: a path and a way to read
// its content, which is read at most once and only when a round needs it.
type renameSide struct {
	path string
	mode uint32
	oid  plumbing.Hash // zero until known
	// read returns the content; size, when set, its size without reading
	// it; hash, when set, the blob hash without holding the content.
	read func() ([]byte, error)
	size func() (int64, error)
	hash func() (plumbing.Hash, error)
	// diff returns the path's diff attribute, which can make it binary.
	diff func() attrKind

	sized, loaded, spanned bool
	n                      int64
	data                   []byte
	bad                    bool // the content could not be read
	spans                  []span
}

func (s *renameSide) regular() bool { return s.mode == modeRegular || s.mode == modeExecutable }

func (s *renameSide) load() ([]byte, bool) {
	if !s.loaded {
		s.loaded = true
		data, err := s.read()
		s.data, s.bad = data, err != nil
		if !s.bad {
			s.sized, s.n = true, int64(len(data))
		}
	}
	return s.data, !s.bad
}

func (s *renameSide) contentSize() (int64, bool) {
	if !s.sized && s.size != nil && !s.loaded {
		n, err := s.size()
		if err == nil {
			s.sized, s.n = true, n
		}
	}
	if !s.sized {
		s.load()
	}
	return s.n, s.sized
}

// blobHash returns the blob hash of the content, hashing it if needed.
func (s *renameSide) blobHash() (plumbing.Hash, bool) {
	if s.oid.IsZero() && s.hash != nil {
		if h, err := s.hash(); err == nil {
			s.oid = h
		}
	}
	if s.oid.IsZero() {
		data, ok := s.load()
		if !ok {
			return plumbing.Hash{}, false
		}
		s.oid = hashObject(plumbing.BlobObject, data)
	}
	return s.oid, true
}

func (s *renameSide) chunkSpans() ([]span, bool) {
	if !s.spanned {
		data, ok := s.load()
		if !ok {
			return nil, false
		}
		s.spanned = true
		d := s.diff()
		text := d != attrUnset && (d == attrSet || !isBinary(data))
		s.spans = hashSpans(data, text)
		s.data = nil // the spans are all the rounds need from now on
	}
	return s.spans, true
}

// estimate is git's estimate_similarity: the score of dst against src, or
// 0 when they are not both regular files or their sizes differ too much
// to reach minScore. Files over sizeCap score 0: they pair only when
// exact, so no file larger than the review's size cap is ever read whole.
func estimate(src, dst *renameSide, minScore int, sizeCap int64) int {
	if !src.regular() || !dst.regular() {
		return 0
	}
	ns, ok1 := src.contentSize()
	nd, ok2 := dst.contentSize()
	if !ok1 || !ok2 || !sizesAllow(ns, nd, minScore) || ns > sizeCap || nd > sizeCap {
		return 0
	}
	ss, ok1 := src.chunkSpans()
	ds, ok2 := dst.chunkSpans()
	if !ok1 || !ok2 {
		return 0
	}
	return similarityScore(ss, ds, ns, nd)
}

// renameMatch pairs destination dst with source src.
type renameMatch struct {
	src, dst, score int
}

// renameOptions configures rename detection.
type renameOptions struct {
	minScore int   // 0 means defaultRenameScore
	limit    int   // <= 0: unlimited
	sizeCap  int64 // larger files pair only when exact
}

// findRenames pairs sources with destinations, both in path order. limited
// reports that inexact detection was skipped for the rename limit.
func findRenames(srcs, dsts []*renameSide, opts renameOptions) (matches []renameMatch, limited bool) {
	if len(srcs) == 0 || len(dsts) == 0 {
		return nil, false
	}
	minScore := opts.minScore
	if minScore <= 0 {
		minScore = defaultRenameScore
	}
	usedSrc := make([]bool, len(srcs))
	dstMatch := make([]int, len(dsts))
	for i := range dstMatch {
		dstMatch[i] = -1
	}
	record := func(s, d, score int) {
		usedSrc[s] = true
		dstMatch[d] = s
		matches = append(matches, renameMatch{src: s, dst: d, score: score})
	}

	// Round 1: exact renames.
	byHash := map[plumbing.Hash][]int{}
	for i, s := range srcs {
		if h, ok := s.blobHash(); ok {
			byHash[h] = append(byHash[h], i)
		}
	}
	for d, dst := range dsts {
		h, ok := dst.blobHash()
		if !ok {
			continue
		}
		best, bestScore, tries := -1, -1, 100
		for _, s := range byHash[h] {
			src := srcs[s]
			if (!src.regular() || !dst.regular()) && src.mode != dst.mode {
				continue
			}
			if usedSrc[s] {
				continue
			}
			score := 1
			if path.Base(src.path) == path.Base(dst.path) {
				score++
			}
			if score > bestScore {
				best, bestScore = s, score
				if score == 2 {
					break
				}
			}
			if tries--; tries == 0 {
				break
			}
		}
		if best >= 0 {
			record(best, d, maxScore)
		}
	}

	// Round 2: unique base names.
	minBasename := minScore + (maxScore-minScore)/2
	srcBase, dstBase := map[string]int{}, map[string]int{}
	for i, s := range srcs {
		if !usedSrc[i] {
			uniqueIndex(srcBase, path.Base(s.path), i)
		}
	}
	for i, d := range dsts {
		if dstMatch[i] < 0 {
			uniqueIndex(dstBase, path.Base(d.path), i)
		}
	}
	for s, src := range srcs {
		if usedSrc[s] {
			continue
		}
		base := path.Base(src.path)
		d, ok := dstBase[base]
		if !ok || srcBase[base] < 0 || d < 0 || dstMatch[d] >= 0 {
			continue
		}
		if score := estimate(src, dsts[d], minBasename, opts.sizeCap); score >= minBasename {
			record(s, d, score)
		}
	}

	// Round 3: inexact renames, within the limit.
	var restSrc, restDst []int
	for i := range srcs {
		if !usedSrc[i] {
			restSrc = append(restSrc, i)
		}
	}
	for i := range dsts {
		if dstMatch[i] < 0 {
			restDst = append(restDst, i)
		}
	}
	if len(restSrc) == 0 || len(restDst) == 0 {
		return matches, false
	}
	if opts.limit > 0 && int64(len(restSrc))*int64(len(restDst)) > int64(opts.limit)*int64(opts.limit) {
		return matches, true
	}
	const perDst = 4 // git's NUM_CANDIDATE_PER_DST
	mx := make([]renameScore, 0, perDst*len(restDst))
	for _, d := range restDst {
		m := [perDst]renameScore{{dst: -1}, {dst: -1}, {dst: -1}, {dst: -1}}
		for _, s := range restSrc {
			o := renameScore{src: s, dst: d, score: estimate(srcs[s], dsts[d], minScore, opts.sizeCap)}
			if path.Base(srcs[s].path) == path.Base(dsts[d].path) {
				o.name = 1
			}
			worst := 0
			for i := 1; i < perDst; i++ {
				if compareScores(m[i], m[worst]) > 0 {
					worst = i
				}
			}
			if compareScores(m[worst], o) > 0 {
				m[worst] = o
			}
		}
		mx = append(mx, m[:]...)
	}
	sort.SliceStable(mx, func(i, j int) bool { return compareScores(mx[i], mx[j]) < 0 })
	for _, c := range mx {
		if c.dst < 0 || c.score < minScore {
			break
		}
		if dstMatch[c.dst] >= 0 || usedSrc[c.src] {
			continue
		}
		record(c.src, c.dst, c.score)
	}
	return matches, false
}

// uniqueIndex records index i under key, or -1 when the key repeats.
func uniqueIndex(m map[string]int, key string, i int) {
	if _, ok := m[key]; ok {
		m[key] = -1
	} else {
		m[key] = i
	}
}

// renameScore is one candidate pair of the inexact round.
type renameScore struct {
	src, dst, score, name int
}

// compareScores orders candidates as git's score_compare: the unused slots
// (dst < 0) last, then by score, then the same base name first.
func compareScores(a, b renameScore) int {
	switch {
	case a.dst < 0:
		if b.dst >= 0 {
			return 1
		}
		return 0
	case b.dst < 0:
		return -1
	case a.score == b.score:
		return b.name - a.name
	}
	return b.score - a.score
}
