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
// of base and HEAD to the work tree. base is any revision go-git resolves
// ("main", "origin/main", a tag, a hash, "HEAD~3").
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

	r.objMu.Lock()
	defer r.objMu.Unlock()
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
	if base == "" {
		t.BaseSHA = t.HeadSHA
		return t, nil
	}

	t.Kind = review.BranchDiff
	t.BaseRef = base
	h, err := r.repo.ResolveRevision(plumbing.Revision(base))
	if err != nil {
		return t, fmt.Errorf("resolve revision %q: %w", base, err)
	}
	if t.Unborn {
		return t, fmt.Errorf("merge base of %q and HEAD: HEAD has no commits", base)
	}
	bc, err := r.repo.CommitObject(*h)
	if err != nil {
		return t, fmt.Errorf("resolve revision %q: %w", base, err)
	}
	hc, err := r.repo.CommitObject(plumbing.NewHash(t.HeadSHA))
	if err != nil {
		return t, fmt.Errorf("read HEAD commit: %w", err)
	}
	mbs, err := hc.MergeBase(bc)
	if err != nil {
		return t, fmt.Errorf("merge base of %q and HEAD: %w", base, err)
	}
	if len(mbs) == 0 {
		return t, fmt.Errorf("merge base of %q and HEAD: no common ancestor", base)
	}
	t.BaseSHA = bestMergeBase(mbs).Hash.String()
	return t, nil
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
