package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// runBaseline implements 'reviewls baseline create|update|check [PATH]'.
// The baseline records the findings of a scan of every tracked file of
// the work tree (see engine.ScanTree); check exits 1 when the tree has
// findings outside it, 2 when the baseline is missing or invalid.
func runBaseline(ctx context.Context, e *env, args []string) int {
	flags := flag.NewFlagSet("baseline", flag.ContinueOnError)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), `Usage: reviewls baseline create|update|check [flags] [PATH]

Records, rewrites or checks the baseline of the repository that contains
PATH (default: the current directory): the fingerprints of the findings of
every tracked file, in %s at the repository root (or where the
configuration's baseline key points). Reviews report the findings the
baseline records as such, never toward the verdict or --fail-on.

  create  write the baseline; fails when it exists
  update  rewrite the baseline
  check   exit 1 when the tree has findings outside the baseline, 0 when not

Flags:
`, review.BaselineFile)
		flags.PrintDefaults()
	}
	setLogger := logFlags(flags)
	pos, code, ok := parseFlags(e, flags, args)
	if !ok {
		return code
	}
	setLogger(e)
	if len(pos) == 0 {
		flags.Usage()
		return exitUsage
	}
	sub, pos := pos[0], pos[1:]
	if sub != "create" && sub != "update" && sub != "check" {
		return e.errorf("baseline: unknown subcommand %q (want create, update or check)", sub)
	}
	if len(pos) > 1 {
		return e.errorf("baseline %s takes at most one PATH, got %d", sub, len(pos))
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	eng, code := openEngine(e, dir)
	if eng == nil {
		return code
	}
	defer eng.Close()
	rel := eng.Config().BaselinePath()

	var old *review.Baseline
	switch _, err := os.Lstat(filepath.Join(eng.Root(), filepath.FromSlash(rel))); {
	case sub == "create" && err == nil:
		return e.errorf("baseline %s already exists (run 'reviewls baseline update' to rewrite it)", rel)
	case sub != "create" && errors.Is(err, fs.ErrNotExist):
		return e.errorf("no baseline at %s (run 'reviewls baseline create' first)", rel)
	case sub == "check":
		if old, err = artifacts.ReadBaseline(eng.Root(), rel); err != nil {
			return e.errorf("%v", err)
		}
	}

	prog := startProgress(e.stderr, false, "scanning the tree")
	findings, problems, err := eng.ScanTree(ctx)
	prog.Stop()
	if err != nil {
		return e.errorf("%v", err)
	}
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "reviewls: warning: %s\n", p)
	}
	if sub != "check" {
		b := review.NewBaseline(findings)
		if err := artifacts.WriteBaseline(eng.Root(), rel, b, artifactOptions()); err != nil {
			return e.errorf("%v", err)
		}
		fmt.Fprintf(e.stdout, "reviewls: wrote %s: %s (%s) in %s\n", rel, plural(len(findings), "finding"),
			plural(len(b.Entries), "fingerprint"), plural(countPaths(b), "file"))
		return exitOK
	}
	outside, inside, absent := old.Compare(findings)
	var b strings.Builder
	for _, f := range outside {
		fmt.Fprintf(&b, "%s:%d: %s %s: %s\n", f.Span.Path, f.Span.StartLine, f.Severity, f.RuleID, f.Title)
	}
	missing := 0
	for _, a := range absent {
		missing += a.Count
	}
	fmt.Fprintf(&b, "reviewls: %s outside the baseline, %s in it, %s of it no longer found\n",
		plural(len(outside), "finding"), plural(len(inside), "finding"), plural(missing, "finding"))
	if missing > 0 {
		fmt.Fprintf(&b, "run 'reviewls baseline update' to drop the findings no longer found\n")
	}
	fmt.Fprint(e.stdout, b.String())
	if len(outside) > 0 {
		return exitFindings
	}
	return exitOK
}

// countPaths counts the distinct paths of b's entries.
func countPaths(b *review.Baseline) int {
	seen := map[string]bool{}
	for _, en := range b.Entries {
		seen[en.Path] = true
	}
	return len(seen)
}

// loadBaseline reads the repository's baseline for a review: none when the
// file does not exist, an error naming the file when it is invalid.
func loadBaseline(eng *engine.Engine) (*review.Baseline, error) {
	b, err := artifacts.ReadBaseline(eng.Root(), eng.Config().BaselinePath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}
