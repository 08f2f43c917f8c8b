package engine

import (
	"context"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/gitdiff"
	"github.com/reviewls/reviewls/review/orient"
)

// workspace gives orient (explanations, investigations, the walkthrough's
// runway) what it reads beyond the change set, from the repository.
type workspace struct {
	repo   *gitdiff.Repo
	target review.Target
}

var _ orient.Workspace = workspace{}

// Workspace returns the repository view of a result's target.
func (e *Engine) Workspace(t review.Target) orient.Workspace {
	return workspace{repo: e.repo, target: t}
}

func (w workspace) Root() string { return w.repo.Root() }

func (w workspace) ReadBase(ctx context.Context, path string) ([]byte, error) {
	return w.repo.ReadBase(ctx, w.target, path)
}

func (w workspace) TrackedFiles() ([]string, error) { return w.repo.TrackedFiles() }

func (w workspace) LineHistory(ctx context.Context, path string, lines []int) ([]review.LineOrigin, error) {
	origins, err := w.repo.LineHistory(ctx, w.target, path, lines, 0)
	if err != nil {
		return nil, err
	}
	out := make([]review.LineOrigin, len(origins))
	for i, o := range origins {
		out[i] = review.LineOrigin{Line: o.Line, Commit: o.Commit, Author: o.Author, When: o.When, Subject: o.Subject}
	}
	return out, nil
}
