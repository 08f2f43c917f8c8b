package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// loopRun is an interactive review run for the loop commands, started from
// the branch's loop state on disk.
type loopRun struct {
	eng *engine.Engine
	res *review.Result
}

// openLoop reviews the target interactively, keeping the loop state
// (board ids, statuses, human choices) of the branch's last interactive
// review. It returns an exit code when it cannot. name and args are the
// command's, for the hint of an empty review.
func openLoop(ctx context.Context, e *env, lt scope, name string, args ...string) (*loopRun, int) {
	dir := lt.dir
	eng, code := openEngine(e, dir)
	if eng == nil {
		return nil, code
	}
	req := review.Request{Dir: dir, Staged: lt.staged, Base: lt.base, Mode: review.ModeInteractive}
	continueLoop(ctx, e, eng, &req, true)
	res, err := eng.Run(ctx, req)
	if err != nil {
		eng.Close()
		return nil, e.errorf("%v", err)
	}
	tellWithheld(e, lt, res)
	if res.ChangeSet.Empty() {
		hint := ""
		if lt.base == "" {
			if h := lastCommitHint(ctx, eng, lt, name, args...); h != "" {
				hint = "; to review the last commit, run " + h
			}
		}
		eng.Close()
		return nil, e.errorf("no changes to review (%s)%s", describeTarget(res.ChangeSet.Target), hint)
	}
	return &loopRun{eng: eng, res: res}, 0
}

// save syncs the loop into the result and writes the artifact folder.
func (lr *loopRun) save(e *env) int {
	lr.res.Loop = engine.SyncLoop(lr.res, lr.res.Loop)
	if _, err := artifacts.Write(lr.eng.Root(), lr.res, writeOptions(lr.eng)); err != nil {
		return e.errorf("%v", err)
	}
	return exitOK
}

// loopFlags parses the common flags of the loop commands: -C DIR (the
// work tree), the review target (--staged, --base REF) and logging.
func loopFlags(e *env, name, usage string, args []string) ([]string, scope, int, bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fmt.Fprint(fs.Output(), "\nFlags:\n")
		fs.PrintDefaults()
	}
	var lt scope
	dirFlag(fs, &lt.dir)
	targetFlags(fs, &lt, "the staged changes only (index vs HEAD), as reviewls review --staged",
		"the branch diff from merge-base(`REF`, HEAD) to the work tree, as reviewls review --base")
	setLogger := logFlags(fs)
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return nil, lt, code, false
	}
	if code, ok := lt.checkTarget(e); !ok {
		return nil, lt, code, false
	}
	setLogger(e)
	return pos, lt, 0, true
}

// confirmedLoop runs a command that takes no arguments and confirms the
// orientation (walkthrough, board): flags, review, confirm, save.
func confirmedLoop(ctx context.Context, e *env, name, usage string, args []string) (*loopRun, int) {
	pos, lt, code, ok := loopFlags(e, name, usage, args)
	if !ok {
		return nil, code
	}
	if len(pos) > 0 {
		return nil, e.errorf("%s takes no arguments", name)
	}
	lr, code := openLoop(ctx, e, lt, name)
	if lr == nil {
		return nil, code
	}
	engine.Confirm(lr.res.Loop)
	if code := lr.save(e); code != exitOK {
		lr.eng.Close()
		return nil, code
	}
	return lr, exitOK
}

func runWalkthrough(ctx context.Context, e *env, args []string) int {
	lr, code := confirmedLoop(ctx, e, "walkthrough", "Usage: reviewls walkthrough [-C DIR] [--staged | --base REF]\n\nPrints the factual walkthrough of the change (no grading) and writes walkthrough.md.\n", args)
	if lr == nil {
		return code
	}
	defer lr.eng.Close()
	e.stdout.Write(artifacts.TerminalLinks(lr.res.Redactor.Bytes(artifacts.WalkthroughMarkdown(lr.res))))
	return exitOK
}

func runBoard(ctx context.Context, e *env, args []string) int {
	lr, code := confirmedLoop(ctx, e, "board", "Usage: reviewls board [-C DIR] [--staged | --base REF]\n\nPrints the dispatch board (review areas, their status and preliminary signal)\nand writes dispatch-board.md.\n", args)
	if lr == nil {
		return code
	}
	defer lr.eng.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "phase: %s\n\n", lr.res.Phase)
	for _, it := range lr.res.Board {
		fmt.Fprintf(&b, "%-9s %-11s %s\n", it.ID, it.Status, it.Area)
		fmt.Fprintf(&b, "          %s\n", it.Summary)
		fmt.Fprintf(&b, "          %s\n", it.PreliminarySignal)
		if len(it.SelectableSymbols) > 0 {
			fmt.Fprintf(&b, "          symbols: %s\n", strings.Join(it.SelectableSymbols, ", "))
		}
	}
	fmt.Fprintf(&b, "\nboard: %s\n", relTo(lr.eng.Root(), filepath.Join(artifacts.Folder(lr.eng.Root(), lr.res.ChangeSet.Target), artifacts.FileBoard)))
	fmt.Fprint(e.stdout, artifacts.EscapeControls(lr.res.Redactor.String(b.String())))
	return exitOK
}

