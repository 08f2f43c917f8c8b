package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// formats lists the --format values.
var formats = []string{"text", "json", "markdown", "sarif", "river"}

func runReview(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: reviewls review [-C DIR] [flags]\n\nReviews the changes of the work tree that contains DIR (default: the current\ndirectory) and writes the artifact folder under .copilot-tracking/. A last\nargument PATH names the work tree as -C does.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var sc scope
	dirFlag(fs, &sc.dir)
	targetFlags(fs, &sc, "review only the staged changes (index vs HEAD), as a pre-commit hook does",
		"review the branch diff from merge-base(`REF`, HEAD) to the work tree")
	profile := fs.String("profile", "", "perspective profile: standard, full or custom")
	perspectives := fs.String("perspectives", "", "comma-separated perspectives (implies --profile custom): functional, standards, accessibility, security, readiness")
	depth := fs.String("depth", "", "depth tier: basic, standard or comprehensive (default: the recommended depth; only an asked-for comprehensive runs the type-aware analysis)")
	mode := fs.String("mode", "workflow", "workflow (CI, hooks) or interactive (adds the orientation artifacts)")
	format := fs.String("format", "text", "output format: text, json, markdown, sarif or river")
	failOn := fs.String("fail-on", "", "exit 1 when a finding reaches `SEVERITY`: critical, high, medium, low or never (default high)")
	noWrite := fs.Bool("no-artifacts", false, "print the review without writing the artifact folder")
	showPre := fs.Bool("show-preexisting", false, "also list the findings on changed lines that were already there (in the base version or the baseline); they never count")
	color := fs.String("color", "auto", "colour the text report: auto (on a terminal, unless NO_COLOR is set), always or never")
	showProgress := fs.Bool("progress", false, "report progress on stderr even when it is not a terminal (on a terminal a run over a moment shows a spinner)")
	hook := fs.Bool("hook", false, "word a blocked run for a pre-commit hook: what blocked the commit and how to bypass it")
	runGates := fs.Bool("gates", false, "run the project gates (gates: in your configuration, or in that of a repository you trusted) in the work tree; a failing gate exits 1")
	model := addModelFlags(fs)
	setLogger := logFlags(fs)
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	setLogger(e)
	if code, ok := pathArg(e, "review", &sc, pos); !ok {
		return code
	}
	dir := sc.dir
	for _, f := range [][2]string{{"profile", *profile}, {"perspectives", *perspectives}, {"depth", *depth}} {
		if f[1] != "" {
			sc.flags = append(sc.flags, "--"+f[0], f[1])
		}
	}

	req := review.Request{Dir: dir, Staged: sc.staged, Base: sc.base}
	if code, ok := sc.checkTarget(e); !ok {
		return code
	}
	var err error
	if *profile != "" {
		if req.Profile, err = review.ParseProfile(*profile); err != nil {
			return e.errorf("--profile: %v", err)
		}
	}
	if *perspectives != "" {
		if req.Perspectives, err = review.ParsePerspectives(*perspectives); err != nil {
			return e.errorf("--perspectives: %v", err)
		}
		if req.Profile == "" {
			req.Profile = review.ProfileCustom
		}
	}
	if *depth != "" {
		if req.Depth, err = review.ParseDepth(*depth); err != nil {
			return e.errorf("--depth: %v", err)
		}
	}
	if req.Mode, err = review.ParseMode(*mode); err != nil {
		return e.errorf("--mode: %v", err)
	}
	if !slices.Contains(colorModes, *color) {
		return e.errorf("--color: unknown mode %q (want auto, always or never)", *color)
	}
	if !validFormat(*format) {
		return e.errorf("--format: unknown format %q (want text, json, markdown, sarif or river)", *format)
	}
	var threshold review.FailOn
	if *failOn != "" {
		if threshold, err = review.ParseFailOn(*failOn); err != nil {
			return e.errorf("--fail-on: %v", err)
		}
	}

	var opts engine.Options
	if err := model.options(&opts); err != nil {
		return e.errorf("%v", err)
	}

	prog := startProgress(e.stderr, *showProgress, "reading the repository")
	defer prog.Stop()
	eng, code := openEngineWith(e, dir, opts)
	if eng == nil {
		return code
	}
	defer eng.Close()
	if err := model.check(eng); err != nil {
		return e.errorf("%v", err)
	}
	req.Model = modelMode(eng, *hook)
	// --no-artifacts writes nothing, not even the history cache; an
	// existing cache is still read.
	eng.Repo().SetHistoryCacheWrites(!*noWrite)
	// A threshold of never from the user (the flag or the user's own
	// file) lets secrets through too; the repository's cannot.
	userNever := threshold.Never
	if !threshold.Set {
		threshold = review.DefaultFailOn
		if cfg := eng.Config(); cfg != nil && cfg.FailOn.Set {
			threshold = cfg.FailOn
			userNever = threshold.Never && eng.UserSets("fail-on")
		}
	}
	g := gate{threshold: threshold, secrets: !userNever}

	if req.Baseline, err = loadBaseline(eng); err != nil {
		return e.errorf("%v", err)
	}
	// A hook run stays a workflow review: a commit must not wait for the
	// orientation's repository searches.
	continueLoop(ctx, e, eng, &req, modeSet(fs) || *hook)

	prog.Step("reviewing the changes")
	res, err := eng.Run(ctx, req)
	prog.Stop()
	if err != nil {
		return e.errorf("%v", err)
	}
	tellWithheld(e, sc, res)
	// After the rules, whose findings it is told; a model that is down,
	// slow or wrong is a line of the report, no error.
	if res, err = askModel(ctx, e, eng, res, *showProgress); err != nil {
		return e.errorf("%v", err)
	}
	if *runGates && !res.ChangeSet.Empty() {
		gates(ctx, e, eng, res, *showProgress)
	}
	text := &textReport{color: useColor(*color, e.stdout), where: relativeTo(eng.Root()), hook: *hook, again: sc.again("review")}
	if res.ChangeSet.Empty() {
		if *format == "text" {
			fmt.Fprintf(e.stdout, "no changes to review (%s)\n%s", describeTarget(res.ChangeSet.Target), noChangesHint(ctx, eng, sc, res.ChangeSet.Target))
			return exitOK
		}
		fmt.Fprintf(e.stderr, "reviewls: no changes to review (%s)\n", describeTarget(res.ChangeSet.Target))
		// The other formats print their document with nothing in it: a
		// consumer (CI uploading SARIF, say) must not get zero bytes.
		if err := printResult(e, res, *format, "", eng.Root(), text, false); err != nil {
			return e.errorf("%v", err)
		}
		return exitOK
	}

	folder := ""
	if !*noWrite {
		written, err := artifacts.Write(eng.Root(), res, writeOptions(eng))
		if err != nil {
			return e.errorf("%v", err)
		}
		folder = written.Dir
	}
	if err := printResult(e, res, *format, folder, eng.Root(), text, *showPre); err != nil {
		return e.errorf("%v", err)
	}
	if d := artifacts.DepthSummary(res.Depth, res.Analysis, sc.again("review")); *format != "text" && d != res.Depth.String() {
		// The text report's header says it; the other formats keep
		// stdout a document.
		fmt.Fprintf(e.stderr, "reviewls: depth: %s\n", d)
	}
	if line := modelLine(res); line != "" && *format != "text" {
		// The text report says it; the other formats keep stdout a
		// document.
		fmt.Fprintln(e.stderr, res.Redactor.String("reviewls: "+line))
	}
	blocking := g.blocking(res)
	failed := res.ProjectGates.Failed()
	if len(failed) > 0 && !threshold.Never {
		for _, f := range failed {
			fmt.Fprintf(e.stderr, "reviewls: blocked: %s\n", res.Redactor.String(f.String()))
		}
		if len(blocking) == 0 {
			return exitFindings
		}
	}
	if len(blocking) == 0 {
		return exitOK
	}
	if *format != "text" {
		// Machine formats keep stdout a document: the held secrets go
		// to stderr.
		fmt.Fprint(e.stderr, res.Redactor.String(heldSummary(res, !*hook)))
	}
	switch {
	case *hook:
		fmt.Fprint(e.stderr, res.Redactor.String(hookBlocked(blocking, g)))
	case !threshold.Reached(res.Counts):
		fmt.Fprintf(e.stderr, "reviewls: blocked: %s (a secret blocks whatever --fail-on; allow each by its fingerprint under allow-secrets in .reviewls.yaml)\n", plural(len(blocking), "secret"))
	}
	return exitFindings
}

