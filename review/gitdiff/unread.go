package gitdiff

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// A review does not read every changed file — it skips binaries, lock
// files, vendored and generated code, files over the size cap, and leaves
// out the paths of the configuration's ignore globs — but the gate scans
// every one of them for secrets. OpenNew gives that scan the content.

// ignoredFiles returns the files of the changes Options.Ignore left out:
// listed by path and status, their content never read by a scan.
func ignoredFiles(changes []Change) []*review.File {
	out := make([]*review.File, 0, len(changes))
	for _, c := range changes {
		out = append(out, &review.File{
			Path: c.Path, OldPath: c.OldPath, Status: c.Status, Staged: c.Staged, Unstaged: c.Unstaged || c.Untracked,
			Skip: review.SkipIgnored, Language: review.DetectLanguage(c.Path, nil),
		})
	}
	return out
}

// OpenNew opens the content of f, a file of the change set of target t
// that the last scan or refresh returned, as the review would read it:
// the index blob in a staged review (or for a path the work tree does not
// check out), the work tree file otherwise (a symbolic link's target).
// encoding is the working-tree-encoding that git converts the work tree
// file from when it stores it, "" when the content needs no conversion (a
// blob is already converted). Editor buffers play no part: the content is
// what a commit would take. A file without content on the new side (a
// deleted one, a submodule) is an error.
func (r *Repo) OpenNew(t review.Target, f *review.File) (rc io.ReadCloser, encoding string, err error) {
	r.mu.Lock()
	st := r.snap
	r.mu.Unlock()
	if st == nil || !sameTarget(st.target, t) {
		return nil, "", fmt.Errorf("open %s: no scan of the target", f.Path)
	}
	rel, ok := cleanRel(f.Path)
	if !ok || f.Status == review.StatusDeleted {
		return nil, "", fmt.Errorf("open %s: %w", f.Path, os.ErrNotExist)
	}
	i, tracked := st.idx.find(rel)
	skipWorkTree := tracked && st.idx.entries[i].skipWorkTr && st.idx.entries[i].stage == 0
	if t.Staged || skipWorkTree {
		v, ok := st.indexBlob(rel)
		if !ok || v.mode == modeGitlink {
			return nil, "", fmt.Errorf("open %s in the index: %w", rel, os.ErrNotExist)
		}
		data, err := r.readBlob(v)
		if err != nil {
			return nil, "", err
		}
		return io.NopCloser(bytes.NewReader(data)), "", nil
	}
	abs := st.abs(rel)
	if fi, err := os.Lstat(abs); err == nil && fi.Mode().Type() == os.ModeSymlink {
		target, err := os.Readlink(abs)
		if err != nil {
			return nil, "", err
		}
		return io.NopCloser(strings.NewReader(target)), "", nil
	}
	file, err := regular.Open(abs)
	if err != nil {
		return nil, "", err
	}
	return file, st.conv.of(rel).encoding, nil
}
