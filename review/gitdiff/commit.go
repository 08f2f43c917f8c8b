package gitdiff

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// histCommit is what History needs of a commit: its tree and parents, the
// committer time that orders the walk, the author and the subject, and,
// once computed, the paths it touched (see [histCommit.state]). Commits
// are immutable, so an entry never goes stale.
type histCommit struct {
	hash      plumbing.Hash
	tree      plumbing.Hash
	parents   []plumbing.Hash
	committed int64 // committer time, Unix seconds
	authored  int64 // author time, Unix seconds
	// meta says author and subject are known. The cache file leaves them
	// out (they may hold a secret, and nothing reviewls writes may), so
	// an entry read from it reads its commit again when History reports it.
	meta    bool
	author  string
	subject string

	state touchState
	// touched, when state is touchKnown, is what the walk learnt of the
	// entries that differ from every parent's version (a root commit: that
	// it has), sorted by path: closed entries (a file, a link, a
	// submodule, or a directory none of whose entries differ) and open
	// directories, whose differing entries are listed when a path below
	// them is asked about (see [historyWalker.match]). Every differing
	// entry of an explored directory is listed, and an explored directory
	// is not; the root is always explored. A path was touched when it is
	// listed or a directory above a listed one.
	touched []touchEntry
	// used is the walk that last used the entry; the cache keeps the most
	// recently used ones.
	used uint64
}

// touchState says whether a cached commit knows the paths it touched.
type touchState uint8

const (
	touchUnknown touchState = iota // the root not explored yet
	touchKnown                     // touched holds what is known
	touchWide                      // more than maxTouchedPaths: walk its trees each time
)

// touchEntry is an entry of a commit's tree that differs from the version
// of every parent.
type touchEntry struct {
	path string
	// trees of an open directory: the tree at path in the commit, then in
	// each parent (the zero hash where it is not a tree); nil when closed.
	trees []plumbing.Hash
}

// zeroUnix is the Unix time of a signature without a readable time (the
// zero time.Time, as go-git decodes it), so that such commits order as
// they always did.
var zeroUnix = time.Time{}.Unix()

// errMalformedCommit reports a commit object History cannot read.
var errMalformedCommit = errors.New("malformed commit")

// parseCommit decodes the fields History needs from the raw commit object
// data, skipping everything else (signatures, merge tags, the message
// after its first line). It follows go-git's decoder: "tree" first, then
// the contiguous "parent" lines, "author" right after them, "committer"
// right after that; the other headers (and their continuation lines) run
// to the first empty line, after which comes the message.
func parseCommit(h plumbing.Hash, data []byte) (*histCommit, error) {
	c := &histCommit{hash: h, committed: zeroUnix, authored: zeroUnix, meta: true}
	line, rest, more := cutLine(data)
	hex, ok := bytes.CutPrefix(line, []byte("tree "))
	if !ok || !plumbing.IsHash(string(hex)) {
		return nil, fmt.Errorf("%w: no tree line", errMalformedCommit)
	}
	c.tree = plumbing.NewHash(string(hex))
	line, rest, more = cutLine(rest)
	for more && len(line) > 0 {
		hex, ok := header(line, "parent")
		if !ok {
			break
		}
		if !plumbing.IsHash(string(hex)) {
			return nil, fmt.Errorf("%w: bad parent hash", errMalformedCommit)
		}
		c.parents = append(c.parents, plumbing.NewHash(string(hex)))
		line, rest, more = cutLine(rest)
	}
	if sig, ok := header(line, "author"); ok && more {
		c.author, c.authored = decodeSignature(sig)
		line, rest, more = cutLine(rest)
	}
	if sig, ok := header(line, "committer"); ok && more {
		_, c.committed = decodeSignature(sig)
		line, rest, more = cutLine(rest)
	}
	for more && len(line) > 0 {
		line, rest, more = cutLine(rest)
	}
	if !more {
		return c, nil // no message
	}
	// The subject is the first line of the trimmed message.
	msg := bytes.TrimSpace(rest)
	subject, _, _ := bytes.Cut(msg, []byte{'\n'})
	c.subject = string(bytes.TrimSpace(subject))
	return c, nil
}

// header returns the value of a header line whose key (up to the first
// space) is key.
func header(line []byte, key string) ([]byte, bool) {
	k, v, _ := bytes.Cut(line, []byte{' '})
	return v, string(k) == key
}

// cutLine returns the first line of data without its newline, the rest,
// and whether there was a line at all (data was not empty).
func cutLine(data []byte) (line, rest []byte, ok bool) {
	if len(data) == 0 {
		return nil, nil, false
	}
	line, rest, _ = bytes.Cut(data, []byte{'\n'})
	return line, rest, true
}

// decodeSignature returns the name and the Unix time of a signature
// "Name <email> time zone", as go-git's Signature.Decode reads them: no
// name and the zero time when the angle brackets are missing or out of
// order, the zero time when the time does not parse.
func decodeSignature(b []byte) (string, int64) {
	open, end := bytes.LastIndexByte(b, '<'), bytes.LastIndexByte(b, '>')
	if open == -1 || end == -1 || end < open {
		return "", zeroUnix
	}
	name := string(bytes.Trim(b[:open], " "))
	if end+2 >= len(b) {
		return name, zeroUnix
	}
	ts := b[end+2:]
	if sp := bytes.IndexByte(ts, ' '); sp >= 0 {
		ts = ts[:sp]
	}
	t, err := strconv.ParseInt(string(ts), 10, 64)
	if err != nil {
		return name, zeroUnix
	}
	return name, t
}
