package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/internal/suggest"
)

// Exit codes, as gh and golangci-lint use them.
const (
	exitOK       = 0 // clean, or no changes
	exitFindings = 1 // findings at or above the fail-on threshold
	exitUsage    = 2 // bad usage or a runtime error (with a message)
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *env, args []string) int
}

// env carries the process's streams and logger to a subcommand.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	logger         *slog.Logger
}

// errorf prints a one-line error naming the problem and returns exitUsage.
func (e *env) errorf(format string, args ...any) int {
	// Errors quote paths and names: nothing in one may drive the terminal.
	fmt.Fprintln(e.stderr, artifacts.EscapeControls(fmt.Sprintf("reviewls: "+format, args...)))
	return exitUsage
}

func commands() []command {
	return []command{
		{"serve", "run the language server on stdin/stdout", runServe},
		{"review", "review the changes of a work tree and write the artifacts", runReview},
		{"walkthrough", "print the factual walkthrough of the change", runWalkthrough},
		{"board", "print the dispatch board of review areas", runBoard},
		{"explain", "explain a symbol of the change (FILE:LINE[:COL] or SYMBOL)", runExplain},
		{"investigate", "investigate a question about a board item", runInvestigate},
		{"rules", "list the rule catalog or show one rule", runRules},
		{"status", "list the changed paths a review would cover", runStatus},
		{"hook", "install or uninstall the git hooks (pre-commit, commit-msg)", runHook},
		{"baseline", "create, update or check the baseline of known findings", runBaseline},
		{"trust", "let a repository's configuration run tools (or --revoke, --list)", runTrust},
		{"validate", "validate an artifact folder against the JSON schemas", runValidate},
		{"version", "print the version", runVersion},
	}
}

func usage(w io.Writer) {
	cmds := commands()
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.name))
	}
	fmt.Fprintf(w, "Usage: reviewls <command> [flags] [args]\n\nCommands:\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprintf(w, "\nThe commands that work on a work tree take -C DIR: the work tree that\ncontains DIR (default: the current directory).\nRun `reviewls <command> -h` for a command's flags.\n")
}

// run is the testable main: it returns the exit code. Everything it
// writes passes the secret detector (see redactWriter), except the
// language server's stdout, whose messages the server redacts itself
// before framing them.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "serve" {
		stdout = redacting(stdout)
	}
	stderr = redacting(stderr)
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, logger: slog.New(slog.DiscardHandler)}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "help" {
		usage(stdout)
		return exitOK
	}
	var names []string
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, e, args[1:])
		}
		names = append(names, c.name)
	}
	if s := suggest.Closest(name, names); s != "" {
		return e.errorf("unknown command %q: did you mean %q? (run `reviewls help` for the commands)", name, s)
	}
	return e.errorf("unknown command %q (run `reviewls help` for the commands)", name)
}

// parseFlags parses fs over args, allowing flags after positional
// arguments ("reviewls review . --staged"). It returns the positional
// arguments, or an exit code when parsing stopped (help or an error).
func parseFlags(e *env, fs *flag.FlagSet, args []string) ([]string, int, bool) {
	// Help goes to stdout, as gh and git print it: asked for, it is the
	// output. Errors are one line on stderr with a suggestion, not the
	// whole usage.
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(e.stdout)
				fs.Usage()
				return nil, exitOK, false
			}
			return nil, flagError(e, fs, err), false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, 0, true
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagError reports a flag that did not parse: an unknown one with the
// closest defined flag, a bad value with the flag's own message.
func flagError(e *env, fs *flag.FlagSet, err error) int {
	help := fmt.Sprintf("run %s for its flags", artifacts.Hint(fs.Name(), "-h"))
	const unknown = "flag provided but not defined: -"
	if name, ok := strings.CutPrefix(err.Error(), unknown); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if s := suggest.Closest(strings.TrimPrefix(name, "-"), names); s != "" {
			return e.errorf("%s: unknown flag -%s: did you mean --%s? (%s)", fs.Name(), name, s, help)
		}
		return e.errorf("%s: unknown flag -%s (%s)", fs.Name(), name, help)
	}
	return e.errorf("%s: %v (%s)", fs.Name(), err, help)
}

