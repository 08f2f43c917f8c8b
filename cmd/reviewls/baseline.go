package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// runBaseline implements 'reviewls baseline create|update|check [-C DIR]'.
// The baseline records the findings of a scan of every file committed at
// HEAD (see engine.ScanTree), never a secret; check exits 1 when the
// committed tree has findings outside it, 2 when the baseline is missing
// or invalid.
func runBaseline(ctx context.Context, e *env, args []string) int {
	flags := flag.NewFlagSet("baseline", flag.ContinueOnError)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), `Usage: reviewls baseline create|update|check [-C DIR] [flags]

Records, rewrites or checks the baseline of the repository that contains
DIR (default: the current directory; a last argument PATH names it as -C
does): the fingerprints of the findings of
every file committed at HEAD — not the staged or unstaged changes, which a
review judges — in %s at the repository root (or where the
configuration's baseline key points). Reviews report the findings the
baseline records as such, never toward the verdict or --fail-on. A
baseline never records a secret: only allow-secrets in .reviewls.yaml lets
one through.

  create  write the baseline; fails when it exists
  update  rewrite the baseline
  check   exit 1 when the committed tree has findings outside the baseline, 0 when not

Flags:
`, review.BaselineFile)
		flags.PrintDefaults()
	}
	var sc scope
	dirFlag(flags, &sc.dir)
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
	if code, ok := pathArg(e, "baseline "+sub, &sc, pos); !ok {
		return code
	}
	eng, code := openEngine(e, sc.dir)
	if eng == nil {
		return code
	}
	defer eng.Close()
	rel := eng.Config().BaselinePath()

	var old *review.Baseline
	switch _, err := os.Lstat(filepath.Join(eng.Root(), filepath.FromSlash(rel))); {
	case sub == "create" && err == nil:
		if err := artifacts.CheckBaselineTarget(eng.Root(), rel); err != nil {
			return e.errorf("%v", err)
		}
		return e.errorf("baseline %s already exists (run %s to rewrite it)", rel, sc.dirHint("baseline update"))
	case sub != "create" && errors.Is(err, fs.ErrNotExist):
		return e.errorf("no baseline at %s (run %s first)", rel, sc.dirHint("baseline create"))
	case sub == "check":
		if old, err = artifacts.ReadBaseline(eng.Root(), rel); err != nil {
			return e.errorf("%v", err)
		}
	}

	prog := startProgress(e.stderr, false, "scanning the committed tree")
	scan, err := eng.ScanTree(ctx)
	prog.Stop()
	if err != nil {
		return e.errorf("%v", err)
	}
	for _, p := range scan.Problems {
		fmt.Fprintf(e.stderr, "reviewls: warning: %s\n", p)
	}
	findings, secrets := unallowed(scan.Findings, eng.Config())
	var b strings.Builder
	if scan.Head == "" {
		b.WriteString("reviewls: HEAD has no commit yet, so there is nothing to scan: a baseline records committed files only\n")
	} else {
		fmt.Fprintf(&b, "reviewls: scanned the files committed at HEAD (%s): staged and unstaged changes are not in the baseline, nor is any secret (allow-secrets in .reviewls.yaml lets one through)\n",
			review.ShortSHA(scan.Head))
	}
	if sub != "check" {
		nb := review.NewBaseline(findings)
		if err := artifacts.WriteBaseline(eng.Root(), rel, nb, artifactOptions()); err != nil {
			return e.errorf("%v", err)
		}
		fmt.Fprintf(&b, "reviewls: wrote %s: %s (%s) in %s\n", rel, plural(len(findings)-len(secrets), "finding"),
			plural(len(nb.Entries), "fingerprint"), plural(countPaths(nb), "file"))
		if len(secrets) > 0 {
			for _, f := range secrets {
				writeScanFinding(&b, f)
			}
			fmt.Fprintf(&b, "reviewls: %s in the committed tree not recorded (a baseline never holds one): %s.\n", plural(len(secrets), "secret"), removeAndRotate(len(secrets)))
			b.WriteString(allowAdvice(secrets))
		}
		fmt.Fprint(e.stdout, b.String())
		return exitOK
	}
	outside, inside, absent := old.Compare(findings)
	for _, f := range outside {
		writeScanFinding(&b, f)
	}
	if len(secrets) > 0 {
		fmt.Fprintf(&b, "reviewls: %s in the committed tree, outside the baseline as every secret is: %s.\n", plural(len(secrets), "secret"), removeAndRotate(len(secrets)))
		b.WriteString(allowAdvice(secrets))
	}
	missing := 0
	for _, a := range absent {
		missing += a.Count
	}
	fmt.Fprintf(&b, "reviewls: %s outside the baseline, %s in it, %s of it no longer found\n",
		plural(len(outside), "finding"), plural(len(inside), "finding"), plural(missing, "finding"))
	var drop []string
	if missing > 0 {
		drop = append(drop, "the findings no longer found")
	}
	if refused := old.Refused(findings); len(refused) > 0 {
		fmt.Fprintf(&b, "reviewls: the baseline records %s, which no baseline covers (only allow-secrets does)\n", plural(len(refused), "secret"))
		drop = append(drop, "the secrets")
	}
	if len(drop) > 0 {
		fmt.Fprintf(&b, "run %s to drop %s\n", sc.dirHint("baseline update"), strings.Join(drop, " and "))
	}
	fmt.Fprint(e.stdout, b.String())
	if len(outside) > 0 {
		return exitFindings
	}
	return exitOK
}

// unallowed returns findings without the secrets the configuration's
// allow-secrets lists, and the secrets among them.
func unallowed(findings []*review.Finding, cfg *review.Config) (kept, secrets []*review.Finding) {
	var allowed []string
	if cfg != nil {
		allowed = cfg.AllowSecrets
	}
	for _, f := range findings {
		if !f.IsSecret() {
			kept = append(kept, f)
			continue
		}
		if !slices.Contains(allowed, f.SecretFingerprint()) {
			kept = append(kept, f)
			secrets = append(secrets, f)
		}
	}
	return kept, secrets
}

// removeAndRotate is the advice for n secrets in the committed tree.
func removeAndRotate(n int) string {
	if n == 1 {
		return "remove it and rotate the credential"
	}
	return "remove them and rotate the credentials"
}

// writeScanFinding writes one finding of a whole-tree scan, with a
// secret's fingerprint.
func writeScanFinding(b *strings.Builder, f *review.Finding) {
	fmt.Fprintf(b, "%s:%d: %s %s: %s\n", f.Span.Path, f.Span.StartLine, f.Severity, f.RuleID, f.Title)
	if f.IsSecret() {
		fmt.Fprintf(b, "    fingerprint: %s\n", f.SecretFingerprint())
	}
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
