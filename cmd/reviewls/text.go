package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
)

// describeTarget says in words what was reviewed.
func describeTarget(t review.Target) string {
	var what string
	switch {
	case t.Kind == review.BranchDiff:
		what = fmt.Sprintf("branch diff from merge-base with %s", artifacts.QuotePath(t.BaseRef))
	case t.Staged:
		what = "staged changes"
	default:
		what = "local changes"
	}
	where := artifacts.QuotePath(t.Branch)
	if t.Detached {
		where = "detached HEAD " + review.ShortSHA(t.HeadSHA)
	}
	if t.Unborn {
		where += " (no commits yet)"
	}
	return what + " on " + where
}

// textSummary is the terminal report: findings grouped by file, skipped
// files, the verdict and where the artifacts are. Paths are quoted as git
// quotes them and any other control character is escaped: a file name or
// a line of code must not drive the terminal.
func textSummary(res *review.Result, folder, root string, showPre bool) string {
	var b strings.Builder
	cs := res.ChangeSet
	fmt.Fprintf(&b, "reviewls: %s — %s changed", describeTarget(cs.Target), plural(len(cs.Files), "file"))
	if n := len(cs.Untracked()); n > 0 {
		fmt.Fprintf(&b, ", %d untracked", n)
	}
	if n := len(res.Skipped()); n > 0 {
		fmt.Fprintf(&b, ", %d skipped", n)
	}
	fmt.Fprintf(&b, "\nperspectives: %s · depth: %s\n", joinPerspectives(res.Perspectives), res.Depth)

	// Findings grouped by file (in path order), by line within a file.
	byFile := map[string][]*review.Finding{}
	var order []string
	for _, f := range res.Findings {
		if _, ok := byFile[f.Span.Path]; !ok {
			order = append(order, f.Span.Path)
		}
		byFile[f.Span.Path] = append(byFile[f.Span.Path], f)
	}
	sort.Strings(order)
	for _, fs := range byFile {
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Span.StartLine < fs[j].Span.StartLine })
	}
	for _, path := range order {
		fmt.Fprintf(&b, "\n%s\n", artifacts.QuotePath(path))
		for _, f := range byFile[path] {
			writeFinding(&b, f, "")
		}
	}
	if skipped := res.Skipped(); len(skipped) > 0 {
		fmt.Fprintf(&b, "\nskipped:\n")
		for _, f := range skipped {
			fmt.Fprintf(&b, "  %s (%s)\n", artifacts.QuotePath(f.Path), f.Skip)
		}
	}
	if n := len(res.PreExisting); n > 0 && showPre {
		fmt.Fprintf(&b, "\n%s in touched code (already there; they count toward nothing):\n", artifacts.PreexistingCount(n))
		for _, p := range res.PreExisting {
			b.WriteString("  " + artifacts.QuotePath(p.Finding.Span.Path) + "\n")
			writeFinding(&b, p.Finding, " (in the "+p.Source+")")
		}
	} else if n > 0 {
		fmt.Fprintf(&b, "\n%s in touched code; run `reviewls review --show-preexisting` to list them\n", artifacts.PreexistingCount(n))
	}
	if n := len(res.Suppressed); n > 0 {
		fmt.Fprintf(&b, "\n%d finding(s) suppressed by reviewls:ignore comments or the configuration\n", n)
	}
	b.WriteString(heldSummary(res))
	if len(res.Notes) > 0 {
		b.WriteString("\nnotes (review-level, no verdict weight):\n")
		for _, n := range res.Notes {
			fmt.Fprintf(&b, "  %-16s %s\n", n.Kind, n.Text())
		}
	}
	for _, p := range res.Problems {
		fmt.Fprintf(&b, "\nwarning: %s\n", p)
	}
	c := res.Counts
	fmt.Fprintf(&b, "\nverdict: %s — %d critical, %d high, %d medium, %d low\n", res.Verdict.Display(), c.Critical, c.High, c.Medium, c.Low)
	if folder != "" {
		if rel, err := filepath.Rel(root, folder); err == nil {
			folder = rel
		}
		fmt.Fprintf(&b, "artifacts: %s%c\n", artifacts.QuotePath(folder), filepath.Separator)
	}
	return artifacts.EscapeControls(b.String())
}

// writeFinding writes one finding of the text report, its title followed
// by note.
func writeFinding(b *strings.Builder, f *review.Finding, note string) {
	pos := fmt.Sprint(f.Span.StartLine)
	if f.Span.StartCol > 0 {
		pos += fmt.Sprintf(":%d", f.Span.StartCol)
	}
	fmt.Fprintf(b, "  %-7s %-8s %-34s %s%s\n", pos, f.Severity, f.RuleID, f.Title, note)
	fmt.Fprintf(b, "          %s\n", f.Message)
	if f.IsSecret() {
		fmt.Fprintf(b, "          fingerprint: %s\n", f.SecretFingerprint())
	}
}

// heldSummary lists the secrets that an inline ignore hid but that still
// hold the gate, with the fingerprints that would allow them; "" when
// there are none.
func heldSummary(res *review.Result) string {
	held := res.Held()
	if len(held) == 0 {
		return ""
	}
	var b strings.Builder
	verb := "is"
	if len(held) > 1 {
		verb = "are"
	}
	fmt.Fprintf(&b, "\n%s %s ignored inline but still held for --fail-on (an inline reviewls:ignore never lets a secret through):\n", plural(len(held), "secret"), verb)
	for _, s := range held {
		f := s.Finding
		fmt.Fprintf(&b, "  %s:%d %s %s\n          %s\n", f.Span.Path, f.Span.StartLine, f.Severity, f.RuleID, f.Message)
	}
	b.WriteString("To allow exactly these values (after checking they are no live credential), add to .reviewls.yaml:\n  allow-secrets:\n")
	for _, s := range held {
		fmt.Fprintf(&b, "    - %s\n", s.Finding.SecretFingerprint())
	}
	return b.String()
}

func joinPerspectives(ps []review.Perspective) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = string(p)
	}
	return strings.Join(s, ", ")
}

// plural formats a count with its noun: "1 file", "3 files".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
