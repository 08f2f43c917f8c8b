package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
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
	fmt.Fprintf(w, "Usage: reviewls <command> [flags] [args]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'reviewls <command> -h' for a command's flags.\n")
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
		return e.errorf("unknown command %q: did you mean %q? (run 'reviewls help' for the commands)", name, s)
	}
	return e.errorf("unknown command %q (run 'reviewls help' for the commands)", name)
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
	help := fmt.Sprintf("run 'reviewls %s -h' for its flags", fs.Name())
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
