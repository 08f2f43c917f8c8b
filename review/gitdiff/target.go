package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/reviewls/reviewls/review"
)

// Resolve resolves the review target. With base == "" it is the local
// changes (staged, unstaged and untracked, or only the staged ones when
// staged is set) against HEAD; otherwise a branch diff from the merge-base
// of base and HEAD to the work tree. base is a revision as git takes it
// ("main", "origin/main", a tag, a hash, "HEAD~3", "@{upstream}",
// "HEAD@{1}", "@{-1}"; see resolveRevision).
//
// An unborn HEAD (no commit yet) is a valid local target whose every file
// is added; a branch diff needs a commit. A detached HEAD has HeadRef
// "HEAD" and no Branch.
func (r *Repo) Resolve(ctx context.Context, staged bool, base string) (review.Target, error) {
	if err := ctx.Err(); err != nil {
		return review.Target{}, err
	}
	if staged && base != "" {
		return review.Target{}, fmt.Errorf("resolve target: a staged review has no base (got %q)", base)
	}
	t := review.Target{Kind: review.LocalChanges, Provider: "unknown", BaseRef: "HEAD", Staged: staged}
	if base == "" {
		// Every save resolves HEAD: read it from the files, as the
		// "has HEAD moved" check does, and leave go-git the odd cases
		// (and their error messages).
		if st, err := readHead(r.gitDir, r.commonDir); err == nil {
			return headTarget(t, st), nil
		}
	}

	r.objMu.Lock()
	defer r.objMu.Unlock()
	t, err := r.resolveHead(t)
	if err != nil || base == "" {
		return t, err
	}

	t.Kind = review.BranchDiff
	t.BaseRef = base
	if t.Unborn {
		return t, fmt.Errorf("merge base of %q and HEAD: HEAD has no commits", base)
	}
	w, err := r.newMergeBaseWalker()
	if err != nil {
		return t, err
	}
	h, err := r.resolveRevision(base)
	if err != nil {
		if len(w.shallow) > 0 && isHexPrefix(base) {
			return t, errShallow(fmt.Sprintf("resolve revision %q: %v,", base, err), "beyond")
		}
		return t, fmt.Errorf("resolve revision %q: %w%s", base, err, r.missingAltsNote())
	}
	bc, err := r.repo.CommitObject(h)
	if err != nil {
		return t, fmt.Errorf("resolve revision %q: %w", base, r.objectErr("commit", h, err))
	}
	hc, err := r.repo.CommitObject(plumbing.NewHash(t.HeadSHA))
	if err != nil {
		return t, fmt.Errorf("read HEAD commit: %w", r.objectErr("commit", plumbing.NewHash(t.HeadSHA), err))
	}
	mbs, err := w.mergeBases(hc, bc)
	if err != nil {
		return t, fmt.Errorf("merge base of %q and HEAD: %w", base, err)
	}
	if len(mbs) == 0 {
		if w.boundary {
			return t, errShallow(fmt.Sprintf("merge base of %q and HEAD: no common ancestor", base), "within")
		}
		return t, fmt.Errorf("merge base of %q and HEAD: no common ancestor", base)
	}
	t.BaseSHA = bestMergeBase(mbs).Hash.String()
	return t, nil
}

// isHexPrefix reports whether s could be an abbreviated object name.
func isHexPrefix(s string) bool {
	if len(s) < 4 || len(s) > 40 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// bestMergeBase picks one of several merge-bases (criss-cross merges)
// deterministically: the most recently committed, then the smallest hash.
func bestMergeBase(cs []*object.Commit) *object.Commit {
	sort.Slice(cs, func(i, j int) bool {
		ti, tj := cs[i].Committer.When, cs[j].Committer.When
		if !ti.Equal(tj) {
			return ti.After(tj)
		}
		return cs[i].Hash.String() < cs[j].Hash.String()
	})
	return cs[0]
}

// headTarget completes t, a local target, from what HEAD resolves to.
func headTarget(t review.Target, st refState) review.Target {
	if st.symref != "" {
		t.HeadRef = st.symref
		t.Branch = plumbing.ReferenceName(st.symref).Short()
		if st.hash.IsZero() {
			t.Unborn = true
		} else {
			t.HeadSHA = st.hash.String()
		}
	} else {
		t.Detached = true
		t.HeadRef = "HEAD"
		t.HeadSHA = st.hash.String()
	}
	t.BaseSHA = t.HeadSHA
	return t
}

// resolveHead completes t from HEAD as go-git reads it. Requires objMu.
func (r *Repo) resolveHead(t review.Target) (review.Target, error) {
	head, err := r.repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return t, fmt.Errorf("resolve HEAD: %w", err)
	}
	if head.Type() == plumbing.SymbolicReference {
		t.HeadRef = head.Target().String()
		t.Branch = head.Target().Short()
		ref, err := r.repo.Reference(head.Target(), true)
		switch {
		case errors.Is(err, plumbing.ErrReferenceNotFound):
			t.Unborn = true
		case err != nil:
			return t, fmt.Errorf("resolve HEAD: %w", err)
		default:
			t.HeadSHA = ref.Hash().String()
		}
	} else {
		t.Detached = true
		t.HeadRef = "HEAD"
		t.HeadSHA = head.Hash().String()
	}
	t.BaseSHA = t.HeadSHA
	return t, nil
}
