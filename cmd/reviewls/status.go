package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// runStatus lists the changed paths a review would look at, without
// reading or checking their content: the fast scan on its own.
func runStatus(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: reviewls status [-C DIR] [--staged | --base REF]\n\nLists the changed paths a review would cover, one per line: the areas that\nhold changes (S staged, U unstaged, ? untracked), the status, and the path.\nA last argument PATH names the work tree as -C does.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var sc scope
	dirFlag(fs, &sc.dir)
	targetFlags(fs, &sc, "only the staged changes (index vs HEAD)", "the branch diff from merge-base(`REF`, HEAD) to the work tree")
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	if code, ok := pathArg(e, "status", &sc, pos); !ok {
		return code
	}
	if code, ok := sc.checkTarget(e); !ok {
		return code
	}
	repo, code := openRepo(e, sc.dir)
	if repo == nil {
		return code
	}
	defer repo.Close()
	t, err := repo.Resolve(ctx, sc.staged, sc.base)
	if err != nil {
		return e.errorf("%v", err)
	}
	changes, err := repo.Status(ctx, t)
	if err != nil {
		return e.errorf("%v", err)
	}
	var b strings.Builder
	for _, c := range changes {
		areas := []byte("   ")
		if c.Staged {
			areas[0] = 'S'
		}
		if c.Unstaged {
			areas[1] = 'U'
		}
		if c.Untracked {
			areas[2] = '?'
		}
		path := artifacts.QuotePath(c.Path)
		if c.OldPath != "" {
			path = artifacts.QuotePath(c.OldPath) + " -> " + path
		}
		fmt.Fprintf(&b, "%s %-9s %s\n", areas, c.Status, path)
	}
	fmt.Fprint(e.stdout, b.String())
	return exitOK
}

// openRepo opens the repository that holds dir for a command that scans
// without reviewing, or prints why it cannot and returns the exit code.
func openRepo(e *env, dir string) (*engine.Repo, int) {
	repo, err := engine.OpenRepo(dir, engine.ProcessEnv())
	if err != nil {
		return nil, openError(e, dir, err)
	}
	return repo, exitOK
}

// openError prints why the repository that holds dir did not open, and
// returns the exit code.
func openError(e *env, dir string, err error) int {
	if errors.Is(err, review.ErrNotRepository) {
		abs, _ := filepath.Abs(dir)
		return e.errorf("not a git repository: %s", abs)
	}
	return e.errorf("%v", err)
}
