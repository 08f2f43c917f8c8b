package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The hint runner: every command the CLI prints as a hint ("run
// `reviewls review --base HEAD~3 --show-preexisting` to list it") must
// work as printed. Each reviewls run of a script suite looks for hints
// in what it printed and runs each one at once, in a copy of the
// script's work directory (the same repository state, and the same
// trusted repositories under HOME), and records the hints that failed;
// the script fails at its end when one did.

// hintLogEnv names the file the runs of a script record failed hints in.
const hintLogEnv = "REVIEWLS_TEST_HINT_LOG"

// A hint takes one form: "run `reviewls ...`". A command in single quotes
// is an older form, reported as such; one with <placeholders> is a
// template, no hint; a command in backquotes without "run" is a line to
// write somewhere (a hook script), no hint.
var (
	hintForm    = regexp.MustCompile("(?i)\\brun `(reviewls [^`\n]+)`")
	oldHintForm = regexp.MustCompile(`'(reviewls [^'\n]+)'`)
)

// preexistingListing is what a run that lists the pre-existing findings
// prints above them.
var preexistingListing = regexp.MustCompile(`(?m)^\d+ findings? on the changed lines (was|were) there before the change`)

// scriptReviewls is the reviewls command of the script suites: run, and
// with hintLogEnv set, the hints it printed tried.
func scriptReviewls() int {
	ctx := context.Background()
	log := os.Getenv(hintLogEnv)
	if log == "" || len(os.Args) > 1 && os.Args[1] == "serve" || traced() {
		return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	}
	var out bytes.Buffer
	code := run(ctx, os.Args[1:], os.Stdin, io.MultiWriter(os.Stdout, &out), io.MultiWriter(os.Stderr, &out))
	var failed []string
	for _, h := range findHints(out.String()) {
		if problem := tryHint(ctx, h); problem != "" {
			failed = append(failed, fmt.Sprintf("reviewls %s printed the hint `%s`, which %s", strings.Join(os.Args[1:], " "), h, problem))
		}
	}
	for _, h := range oldHints(out.String()) {
		failed = append(failed, fmt.Sprintf("reviewls %s printed the command '%s' in single quotes: a hint is in backquotes", strings.Join(os.Args[1:], " "), h))
	}
	if len(failed) > 0 {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, strings.Join(failed, "\n"))
			err = f.Close()
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "record failed hints: %v\n", err)
			return 99
		}
	}
	return code
}

// traced reports whether a tracer (strace, in the scripts that check what
// a run starts) follows this process: the hints tried here would be traced
// as the run's own processes, so they are not tried.
func traced() bool {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(status)) {
		if pid, ok := strings.CutPrefix(line, "TracerPid:"); ok {
			return strings.TrimSpace(pid) != "0"
		}
	}
	return false
}

// findHints returns the hints in out, each once.
func findHints(out string) []string {
	var hints []string
	for _, m := range hintForm.FindAllStringSubmatch(out, -1) {
		if !strings.Contains(m[1], "<") && !slices.Contains(hints, m[1]) {
			hints = append(hints, m[1])
		}
	}
	return hints
}

// oldHints returns the commands out prints in single quotes.
func oldHints(out string) []string {
	var hints []string
	for _, m := range oldHintForm.FindAllStringSubmatch(out, -1) {
		if !strings.Contains(m[1], "<") {
			hints = append(hints, m[1])
		}
	}
	return hints
}

// tryHint runs the hint in a copy of the script's work directory and
// says what is wrong with it, or "" when it worked: it must parse, not
// exit 2, find something to review, and do what its flags promise.
func tryHint(ctx context.Context, hint string) string {
	words, err := shellWords(hint)
	if err != nil {
		return "does not parse: " + err.Error()
	}
	work := os.Getenv("WORK")
	cwd, err := os.Getwd()
	if err != nil {
		return "could not be tried: " + err.Error()
	}
	rel, err := filepath.Rel(work, cwd)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "could not be tried: the run was outside $WORK"
	}
	snap, err := os.MkdirTemp(filepath.Dir(os.Getenv(hintLogEnv)), "hint-")
	if err != nil {
		return "could not be tried: " + err.Error()
	}
	defer os.RemoveAll(snap)
	if err := copyTree(work, snap); err != nil {
		return "could not be tried: copy the work directory: " + err.Error()
	}
	restore := moveEnv(work, snap)
	defer restore()
	if err := os.Chdir(filepath.Join(snap, rel)); err != nil {
		return "could not be tried: " + err.Error()
	}
	defer os.Chdir(cwd)

	var stdout, stderr bytes.Buffer
	code := run(ctx, words[1:], strings.NewReader(""), &stdout, &stderr)
	all := stdout.String() + stderr.String()
	switch {
	case code == exitUsage:
		return fmt.Sprintf("exits 2: %s", strings.TrimSpace(stderr.String()))
	case strings.Contains(all, "no changes to review"):
		return "finds no changes to review"
	case slices.Contains(words, "--show-preexisting") && !preexistingListing.MatchString(stdout.String()):
		return "lists no pre-existing finding:\n" + stdout.String()
	}
	return ""
}

// moveEnv points every environment variable whose value lies in from
// (HOME, TMPDIR, WORK) into to, and returns a function that restores
// them.
func moveEnv(from, to string) func() {
	saved := os.Environ()
	for _, kv := range saved {
		k, v, _ := strings.Cut(kv, "=")
		if v == from || strings.HasPrefix(v, from+string(filepath.Separator)) {
			os.Setenv(k, to+strings.TrimPrefix(v, from))
		}
	}
	return func() {
		os.Clearenv()
		for _, kv := range saved {
			k, v, _ := strings.Cut(kv, "=")
			os.Setenv(k, v)
		}
	}
}

// copyTree copies the directories, regular files and symbolic links under
// src to dst; anything else (a FIFO, a socket) is left out.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm()|0o700)
		case d.Type()&iofs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, info.Mode().Perm())
		}
		return nil
	})
}

// shellWords splits a command as a POSIX shell does for the quoting the
// CLI prints: words separated by spaces, single-quoted parts verbatim.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted, escaped := false, false, false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case !quoted && r == '\\':
			escaped, inWord = true, true
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.ContainsRune("\"$`;&|<>()*?[]", r):
			return nil, fmt.Errorf("unexpected %q", r)
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted || escaped {
		return nil, fmt.Errorf("unterminated quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// checkHints makes a script fail at its end when one of its runs printed
// a hint that did not work.
func checkHints(env *testscript.Env) error {
	t, ok := env.T().(testing.TB)
	if !ok {
		return fmt.Errorf("hint runner: the script's T is no testing.TB")
	}
	log := filepath.Join(t.TempDir(), "hints.log")
	env.Setenv(hintLogEnv, log)
	env.Defer(func() {
		data, err := os.ReadFile(log)
		if err == nil {
			t.Errorf("hints that do not work as printed:\n%s", data)
		}
	})
	return nil
}

func TestShellWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"reviewls review --base HEAD~3", []string{"reviewls", "review", "--base", "HEAD~3"}},
		{"reviewls review -C 'my repo' --staged", []string{"reviewls", "review", "-C", "my repo", "--staged"}},
		{`reviewls review -C 'it'\''s'`, []string{"reviewls", "review", "-C", "it's"}},
	} {
		got, err := shellWords(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
