package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in test scripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"reviewls": func() { os.Exit(scriptReviewls()) },
	})
}

// TestScripts drives the real binary through the scripts in
// testdata/script against real git repositories built by each script.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/script"))
}

// TestMatrix runs the bad-input and fault matrix in testdata/matrix: odd
// files and names, git layouts and configurations, hostile input, each
// case a script driving the real binary. Cases that need a helper command
// register it in matrixCmds from their own file.
func TestMatrix(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/matrix"))
}

// matrixCmds holds the custom script commands beyond the shared ones;
// files of this package add to it in init functions.
var matrixCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}

// scriptParams is the shared set-up of every script suite: a private
// HOME, no system git config, a fixed author and clock.
func scriptParams(dir string) testscript.Params {
	cmds := map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"nosecret": cmdNoSecret,
	}
	for name, cmd := range matrixCmds {
		cmds[name] = cmd
	}
	return testscript.Params{
		Dir:           dir,
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, ".home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			for _, kv := range [][2]string{
				{"HOME", home},
				{"XDG_CONFIG_HOME", filepath.Join(home, ".config")},
				{"GIT_CONFIG_NOSYSTEM", "1"},
				{"GIT_AUTHOR_NAME", "Test Author"},
				{"GIT_AUTHOR_EMAIL", "author@example.com"},
				{"GIT_COMMITTER_NAME", "Test Author"},
				{"GIT_COMMITTER_EMAIL", "author@example.com"},
				{"GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"},
				{"GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"},
			} {
				env.Setenv(kv[0], kv[1])
			}
			return checkHints(env)
		},
		Cmds: cmds,
	}
}

// cmdNoSecret fails when any file under the given paths (or stdout/stderr
// of the last command, named "stdout"/"stderr") contains the value.
//
//	nosecret value path...
func cmdNoSecret(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: nosecret value path...")
	}
	value := args[0]
	check := func(name, content string) {
		if strings.Contains(content, value) {
			ts.Fatalf("%s contains the secret value", name)
		}
	}
	for _, p := range args[1:] {
		if p == "stdout" || p == "stderr" {
			check(p, ts.ReadFile(p))
			continue
		}
		root := ts.MkAbs(p)
		n := 0
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			n++
			check(path, string(data))
			return nil
		})
		ts.Check(err)
		if n == 0 {
			ts.Fatalf("nosecret: no files under %s", p)
		}
	}
}