func runExplain(ctx context.Context, e *env, args []string) int {
	pos, lt, code, ok := loopFlags(e, "explain", "Usage: reviewls explain [-C DIR] [--staged | --base REF] FILE:LINE[:COL] | SYMBOL\n\nExplains a symbol of the change, factually: at a position of a changed file,\nor by name. Writes explanations/<item>-<symbol>.md.\n", args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return e.errorf("explain takes one FILE:LINE[:COL] or SYMBOL")
	}
	lr, code := openLoop(ctx, e, lt, "explain", pos...)
	if lr == nil {
		return code
	}
	defer lr.eng.Close()
	res := lr.res
	var ex *engine.Explanation
	var err error
	if file, line, col, isPos := parsePosition(pos[0]); isPos {
		rel, rerr := repoRelative(lr.eng.Root(), file)
		if rerr != nil {
			return e.errorf("%v", rerr)
		}
		ex, err = lr.eng.Explain(ctx, res, engine.ExplainRequest{Path: rel, Line: line, Col: col})
	} else {
		err = fmt.Errorf("%w: %q is not a changed symbol of any board item", engine.ErrSymbolNotFound, pos[0])
		for _, it := range res.Board {
			if ex, err = lr.eng.Explain(ctx, res, engine.ExplainRequest{Item: it.ID, Symbol: pos[0]}); err == nil {
				break
			}
		}
		if ex == nil {
			err = fmt.Errorf("%w: %q is not defined in the changed files of any board item", engine.ErrSymbolNotFound, pos[0])
		}
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	if ex.Item == "" {
		return e.errorf("%s is defined outside the change (%s:%d): it belongs to no board item", ex.Symbol, ex.Path, ex.Line)
	}
	rel := artifacts.ExplanationFile(ex.Item, ex.Symbol)
	path, err := artifacts.WriteExtra(lr.eng.Root(), res.ChangeSet.Target, rel, res.Redactor.Bytes([]byte(ex.Markdown)))
	if err != nil {
		return e.errorf("%v", err)
	}
	if _, err := engine.Explained(res.Loop, ex.Item, ex.Symbol, rel, ex.FollowOn); err != nil {
		return e.errorf("%v", err)
	}
	if code := lr.save(e); code != exitOK {
		return code
	}
	fmt.Fprint(e.stdout, terminal(res, ex.Markdown))
	fmt.Fprintf(e.stdout, "\nexplanation: %s\n", relTo(lr.eng.Root(), path))
	return exitOK
}

// parsePosition splits FILE:LINE[:COL]; col is 0 when not given.
func parsePosition(s string) (file string, line, col int, ok bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return "", 0, 0, false
	}
	line, err := strconv.Atoi(parts[1])
	if err != nil || line < 1 {
		return "", 0, 0, false
	}
	if len(parts) == 3 {
		if col, err = strconv.Atoi(parts[2]); err != nil || col < 1 {
			return "", 0, 0, false
		}
	}
	return parts[0], line, col, true
}

// repoRelative turns a path given on the command line (relative to the
// current directory) into a repo-relative slash path.
func repoRelative(root, file string) (string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the work tree %s", file, root)
	}
	return filepath.ToSlash(rel), nil
}

func runInvestigate(ctx context.Context, e *env, args []string) int {
	pos, lt, code, ok := loopFlags(e, "investigate", "Usage: reviewls investigate [-C DIR] [--staged | --base REF] ITEM \"question\"\n\nInvestigates a question about a board item: definitions, callers,\ntests, history of the touched lines, findings, and the lens's checklist.\nWrites the investigation into walkback/ in the artifact folder.\n", args)
	if !ok {
		return code
	}
	if len(pos) != 2 || strings.TrimSpace(pos[1]) == "" {
		return e.errorf("investigate takes ITEM and a question, e.g. reviewls investigate board-1 \"is the lock released on every path?\"")
	}
	lr, code := openLoop(ctx, e, lt, "investigate", pos...)
	if lr == nil {
		return code
	}
	defer lr.eng.Close()
	res := lr.res
	id, err := engine.NextInvestigation(res.Loop, pos[0])
	if err != nil {
		return e.errorf("%v", err)
	}
	inv, err := lr.eng.Investigate(ctx, res, pos[0], id, pos[1])
	if err != nil {
		return e.errorf("%v", err)
	}
	rel := artifacts.WalkbackFile(id)
	path, err := artifacts.WriteExtra(lr.eng.Root(), res.ChangeSet.Target, rel, res.Redactor.Bytes([]byte(inv.Markdown)))
	if err != nil {
		return e.errorf("%v", err)
	}
	if _, err := engine.Investigated(res.Loop, pos[0], id, pos[1], rel, inv.FollowOn); err != nil {
		return e.errorf("%v", err)
	}
	if code := lr.save(e); code != exitOK {
		return code
	}
	fmt.Fprint(e.stdout, terminal(res, inv.Markdown))
	fmt.Fprintf(e.stdout, "\ninvestigation %s: %s\n", id, relTo(lr.eng.Root(), path))
	return exitOK
}

// terminal readies an artifact's markdown for the terminal: redacted,
// control characters escaped, and links to the repository's files shown
// as the repository-relative path:line they name.
func terminal(res *review.Result, markdown string) string {
	return string(artifacts.TerminalLinks([]byte(artifacts.EscapeControls(res.Redactor.String(markdown)))))
}

// relTo returns path relative to root, quoted for the terminal.
func relTo(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil {
		path = rel
	}
	return artifacts.QuotePath(path)
}