// gate decides what makes a run exit 1: the findings at or above the
// fail-on threshold, and every secret, accepted or held by an inline
// ignore, whatever its severity and the threshold — unless the user (not
// the repository) set the threshold to never. Only allow-secrets lets a
// secret through.
type gate struct {
	threshold review.FailOn
	secrets   bool
}

// blocks reports whether f blocks the run.
func (g gate) blocks(f *review.Finding) bool {
	return g.secrets && f.IsSecret() || !g.threshold.Never && f.Severity >= g.threshold.Severity
}

// blocking returns the accepted and held findings of res that block; an
// advisory model finding never does, as it never counts for the verdict.
func (g gate) blocking(res *review.Result) []*review.Finding {
	var out []*review.Finding
	for _, f := range res.Findings {
		if g.blocks(f) && !res.Advisory(f) {
			out = append(out, f)
		}
	}
	for _, s := range res.Held() {
		if g.blocks(s.Finding) {
			out = append(out, s.Finding)
		}
	}
	return out
}

// continueLoop makes the review continue the review loop of the branch's
// artifact folder, as the language server does: its board ids, statuses,
// investigations and the human's choices carry over, so the folder's
// explanations, investigations and their numbering survive the review.
// A folder an interactive review wrote stays one unless the mode is
// fixed (asked for, or a hook's).
func continueLoop(ctx context.Context, e *env, eng *engine.Engine, req *review.Request, modeFixed bool) {
	// The folder is the branch's, whatever the base: resolve without one.
	t, err := eng.Repo().Resolve(ctx, req.Staged, "")
	if err != nil {
		return // the run reports it
	}
	loop, err := artifacts.LoadLoop(eng.Root(), t)
	if err != nil {
		e.logger.Warn("ignoring the loop state on disk", "err", err)
		return
	}
	req.Loop = loop
	if !modeFixed && artifacts.FolderMode(eng.Root(), t) == review.ModeInteractive {
		req.Mode = review.ModeInteractive
	}
}

