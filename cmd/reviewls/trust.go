package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review/engine"
)

// runTrust implements 'reviewls trust [-C DIR] [--revoke | --list]': the
// user's decision that a repository's .reviewls.yaml may use the settings
// that run tools, recorded with a hash of the file (see review/config).
func runTrust(_ context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("trust", flag.ContinueOnError)
	user := engine.UserDir(os.Getenv)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: reviewls trust [-C DIR] [--revoke | --list]

Trusts the repository that contains DIR (default: the current directory;
a last argument PATH names it as -C does) with its %[1]s as it is
now. A repository's %[1]s may tune rules, severities, ignores and
caps; the settings that run tools or send code anywhere are honoured only
from the command line, the editor, your own %[2]s,
or a repository you trusted:
  depth: comprehensive, analysis.budget  run the Go toolchain
  model                                  sends code to a model endpoint
  gates                                  runs project commands with --gates
A change to the file needs trusting again.

The trusted repositories are recorded, with the SHA-256 of their %[1]s,
in %[3]s.

Flags:
`, engine.ConfigFile, filepath.Join(displayDir(user), engine.UserConfigFile), filepath.Join(displayDir(user), engine.TrustFile))
		fs.PrintDefaults()
	}
	revoke := fs.Bool("revoke", false, "stop trusting the repository")
	list := fs.Bool("list", false, "list the trusted repositories and whether their configuration changed since")
	var sc scope
	dirFlag(fs, &sc.dir)
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	if code, ok := pathArg(e, "trust", &sc, pos); !ok {
		return code
	}
	switch {
	case *revoke && *list:
		return e.errorf("trust: --revoke and --list do not go together")
	case *list && sc.dir != ".":
		return e.errorf("trust --list takes no work tree")
	case user == "":
		return e.errorf("trust: no folder to record it in: set $HOME or $XDG_CONFIG_HOME")
	}
	if *list {
		return listTrusted(e, user)
	}
	repo, code := openRepo(e, sc.dir)
	if repo == nil {
		return code
	}
	root := repo.Root()
	repo.Close()
	if *revoke {
		was, err := engine.Revoke(user, root)
		if err != nil {
			return e.errorf("%v", err)
		}
		if !was {
			fmt.Fprintf(e.stdout, "reviewls: %s was not trusted\n", artifacts.QuotePath(root))
			return exitOK
		}
		fmt.Fprintf(e.stdout, "reviewls: %s is no longer trusted\n", artifacts.QuotePath(root))
		return exitOK
	}
	rec, allowed, err := engine.Trust(user, root)
	if err != nil {
		return e.errorf("trust: %v", err)
	}
	fmt.Fprintf(e.stdout, "reviewls: trusted %s with its %s (sha256 %s)\n", artifacts.QuotePath(rec.Root), engine.ConfigFile, rec.ConfigSHA256[:12])
	if len(allowed) > 0 {
		fmt.Fprintf(e.stdout, "reviewls: it may now use %s\n", strings.Join(allowed, " and "))
	}
	return exitOK
}

// listTrusted prints the trusted repositories, one a line, each with
// where it stands now.
func listTrusted(e *env, user string) int {
	repos, err := engine.TrustedRepos(user)
	if err != nil {
		return e.errorf("%v", err)
	}
	if len(repos) == 0 {
		fmt.Fprintln(e.stdout, "no trusted repositories")
		return exitOK
	}
	var b strings.Builder
	for _, r := range repos {
		state := "trusted"
		switch s, err := engine.StandingOf(user, r.Root); {
		case err != nil && errors.Is(err, os.ErrNotExist):
			state = "no longer there"
		case err != nil:
			state = "unreadable: " + err.Error()
		case s == engine.Changed:
			state = engine.ConfigFile + " changed since trusted"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", artifacts.QuotePath(r.Root), r.Trusted.Format("2006-01-02"), state)
	}
	fmt.Fprint(e.stdout, b.String())
	return exitOK
}

// displayDir is the user folder as help text shows it: "~/" for the home
// folder, and the default when there is none.
func displayDir(dir string) string {
	if dir == "" {
		return "~/.config/reviewls"
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rest, ok := strings.CutPrefix(dir, home+string(filepath.Separator)); ok {
			return "~/" + filepath.ToSlash(rest)
		}
	}
	return dir
}