// logFlags adds -v and --log-level to fs and returns a function that builds
// the logger they select (a text handler on stderr).
func logFlags(fs *flag.FlagSet) func(e *env) {
	verbose := fs.Bool("v", false, "verbose: log at debug level to stderr")
	level := fs.String("log-level", "warn", "log level on stderr: debug, info, warn or error")
	return func(e *env) {
		var l slog.Level
		if err := l.UnmarshalText([]byte(strings.ToUpper(*level))); err != nil {
			l = slog.LevelWarn
		}
		if *verbose {
			l = slog.LevelDebug
		}
		e.logger = slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: l}))
	}
}

// scope is what a command works on: the work tree that contains dir
// (-C DIR) and, for the commands that review, the target: the local
// changes, only the staged ones, or the branch from its merge-base with
// base, and the flags that select what the review checks (--profile,
// --perspectives, --depth). Its hints repeat it, so that they work as
// printed.
type scope struct {
	dir    string
	staged bool
	base   string
	flags  []string
}

// dirFlag adds -C DIR to fs, the one way every command that works on a
// work tree names it (as git -C does).
func dirFlag(fs *flag.FlagSet, dir *string) {
	fs.StringVar(dir, "C", ".", "work on the work tree that contains `DIR`")
}

// targetFlags adds --staged and --base REF to fs; checkTarget checks
// them once parsed.
func targetFlags(fs *flag.FlagSet, s *scope, staged, base string) {
	fs.BoolVar(&s.staged, "staged", false, staged)
	fs.StringVar(&s.base, "base", "", base)
}

// checkTarget refuses a target given both ways, --staged and --base, and
// returns the exit code when it does.
func (s scope) checkTarget(e *env) (int, bool) {
	if s.staged && s.base != "" {
		return e.errorf("--staged and --base cannot be combined: a staged review is always against HEAD"), false
	}
	return 0, true
}

// pathArg takes a trailing PATH argument of the commands that took one
// before -C (review, status, hook, baseline, trust): it names the work
// tree as -C does. It returns an exit code when both name one.
func pathArg(e *env, name string, s *scope, pos []string) (int, bool) {
	switch {
	case len(pos) > 1:
		return e.errorf("%s takes at most one PATH, got %d", name, len(pos)), false
	case len(pos) == 0:
		return 0, true
	case s.dir != "." && s.dir != pos[0]:
		return e.errorf("%s: -C %s and the PATH %s name two work trees; give one", name, s.dir, pos[0]), false
	}
	s.dir = pos[0]
	return 0, true
}

// args returns the arguments that run the command name on the same work
// tree (and target, with target set), with extra ones.
func (s scope) args(name string, target bool, extra ...string) []string {
	args := strings.Fields(name)
	if s.dir != "." && s.dir != "" {
		args = append(args, "-C", s.dir)
	}
	if target {
		if s.staged {
			args = append(args, "--staged")
		}
		if s.base != "" {
			args = append(args, "--base", s.base)
		}
		args = append(args, s.flags...)
	}
	return append(args, extra...)
}

// hint renders the command that runs name on the same work tree and
// target, with extra arguments, as a hint.
func (s scope) hint(name string, extra ...string) string {
	return artifacts.Hint(s.args(name, true, extra...)...)
}

// dirHint is hint for a command that takes no target (trust, baseline).
func (s scope) dirHint(name string, extra ...string) string {
	return artifacts.Hint(s.args(name, false, extra...)...)
}

// again returns the hint that repeats the command name with more
// arguments, for the renderers that add them.
func (s scope) again(name string) func(extra ...string) string {
	return func(extra ...string) string { return s.hint(name, extra...) }
}

// hintCommand matches a hint to a command that takes -C, as the engine
// words them for the current directory ("run `reviewls trust` to allow
// it").
var hintCommand = regexp.MustCompile("`reviewls (review|status|board|walkthrough|explain|investigate|baseline [a-z]+|hook [a-z]+|trust|validate)\\b")

// localize makes the hints of a message from the engine name the work
// tree the command ran on, when it is not the current directory.
func (s scope) localize(msg string) string {
	if s.dir == "." || s.dir == "" {
		return msg
	}
	return hintCommand.ReplaceAllStringFunc(msg, func(h string) string {
		return h + " -C " + artifacts.ShellWord(s.dir)
	})
}
