package gitdiff

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// The object store of a Repo is the repository's own objects directory,
// followed by its alternates: the object directories that
// objects/info/alternates names (`git clone --shared`, `--reference`) and
// $GIT_ALTERNATE_OBJECT_DIRECTORIES. go-git has alternates support of its
// own, but it resolves relative entries against the wrong directory,
// mishandles absolute ones on a chrooted file system, and re-reads the
// file on every object it misses; so the chain is resolved here once, as
// git resolves it, and go-git never sees an alternates file. Objects are
// read by [objectStore], not by go-git, whose pack reader decodes every
// pack index whole and maps the offset of every object to its hash before
// it reads the first one.

// maxAlternateDepth is git's limit on chained alternates (an alternate's
// own alternates, and so on): deeper ones are ignored, with a warning.
const maxAlternateDepth = 5

// alternates lists the alternate object directories of the repository
// whose objects directory is objDir, in git's search order: those of env
// (separated by ':', relative to root), then those of
// objects/info/alternates, each followed by its own alternates (relative
// entries are relative to the objects directory whose file names them).
// Directories that do not exist are returned in missing, as git warns
// about and skips them.
func alternates(objDir, root, env string, logger *slog.Logger) (dirs, missing []string) {
	seen := map[string]bool{filepath.Clean(objDir): true}
	var link func(entries []string, base string, depth int)
	link = func(entries []string, base string, depth int) {
		if depth > maxAlternateDepth {
			logger.Warn("ignoring alternate object stores nested too deep", "dir", base)
			return
		}
		for _, e := range entries {
			p := absFrom(base, e)
			if seen[p] {
				continue
			}
			seen[p] = true
			if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
				logger.Warn("alternate object directory does not exist", "dir", p)
				missing = append(missing, p)
				continue
			}
			dirs = append(dirs, p)
			link(readAlternates(p), p, depth+1)
		}
	}
	if env != "" {
		link(splitAlternates(env, ':'), root, 0)
	}
	link(readAlternates(objDir), objDir, 0)
	return dirs, missing
}

// readAlternates returns the entries of objDir/info/alternates.
func readAlternates(objDir string) []string {
	b, err := regular.ReadFile(filepath.Join(objDir, "info", "alternates"))
	if err != nil {
		return nil
	}
	return splitAlternates(string(b), '\n')
}

// splitAlternates splits a list of alternates as git does: entries
// separated by sep, "#" starting a comment entry, a leading '"' a
// C-quoted path; empty entries are skipped.
func splitAlternates(s string, sep byte) []string {
	var out []string
	for len(s) > 0 {
		var e string
		quoted := false
		if s[0] == '"' {
			if q, err := strconv.QuotedPrefix(s); err == nil {
				if u, err := strconv.Unquote(q); err == nil {
					e, s, quoted = u, s[len(q):], true
				}
			}
		}
		i := strings.IndexByte(s, sep)
		if i < 0 {
			i = len(s)
		}
		if !quoted && s[0] != '#' {
			e = s[:i]
		}
		if i < len(s) {
			i++
		}
		s = s[i:]
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

// newStorage opens the object store and refs of the repository with the
// given git directories, with the alternate object directories alts.
// go-git reads the refs, the configuration and the shallow file; every
// object is read by [objectStore], whose lookups cost the same whatever
// the size of the history.
func newStorage(gitDir, commonDir string, alts []string, logger *slog.Logger) *storage {
	s := &storage{
		Storage: filesystem.NewStorage(
			dotgit.NewRepositoryFilesystem(osfs.New(gitDir), noAlternates{osfs.New(commonDir)}),
			cache.NewObjectLRU(0)),
		objs: newObjectStore(append([]string{filepath.Join(commonDir, "objects")}, alts...), logger),
	}
	return s
}

// storage is the repository's storage, its objects read by objs. It also
// hides the repository format extensions from go-git, which refuses any
// it does not implement (partialClone, worktreeConfig, ...): reviewls only
// reads objects and refs, a missing object of a partial clone surfaces as
// an error of that read, and the configuration is read by loadConfig,
// which honours config.worktree.
type storage struct {
	*filesystem.Storage
	objs *objectStore
}

func (s *storage) Config() (*config.Config, error) {
	cfg, err := s.Storage.Config()
	if err != nil {
		return nil, err
	}
	if cfg.Raw != nil {
		cfg.Raw.RemoveSection("extensions")
	}
	return cfg, nil
}

// EncodedObject reads object h of type t (or any type, for
// [plumbing.AnyObject]) from the repository or its alternates.
func (s *storage) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	typ, data, err := s.objs.read(h)
	if err != nil {
		return nil, err
	}
	if t != plumbing.AnyObject && t != typ {
		return nil, plumbing.ErrObjectNotFound
	}
	return &encodedObject{hash: h, typ: typ, data: data}, nil
}

// HasEncodedObject reports (nil) whether the repository or an alternate
// has object h.
func (s *storage) HasEncodedObject(h plumbing.Hash) error {
	ok, err := s.objs.has(h)
	if err == nil && !ok {
		err = plumbing.ErrObjectNotFound
	}
	return err
}

// EncodedObjectSize returns the size of object h without reading it.
func (s *storage) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	return s.objs.size(h)
}

