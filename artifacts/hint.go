package artifacts

import (
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// Hint renders a reviewls command line the way every output prints a
// command the reader can run: in backquotes (a code span in markdown),
// each argument shell-quoted when it needs to be, so that it works as
// printed. A command that is only a template, with <placeholders>, is no
// hint and is not written with Hint.
func Hint(args ...string) string {
	words := append([]string{"reviewls"}, args...)
	for i, w := range words {
		words[i] = ShellWord(w)
	}
	return "`" + strings.Join(words, " ") + "`"
}

// ShellWord quotes w for a POSIX shell when it holds anything beyond
// letters, digits and the punctuation refs and paths use.
func ShellWord(w string) string {
	if w != "" && !strings.HasPrefix(w, "~") && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./~^:@%+=,") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// targetArgs returns the flags of reviewls review that select t again:
// --staged, --base REF, or none for the local changes.
func targetArgs(t review.Target) []string {
	switch {
	case t.Kind == review.BranchDiff:
		return []string{"--base", t.BaseRef}
	case t.Staged:
		return []string{"--staged"}
	}
	return nil
}

// PreexistingSummary says how many findings on the changed lines were
// there before the change, which count toward nothing: "1 finding on the
// changed lines was there before the change and does not count".
func PreexistingSummary(n int) string {
	if n == 1 {
		return "1 finding on the changed lines was there before the change and does not count"
	}
	return fmt.Sprintf("%d findings on the changed lines were there before the change and do not count", n)
}

// PreexistingHint is PreexistingSummary with the command that lists them;
// again renders the command that repeats the review with more arguments.
func PreexistingHint(n int, again func(extra ...string) string) string {
	them := "them"
	if n == 1 {
		them = "it"
	}
	return fmt.Sprintf("%s; to list %s, run %s", PreexistingSummary(n), them, again("--show-preexisting"))
}

// DepthSummary says in one line the depth a review ran at and, when that
// depth's type-aware analysis did not run or did not finish, why:
// "standard", "comprehensive", or "comprehensive, without the type-aware
// analysis: not requested (to include it, run `reviewls review --depth
// comprehensive`)". again renders the command that repeats the review
// with more arguments.
func DepthSummary(depth review.Depth, a review.Analysis, again func(extra ...string) string) string {
	d := depth.String()
	if depth < review.DepthComprehensive {
		return d
	}
	switch a.State {
	case review.AnalysisSkipped:
		if a.NotRequested {
			return d + ", without the type-aware analysis: not requested (to include it, run " + again("--depth", "comprehensive") + ")"
		}
		return d + ", without the type-aware analysis: " + a.Reason
	case review.AnalysisTimedOut:
		return fmt.Sprintf("%s, but the type-aware analysis timed out after %s: %s", d, a.Budget, a.Reason)
	case review.AnalysisPending:
		return d + ", with the type-aware analysis still running"
	}
	return d
}

// reviewAgain renders the command that repeats the review of t (from the
// repository's root) with extra arguments.
func reviewAgain(t review.Target) func(extra ...string) string {
	return func(extra ...string) string {
		return Hint(append(append([]string{"review"}, targetArgs(t)...), extra...)...)
	}
}