// modeSet reports whether --mode was given.
func modeSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "mode" })
	return set
}

// hookBlocked is what a blocked pre-commit hook says on stderr: what
// blocked the commit, and the ways on — for a secret, accepted or held,
// removing it or allow-secrets, never an inline ignore, which does not
// let one through.
func hookBlocked(blocking []*review.Finding, g gate) string {
	var secrets []*review.Finding
	others := false
	var c review.Counts
	for _, f := range blocking {
		c.Add(f.Severity)
		if f.IsSecret() {
			secrets = append(secrets, f)
		} else {
			others = true
		}
	}
	var parts []string
	for _, s := range []struct {
		n    int
		name string
	}{{c.Critical, "critical"}, {c.High, "high"}, {c.Medium, "medium"}, {c.Low, "low"}} {
		if s.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", s.n, s.name))
		}
	}
	what := fmt.Sprintf("%s at or above %s in the staged changes (listed above).", strings.Join(parts, ", "), g.threshold)
	if g.threshold.Never || c.AtLeast(g.threshold.Severity) < len(blocking) {
		what = fmt.Sprintf("%s in the staged changes (listed above); a secret blocks whatever --fail-on is.", strings.Join(parts, ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "reviewls: commit blocked: %s\n", what)
	if others {
		what := "them"
		if len(secrets) > 0 {
			what = "the findings that are no secret"
		}
		fmt.Fprintf(&b, "  Fix %s and stage the fix, or silence a false positive on its line with\n"+
			"  `reviewls:ignore <rule> <why it does not apply>`.\n", what)
	}
	if len(secrets) > 0 {
		what := "The secret: remove it from the staged files and rotate the credential"
		if len(secrets) > 1 {
			what = fmt.Sprintf("The %d secrets: remove them from the staged files and rotate the credentials", len(secrets))
		}
		fmt.Fprintf(&b, "  %s;\n  an inline reviewls:ignore never lets a secret through.\n", what)
		for line := range strings.Lines(allowAdvice(secrets)) {
			b.WriteString("  " + line)
		}
	}
	b.WriteString("  Or, to commit anyway, once: git commit --no-verify\n")
	return b.String()
}

// noChangesHint says, after an empty review, what else could be reviewed:
// a fresh clone has no local changes, and the useful first run is its
// last commit or its branch. It offers only what has something to review.
func noChangesHint(ctx context.Context, eng *engine.Engine, sc scope, t review.Target) string {
	switch {
	case t.Unborn:
		return "Add files to review them before the first commit.\n"
	case t.Kind == review.BranchDiff:
		return "The work tree has nothing beyond " + artifacts.QuotePath(t.BaseRef) + ".\n"
	case t.Staged && hasChanges(ctx, eng, ""):
		sc.staged = false
		return "Nothing is staged: `git add` what you will commit, or run " + sc.hint("review") + " for all local changes.\n"
	}
	msg := "The work tree and the index match HEAD."
	if t.Staged {
		msg = "Nothing is staged, and the work tree matches HEAD."
	}
	if h := lastCommitHint(ctx, eng, sc, "review"); h != "" {
		msg += " To review the last commit, run " + h + "."
	}
	return msg + "\n"
}

// hasChanges reports whether a review of the local changes, or of the
// branch from base, has changed paths to look at: false too when it
// cannot tell (no such base, trees a partial clone has not fetched).
func hasChanges(ctx context.Context, eng *engine.Engine, base string) bool {
	t, err := eng.Repo().Resolve(ctx, false, base)
	if err != nil {
		return false
	}
	changes, err := eng.Repo().Status(ctx, t)
	return err == nil && len(changes) > 0
}

// lastCommitHint is the command that runs name with args on the last
// commit (--base HEAD~1), or "" when there is nothing to review there.
func lastCommitHint(ctx context.Context, eng *engine.Engine, sc scope, name string, args ...string) string {
	if !hasChanges(ctx, eng, "HEAD~1") {
		return ""
	}
	sc.staged, sc.base = false, "HEAD~1"
	return sc.hint(name, args...)
}

// openEngine opens the repository of the directory dir, or prints why it
// cannot and returns the exit code. It reads the user's configuration and
// trusted repositories.
func openEngine(e *env, dir string) (*engine.Engine, int) {
	return openEngineWith(e, dir, engine.Options{})
}

// openEngineWith is openEngine with the options the command's flags set.
func openEngineWith(e *env, dir string, opts engine.Options) (*engine.Engine, int) {
	if info, err := os.Stat(dir); err != nil {
		return nil, e.errorf("%v", err)
	} else if !info.IsDir() {
		return nil, e.errorf("%s is not a directory", dir)
	}
	opts.Logger, opts.Env, opts.UserDir = e.logger, engine.ProcessEnv(), engine.UserDir(os.Getenv)
	eng, err := engine.Open(dir, opts)
	if err != nil {
		return nil, openError(e, dir, err)
	}
	return eng, exitOK
}

func validFormat(f string) bool {
	for _, v := range formats {
		if v == f {
			return true
		}
	}
	return false
}

// printResult writes res to stdout in the chosen format, redacted; text
// is how the text report is written. With showPre the text, JSON and SARIF
// outputs list the pre-existing findings.
func printResult(e *env, res *review.Result, format, folder, root string, text *textReport, showPre bool) error {
	var (
		out []byte
		err error
	)
	opts := artifactOptions()
	opts.PreExisting = showPre
	switch format {
	case "text":
		out = []byte(textSummary(res, folder, text, showPre))
	case "json":
		out, err = artifacts.MergedFindingsJSON(res, opts)
	case "markdown":
		var d artifacts.Disclaimer
		if d, err = artifacts.LoadDisclaimer(root); err == nil {
			// On stdout, the links to the repository's files lead from
			// the current directory, not from the artifact folder.
			out = artifacts.ReviewMarkdownFrom(res, d, linkRoot(root), text.again)
		}
	case "sarif":
		out, err = artifacts.SARIF(res, opts)
	case "river":
		out, err = artifacts.River(res, artifactOptions())
	}
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(res.Redactor.Bytes(out))
	return err
}

// writeOptions is artifactOptions with what the repository's
// configuration says about writing the artifact folder.
func writeOptions(eng *engine.Engine) artifacts.Options {
	opts := artifactOptions()
	opts.CommitReviews = eng.Config().CommitsReviews()
	return opts
}

// artifactOptions describes this build and its rule catalog to the
// artifact writers.
func artifactOptions() artifacts.Options {
	return artifacts.Options{Tool: "reviewls", Version: version(), Rules: engine.Rules()}
}

// gates runs the project gates of res's review (--gates), saying on
// stderr why none runs when none is configured.
func gates(ctx context.Context, e *env, eng *engine.Engine, res *review.Result, showProgress bool) {
	g := res.ProjectGates
	switch {
	case g == nil:
		return
	case g.Withheld:
		return // tellWithheld said why, and how to trust the repository
	case len(g.Configured) == 0:
		fmt.Fprintf(e.stderr, "reviewls: --gates: no gates are configured (list the project's checks under gates: in %s, or in your configuration)\n", engine.ConfigFile)
		return
	}
	prog := startProgress(e.stderr, showProgress, "running the project gates")
	defer prog.Stop()
	eng.RunGates(ctx, res)
}

// tellWithheld says on stderr which settings of an untrusted repository's
// .reviewls.yaml the run did not honour, and how to allow them.
func tellWithheld(e *env, sc scope, res *review.Result) {
	if res.Withheld != "" {
		fmt.Fprintf(e.stderr, "reviewls: %s\n", sc.localize(res.Withheld))
	}
}

// linkRoot is the path from the current directory to the repository's
// root, as a markdown link prefix ("", "../", "repo/").
func linkRoot(root string) string {
	if rel := relativeTo(root)("."); rel != "." {
		return rel + "/"
	}
	return ""
}