// HashesWithPrefix lists the objects of the repository and its alternates
// whose hash starts with prefix (abbreviated hashes in revisions).
func (s *storage) HashesWithPrefix(prefix []byte) ([]plumbing.Hash, error) {
	return s.objs.withPrefix(prefix)
}

// Close releases the pack files of the repository and its alternates.
func (s *storage) Close() error {
	return errors.Join(s.objs.Close(), s.Storage.Close())
}

// encodedObject is an object read whole by [objectStore], for go-git's
// decoders.
type encodedObject struct {
	hash plumbing.Hash
	typ  plumbing.ObjectType
	data []byte
}

func (o *encodedObject) Hash() plumbing.Hash           { return o.hash }
func (o *encodedObject) Type() plumbing.ObjectType     { return o.typ }
func (o *encodedObject) SetType(t plumbing.ObjectType) { o.typ = t }
func (o *encodedObject) Size() int64                   { return int64(len(o.data)) }
func (o *encodedObject) SetSize(int64)                 {}

func (o *encodedObject) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(o.data)), nil
}

func (o *encodedObject) Writer() (io.WriteCloser, error) {
	return nil, errors.New("write object: the object store is read-only")
}

// alternatesFile is the path of the alternates file inside a git
// directory's file system.
var alternatesFile = filepath.Join("objects", "info", "alternates")

// noAlternates hides objects/info/alternates from go-git (see [storage]).
type noAlternates struct{ billy.Filesystem }

func (f noAlternates) Open(name string) (billy.File, error) {
	if filepath.Clean(name) == alternatesFile {
		return nil, notExist(name)
	}
	return f.Filesystem.Open(name)
}

func (f noAlternates) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	if filepath.Clean(name) == alternatesFile {
		return nil, notExist(name)
	}
	return f.Filesystem.OpenFile(name, flag, perm)
}

func (f noAlternates) Stat(name string) (os.FileInfo, error) {
	if filepath.Clean(name) == alternatesFile {
		return nil, notExist(name)
	}
	return f.Filesystem.Stat(name)
}

func notExist(name string) error {
	return &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// readObject reads object h, which must be of type want. Called with objMu
// held.
func (r *Repo) readObject(want plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	t, data, err := r.store.objs.read(h)
	if err == nil && t != want {
		err = fmt.Errorf("object is a %s", t)
	}
	if err != nil {
		return nil, r.objectErr(want.String(), h, err)
	}
	return data, nil
}

// objectErr describes a failed read of object h (a "commit", "tree" or
// "blob"). A missing object gets the reason where the layout explains it:
// a partial clone that never fetched it, or an alternate object directory
// that is gone. The error still wraps the cause.
func (r *Repo) objectErr(kind string, h plumbing.Hash, err error) error {
	short := review.ShortSHA(h.String())
	if !errors.Is(err, plumbing.ErrObjectNotFound) {
		return fmt.Errorf("read %s %s: %w", kind, short, err)
	}
	if r.partial {
		return &notLocalError{kind: kind, hash: h, err: err}
	}
	return fmt.Errorf("read %s %s: %w%s", kind, short, err, r.missingAltsNote())
}

// missingAltsNote explains missing objects by an alternate object
// directory that is gone, or is "".
func (r *Repo) missingAltsNote() string {
	if len(r.missingAlts) == 0 {
		return ""
	}
	return fmt.Sprintf(" (the alternate object directory %s named by objects/info/alternates does not exist)", r.missingAlts[0])
}

// notLocalError is a missing object of a partial clone: the promisor
// remote has it, git fetches it on demand, reviewls never does.
type notLocalError struct {
	kind string
	hash plumbing.Hash
	err  error
}

func (e *notLocalError) Error() string {
	fetch := "git cat-file -e " + e.hash.String()
	if e.kind == "tree" {
		fetch = "git ls-tree -r " + e.hash.String()
	}
	return fmt.Sprintf("partial clone: %s %s is not local; '%s' fetches it", e.kind, review.ShortSHA(e.hash.String()), fetch)
}

func (e *notLocalError) Unwrap() error { return e.err }

// isPartialClone reports whether the configuration makes the repository a
// partial clone: a promisor remote, or the partialClone extension.
func isPartialClone(cfg *gitConfig) bool {
	if cfg.get("extensions", "partialclone") != "" {
		return true
	}
	for k, v := range cfg.vals {
		if strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".promisor") && isTrue(v) {
			return true
		}
	}
	return false
}
