package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review/engine"
)

func runValidate(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: reviewls validate [-C DIR] [FOLDER]\n\nValidates every JSON artifact in FOLDER (default: the artifact folder of the\ncurrent branch of the work tree that contains DIR) against the embedded JSON\nschemas. Exits 1 when a file is invalid.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var sc scope
	dirFlag(fs, &sc.dir)
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	if len(pos) > 1 {
		return e.errorf("validate takes at most one FOLDER, got %d", len(pos))
	}
	var dir string
	if len(pos) == 1 {
		dir = pos[0]
	} else {
		repo, err := engine.OpenRepo(sc.dir, engine.ProcessEnv())
		if err != nil {
			return e.errorf("%v", err)
		}
		t, err := repo.Resolve(ctx, false, "")
		if err != nil {
			return e.errorf("%v", err)
		}
		dir = artifacts.Folder(repo.Root(), t)
	}
	if info, err := os.Stat(dir); err != nil {
		return e.errorf("%v", err)
	} else if !info.IsDir() {
		return e.errorf("%s is not a directory", dir)
	}
	if err := artifacts.Validate(dir); err != nil {
		fmt.Fprintf(e.stderr, "%v\n", err)
		return exitFindings
	}
	fmt.Fprintf(e.stdout, "%s: all artifacts valid\n", dir)
	return exitOK
}
