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

// hookMarker identifies a pre-commit hook written by reviewls.
const hookMarker = "# reviewls pre-commit hook"

// hookScript returns the pre-commit hook. It prefers reviewls on PATH (so
// an upgrade takes effect) and falls back to the binary that installed it.
func hookScript(self string, failOn review.FailOn) string {
	args := "review --staged --hook --fail-on " + failOn.String()
	return fmt.Sprintf(`#!/bin/sh
%s (installed by 'reviewls hook install').
# Reviews the staged changes and blocks the commit when a finding reaches the
# fail-on threshold. Bypass once with 'git commit --no-verify'.
if command -v reviewls >/dev/null 2>&1; then
	exec reviewls %s
fi
exec %s %s
`, hookMarker, args, shellQuote(self), args)
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func runHook(_ context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: reviewls hook install|uninstall [flags] [PATH]\n\nInstalls (or removes) a git pre-commit hook that runs 'reviewls review --staged'\nin the repository that contains PATH (default: the current directory).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	force := fs.Bool("force", false, "replace (or remove) a pre-commit hook that reviewls did not install")
	failOn := fs.String("fail-on", "high", "severity that blocks the commit: critical, high, medium or low")
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 || len(pos) > 2 {
		fs.Usage()
		return exitUsage
	}
	action, dir := pos[0], "."
	if len(pos) == 2 {
		dir = pos[1]
	}
	threshold, err := review.ParseFailOn(*failOn)
	if err != nil || threshold.Never {
		return e.errorf("--fail-on: want critical, high, medium or low, got %q", *failOn)
	}
	repo, err := engine.OpenRepo(dir, engine.ProcessEnv())
	if err != nil {
		return e.errorf("%v", err)
	}
	hooks, err := repo.HooksDir()
	if err != nil {
		return e.errorf("%v", err)
	}
	path := filepath.Join(hooks, "pre-commit")
	existing, err := regular.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, iofs.ErrNotExist) {
		return e.errorf("read hook: %v", err)
	}
	ours := bytes.Contains(existing, []byte(hookMarker))

	switch action {
	case "install":
		if exists && !ours && !*force {
			return e.errorf("%s already exists and was not installed by reviewls; pass --force to replace it", path)
		}
		self, err := os.Executable()
		if err != nil {
			self = "reviewls"
		}
		if err := os.MkdirAll(hooks, 0o755); err != nil {
			return e.errorf("create hooks directory: %v", err)
		}
		if err := writeExecutable(path, []byte(hookScript(self, threshold))); err != nil {
			return e.errorf("write hook: %v", err)
		}
		fmt.Fprintf(e.stdout, "installed pre-commit hook: %s\n", artifacts.QuotePath(path))
	case "uninstall":
		switch {
		case !exists:
			fmt.Fprintf(e.stdout, "no pre-commit hook at %s\n", artifacts.QuotePath(path))
			return exitOK
		case !ours && !*force:
			return e.errorf("%s was not installed by reviewls; pass --force to remove it", path)
		}
		if err := os.Remove(path); err != nil {
			return e.errorf("remove hook: %v", err)
		}
		fmt.Fprintf(e.stdout, "removed pre-commit hook: %s\n", artifacts.QuotePath(path))
	default:
		return e.errorf("unknown hook action %q (want install or uninstall)", action)
	}
	return exitOK
}

// writeExecutable writes an executable file atomically.
func writeExecutable(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".pre-commit-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o755); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
