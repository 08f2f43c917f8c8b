package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// gitHook is a git hook reviewls installs: the file name git runs, the
// marker line that says reviewls wrote it, and its script.
type gitHook struct {
	name   string
	marker string
	// what says what the hook does, in the script's comment.
	what string
	// args are the reviewls arguments, "$1" (the hook's first argument)
	// included where git passes one.
	args string
}

// line is the line that runs the hook from another hook script, as a
// message shows it.
func (h gitHook) line() string {
	return "`reviewls " + h.args + " || exit 1`"
}

// gitHooks returns the hooks 'reviewls hook install' writes.
func gitHooks(failOn review.FailOn) []gitHook {
	return []gitHook{
		{
			name: "pre-commit", marker: "# reviewls pre-commit hook",
			what: "Reviews the staged changes and blocks the commit when a finding reaches the\n# fail-on threshold.",
			args: "review --staged --hook --fail-on " + failOn.String(),
		},
		{
			name: "commit-msg", marker: "# reviewls commit-msg hook",
			what: "Blocks the commit when its message holds a secret.",
			args: `hook commit-msg "$1"`,
		},
	}
}

// script returns the hook's script. It prefers reviewls on PATH (so an
// upgrade takes effect) and falls back to the binary that installed it.
func (h gitHook) script(self string) string {
	return fmt.Sprintf(`#!/bin/sh
%s (installed by 'reviewls hook install').
# %s Bypass once with 'git commit --no-verify'.
if command -v reviewls >/dev/null 2>&1; then
	exec reviewls %s
fi
exec %s %s
`, h.marker, h.what, h.args, shellQuote(self), h.args)
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// runHook implements 'reviewls hook install|uninstall [-C DIR]', which
// manage the pre-commit and commit-msg hooks, and 'reviewls hook
// commit-msg FILE', which the commit-msg hook runs.
func runHook(_ context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: reviewls hook install|uninstall [-C DIR] [flags]
       reviewls hook commit-msg FILE

install (or uninstall) writes (or removes) two git hooks in the repository
that contains DIR (default: the current directory; a last argument PATH
names it as -C does): pre-commit, which runs reviewls review --staged and
blocks a commit that reaches --fail-on, and commit-msg, which blocks a
commit whose message holds a secret.

commit-msg is what the commit-msg hook runs: it exits 1, naming each secret
redacted, when the message in FILE holds one in a line git keeps (comment
lines count unless git strips them: it does when it opened an editor).

Flags:
`)
		fs.PrintDefaults()
	}
	force := fs.Bool("force", false, "replace (or remove) hooks that reviewls did not install")
	failOn := fs.String("fail-on", "high", "severity that blocks the commit: critical, high, medium or low")
	var sc scope
	dirFlag(fs, &sc.dir)
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 || len(pos) > 2 {
		fs.Usage()
		return exitUsage
	}
	action := pos[0]
	if action == "commit-msg" {
		if len(pos) != 2 {
			return e.errorf("hook commit-msg takes the commit message FILE git passes to the hook")
		}
		return commitMsg(e, pos[1])
	}
	if code, ok := pathArg(e, "hook "+action, &sc, pos[1:]); !ok {
		return code
	}
	if action != "install" && action != "uninstall" {
		return e.errorf("unknown hook action %q (want install, uninstall or commit-msg)", action)
	}
	threshold, err := review.ParseFailOn(*failOn)
	if err != nil || threshold.Never {
		return e.errorf("--fail-on: want critical, high, medium or low, got %q", *failOn)
	}
	repo, err := engine.OpenRepo(sc.dir, engine.ProcessEnv())
	if err != nil {
		return e.errorf("%v", err)
	}
	hooks, err := repo.HooksDir()
	if err != nil {
		return e.errorf("%v", err)
	}
	// Every hook is checked before any is written or removed: a refusal
	// leaves the hooks directory as it was.
	type state struct {
		gitHook
		path         string
		exists, ours bool
	}
	var states []state
	for _, h := range gitHooks(threshold) {
		st := state{gitHook: h, path: filepath.Join(hooks, h.name)}
		existing, err := regular.ReadFile(st.path)
		st.exists = err == nil
		if err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return e.errorf("read hook: %v", err)
		}
		st.ours = bytes.Contains(existing, []byte(h.marker))
		if st.exists && !st.ours && !*force {
			if action == "install" {
				return e.errorf("%s already exists and was not installed by reviewls; pass --force to replace it, or add %s to it", st.path, st.line())
			}
			return e.errorf("%s was not installed by reviewls; pass --force to remove it", st.path)
		}
		states = append(states, st)
	}

	if action == "install" {
		self, err := os.Executable()
		if err != nil {
			self = "reviewls"
		}
		if err := os.MkdirAll(hooks, 0o755); err != nil {
			return e.errorf("create hooks directory: %v", err)
		}
		for _, st := range states {
			if err := regular.WriteFile(st.path, []byte(st.script(self)), 0o755); err != nil {
				return e.errorf("write hook: %v", err)
			}
			fmt.Fprintf(e.stdout, "installed %s hook: %s\n", st.name, artifacts.QuotePath(st.path))
		}
		return exitOK
	}
	for _, st := range states {
		if !st.exists {
			fmt.Fprintf(e.stdout, "no %s hook at %s\n", st.name, artifacts.QuotePath(st.path))
			continue
		}
		if err := os.Remove(st.path); err != nil {
			return e.errorf("remove hook: %v", err)
		}
		fmt.Fprintf(e.stdout, "removed %s hook: %s\n", st.name, artifacts.QuotePath(st.path))
	}
	return exitOK
}

// commitMsg checks the commit message in file for secrets, as the
// commit-msg hook: exit 1, naming each secret redacted and how to go on,
// when a line git keeps holds one.
func commitMsg(e *env, file string) int {
	data, err := regular.ReadFile(file)
	if err != nil {
		return e.errorf("read commit message: %v", err)
	}
	// git runs the hook with GIT_EDITOR=: when it opened no editor.
	c := engine.MessageCleanup{Edited: os.Getenv("GIT_EDITOR") != ":", Comment: "#"}
	if repo, err := engine.OpenRepo(".", engine.ProcessEnv()); err == nil {
		if comment, mode, err := repo.MessageCleanup(); err == nil {
			c.Comment, c.Mode = comment, mode
		}
	}
	found := engine.MessageSecrets(string(data), c)
	if len(found) == 0 {
		return exitOK
	}
	var b strings.Builder
	fmt.Fprintf(&b, "reviewls: commit blocked: the commit message holds %s:\n", plural(len(found), "secret"))
	for _, s := range found {
		fmt.Fprintf(&b, "  line %d: %s\n", s.Line, review.Redact(s.Value))
	}
	them, rotate := "the secret", "rotate it if it is live"
	if len(found) > 1 {
		them, rotate = "the secrets", "rotate each one that is live"
	}
	fmt.Fprintf(&b, "  A message is copied to every clone and never leaves the history: edit %s out\n"+
		"  (git commit -e -F %s starts from this message) and %s.\n"+
		"  To commit anyway, once: git commit --no-verify\n", them, shellQuote(file), rotate)
	fmt.Fprint(e.stderr, b.String())
	return exitFindings
}
