package gitdiff

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/reviewls/reviewls/internal/regular"
)

// Refs are read here directly from the files, without go-git, for the two
// places that must be cheap or must not open another repository: the
// "has HEAD moved" check of every Refresh, and the checked-out commit of a
// submodule.

// refState is what HEAD resolves to: the chain of symbolic refs it follows
// and the commit at its end (zero on an unborn branch).
type refState struct {
	symref string // the ref HEAD points to, "" when detached
	hash   plumbing.Hash
}

// readHead resolves HEAD of the repository with the given git directories.
func readHead(gitDir, commonDir string) (refState, error) {
	return resolveRef(gitDir, commonDir, "HEAD")
}

// resolveRef follows name through symbolic refs to a commit hash. A
// dangling symbolic ref (an unborn branch) resolves to the zero hash.
func resolveRef(gitDir, commonDir, name string) (refState, error) {
	var st refState
	for range 10 {
		b, err := regular.ReadFile(refPath(gitDir, commonDir, name))
		if os.IsNotExist(err) {
			h, ok, err := packedRef(commonDir, name)
			if err != nil {
				return st, err
			}
			if ok {
				st.hash = h
			}
			return st, nil
		}
		if err != nil {
			return st, fmt.Errorf("read ref %s: %w", name, err)
		}
		line := strings.TrimSpace(string(b))
		if target, ok := strings.CutPrefix(line, "ref:"); ok {
			name = strings.TrimSpace(target)
			if st.symref == "" {
				st.symref = name
			}
			continue
		}
		if !plumbing.IsHash(line) {
			return st, fmt.Errorf("read ref %s: malformed content %q", name, line)
		}
		st.hash = plumbing.NewHash(line)
		return st, nil
	}
	return st, fmt.Errorf("read ref %s: too many levels of symbolic refs", name)
}

// refPath returns the file of a loose ref (see refDir).
func refPath(gitDir, commonDir, name string) string {
	return filepath.Join(refDir(gitDir, commonDir, name), filepath.FromSlash(name))
}

// refDir returns the git directory that holds a ref and its reflog: HEAD
// and the per-worktree refs live in the worktree's git directory, the
// others in the common one.
func refDir(gitDir, commonDir, name string) string {
	if !strings.Contains(name, "/") || strings.HasPrefix(name, "refs/worktree/") ||
		strings.HasPrefix(name, "refs/bisect/") || strings.HasPrefix(name, "refs/rewritten/") {
		return gitDir
	}
	return commonDir
}

// packedRef looks name up in packed-refs.
func packedRef(commonDir, name string) (plumbing.Hash, bool, error) {
	f, err := regular.Open(filepath.Join(commonDir, "packed-refs"))
	if os.IsNotExist(err) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("read packed refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	want := []byte(name)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) < 42 || line[0] == '#' || line[0] == '^' {
			continue
		}
		if line[40] == ' ' && bytes.Equal(line[41:], want) {
			return plumbing.NewHash(string(line[:40])), true, nil
		}
	}
	if err := sc.Err(); err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("read packed refs: %w", err)
	}
	return plumbing.ZeroHash, false, nil
}

// submoduleHead returns the commit checked out in the submodule whose work
// tree is dir, and false when it is not checked out (no .git inside), which
// git treats as unchanged.
func submoduleHead(dir string) (plumbing.Hash, bool) {
	gd, ok, err := dotGit(dir)
	if err != nil || !ok {
		return plumbing.ZeroHash, false
	}
	st, err := readHead(gd, commonDirOf(gd))
	if err != nil || st.hash.IsZero() {
		return plumbing.ZeroHash, false
	}
	return st.hash, true
}
