package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// canaries are distinct, realistic secrets, one in each place a secret can
// reach reviewls from. None may leave the process raw.
var canaries = []struct{ where, value string }{
	{"added line", "AKIA5XRILAV5FVCYK43K"},
	{"removed line", "ghp_WLm52mva5fiI6bGfKFI6mAezmOWfSLjl8MU9"},
	{"context line", "xoxb-867539163168-585242400242-hMjaddCnYysNa9ZwsjEJri9f"},
	{"untracked file", "sk_live_VJsSheACjTJWYyL4ZkQTrXM4"},
	{"staged version of a staged-then-edited file", "glpat-MFwg7drHilZO0fkXYo2a"},
	{"work tree version of a staged-then-edited file", "npm_mlEDLJIyflJEL8qIe8PbLL4BItHHIP6Ye4PK"},
	{"file name", "AIzaMiCrnm_6h_gdVF6DV-Fekg00ikyexkidT88"},
	{"branch name", "ghp_cdrJRM2jVrVKch3Tz85pkNGcVx2RHLKXSf3w"},
	{"commit message", "ASIAKPDHIEYGSNO2FRNZ"},
	{"URL password", "Zq8vN3xR7tK2mW9p"},
	{"workspace folder name", "ASIARVCMA2DY7IBP3HAH"},
	{"file name after an underscore", "ghp_Qm3Rt8Yp2Wx7Zk4Lv9Nb6Hc1Jd5Fg0SaEuTo"},
	{"INI key = value", "Vq7#pL2m!xR9Kzw"},
	{"notebook cell", "u8Rk2Wq9Zt4Mx7Lp3Vn6Bc1Yh5Js0Dg"},
	{"XML element", "Hq4!zT8#wK2mP9vL"},
	{".npmrc token", "Lz5Xc8Vb2Nm7Qw4Er9Ty1Ui6Op3As0Df"},
	{"file the review skips", "ghp_Hk3Jm8Np2Qr7St4Uv9Wx1Yz6Ab5Cd0EfGhTu"},
}

func canary(where string) string {
	for _, c := range canaries {
		if c.where == where {
			return c.value
		}
	}
	panic("no canary for " + where)
}

// output is one captured output of the CLI or the server.
type output struct {
	name string
	data []byte
}

// TestCanarySecrets plants one secret in every location — added, removed
// and context lines, an untracked file, a staged-then-edited file (both
// versions), a file name, the branch name, a commit message, a URL
// password, a workspace folder name — and greps every output of the CLI
// and of the server for each raw value: every --format of review (local,
// staged, branch diff, interactive), status, board, walkthrough, explain,
// investigate, validate, the pre-commit hook, each with --log-level debug
// where the command has it; every artifact file and its path; and every
// byte `reviewls serve --log-level debug` sends over stdio (diagnostics,
// hover, code actions, command results, reviewls/didReview, logMessage,
// showMessage, error responses) and its stderr.
func TestCanarySecrets(t *testing.T) {
	bin := buildBinary(t)
	dir := canaryRepo(t)
	var outs []output
	add := func(name string, data []byte) { outs = append(outs, output{name, data}) }

	// Every artifact, by content and by path, as the last command left
	// them: each review rewrites the folder and pr-reference.xml.
	artifacts := func(after string) {
		t.Helper()
		err := filepath.WalkDir(filepath.Join(dir, ".copilot-tracking"), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			add("artifact path "+rel+" after "+after, []byte(rel))
			if d.Type().IsRegular() {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				add("artifact "+rel+" after "+after, data)
			}
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}

	// The CLI.
	run := func(wantCode func(int) bool, args ...string) {
		t.Helper()
		stdout, stderr, code := runBin(t, bin, dir, args...)
		name := "reviewls " + strings.Join(args, " ")
		if !wantCode(code) {
			t.Errorf("%s: exit %d\n%s", name, code, redactedForLog(stderr))
		}
		add(name+" (stdout)", stdout)
		add(name+" (stderr)", stderr)
		artifacts(name)
	}
	cli := func(args ...string) { t.Helper(); run(func(c int) bool { return c == 0 || c == 1 }, args...) }
	failing := func(args ...string) { t.Helper(); run(func(c int) bool { return c == 2 }, args...) }
	debug := []string{"--log-level", "debug"}
	for _, target := range [][]string{{}, {"--staged"}, {"--base", "main"}} {
		for _, format := range formats {
			cli(append(append([]string{"review", "--format", format}, target...), debug...)...)
		}
		cli(append(append([]string{"review", "--mode", "interactive"}, target...), debug...)...)
		cli(append([]string{"status"}, target...)...)
	}
	cli(append([]string{"review", "-v"}, "--no-artifacts")...)
	cli(append([]string{"board"}, debug...)...)
	cli(append([]string{"walkthrough"}, debug...)...)
	cli(append([]string{"explain", "Config"}, debug...)...)
	cli(append([]string{"explain", "app.go:4:6"}, debug...)...)
	failing(append([]string{"explain", "keys/" + canary("file name") + ".txt:1:1"}, debug...)...) // an error naming the file
	cli(append([]string{"investigate", "board-1", "where did the region come from?"}, debug...)...)
	cli("validate")
	cli("hook", "install")
	hookOut, err := commitWithHook(t, dir)
	if err == nil {
		t.Error("the pre-commit hook let the staged secret into a commit")
	}
	add("git commit (pre-commit hook output)", hookOut)
	cli("hook", "uninstall")

	// The server, over the real binary's stdio.
	wire, stderr := &lockedBuffer{}, &lockedBuffer{}
	notRepo := filepath.Join(t.TempDir(), canary("workspace folder name"))
	if err := os.Mkdir(notRepo, 0o755); err != nil {
		t.Fatal(err)
	}
	serveCanary(t, dir, notRepo, lsptest.Config{
		Command: []string{bin, "serve", "--log-level", "debug", "--quiet", "1ms"},
		Folders: []string{dir, notRepo},
		Stderr:  stderr,
		Wire:    wire,
	})
	add("reviewls serve (every message sent)", wire.Bytes())
	add("reviewls serve (stderr)", stderr.Bytes())
	artifacts("reviewls serve")

	for _, o := range outs {
		for _, c := range canaries {
			if bytes.Contains(o.data, []byte(c.value)) {
				t.Errorf("%s holds the %s secret raw (%s)", o.name, c.where, review.Redact(c.value))
			}
		}
	}

	// The outputs did see the secrets: each shows up redacted somewhere,
	// so the test cannot pass by reviewing nothing.
	all := func(filter string) []byte {
		var b bytes.Buffer
		for _, o := range outs {
			if strings.Contains(o.name, filter) {
				b.Write(o.data)
			}
		}
		return b.Bytes()
	}
	for _, tc := range []struct{ filter, where string }{
		{"", "added line"}, {"", "removed line"}, {"", "context line"}, {"", "untracked file"},
		{"", "staged version of a staged-then-edited file"}, {"", "work tree version of a staged-then-edited file"},
		{"", "file name"}, {"", "branch name"}, {"pr-reference.xml", "commit message"}, {"", "URL password"},
		{"", "file name after an underscore"}, {"", "INI key = value"}, {"", "notebook cell"}, {"", "XML element"},
		{"", ".npmrc token"}, {"", "file the review skips"},
		{"reviewls serve (every message sent)", "workspace folder name"},
		{"reviewls serve (every message sent)", "added line"},
		{"reviewls serve (every message sent)", "file name"},
		{"git commit", "staged version of a staged-then-edited file"},
	} {
		if !bytes.Contains(all(tc.filter), []byte(review.Redact(canary(tc.where)))) {
			t.Errorf("no output matching %q shows the %s secret redacted (%s): was it reviewed?", tc.filter, tc.where, review.Redact(canary(tc.where)))
		}
	}
	if n := len(outs); n < 60 {
		t.Errorf("only %d outputs captured", n)
	}
}

// canaryRepo builds the repository: main holds the base, the checked-out
// branch (its name holds a secret) adds a commit whose message holds one,
// and the work tree and index hold the rest.
func canaryRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) { reviewtest.Git(t, dir, args...) }
	write := func(p, content string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	config := func(region, legacy, extra string) string {
		return "package app\n\n// Config returns the service settings.\nfunc Config() map[string]string {\n\treturn map[string]string{\n" +
			legacy + "\t\t\"slack\":  \"" + canary("context line") + "\",\n\t\t\"region\": \"" + region + "\",\n" + extra + "\t}\n}\n"
	}
	legacy := "\t\t\"legacy\": \"" + canary("removed line") + "\",\n"

	git("init", "-q", "-b", "main")
	write("go.mod", "module example.com/app\n\ngo 1.22\n")
	write("app.go", config("us-east-1", legacy, ""))
	write("config.yaml", "name: app\n")
	write("s.py", "print(\"hi\")\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")

	// A token after an underscore is still a token, in a branch name as
	// in a file name.
	git("checkout", "-q", "-b", "feature/wip_"+canary("branch name"))
	write("app.go", config("eu-west-1", legacy, ""))
	git("commit", "-q", "-am", "rotate "+canary("commit message")+" and move to eu-west-1")

	write("app.go", config("eu-central-1", "", "\t\t\"aws\":    \""+canary("added line")+"\",\n"))
	write("config.yaml", "name: app\nremote: https://deploy:"+canary("URL password")+"@git.acme-corp.net/app.git\n")
	write("billing.js", "export const stripeKey = \""+canary("untracked file")+"\";\n")
	write("keys/"+canary("file name")+".txt", "rotated\n")
	write("keys/old_"+canary("file name after an underscore")+".txt", "rotated\n")
	write("deploy/app.ini", "[db]\npassword = "+canary("INI key = value")+"\n")
	write("nb.ipynb", "{\n \"cells\": [\n  {\n   \"cell_type\": \"code\",\n   \"source\": [\n    \"API_TOKEN = \\\""+canary("notebook cell")+"\\\"\\n\"\n   ]\n  }\n ]\n}\n")
	write("deploy/settings.xml", "<settings>\n  <password>"+canary("XML element")+"</password>\n</settings>\n")
	write(".npmrc", "//registry.acme-corp.net/:_authToken="+canary(".npmrc token")+"\n")
	write("bin/deploy.sh", "#!/bin/sh\nexport GITHUB_TOKEN="+canary("file the review skips")+"\n")
	write("s.py", "TOKEN = \""+canary("staged version of a staged-then-edited file")+"\"\nprint(\"hi\")\n")
	git("add", "s.py")
	write("s.py", "TOKEN = \""+canary("work tree version of a staged-then-edited file")+"\"\nprint(\"hi\")\n")
	return dir
}

// serveCanary drives the server through everything that sends text:
// diagnostics of every open file, hover and code actions on each of them,
// every command, an error response, a workspace folder that is not a
// repository (showMessage, logMessage), and reviews of the branch diff
// and of the staged changes.
func serveCanary(t *testing.T, dir, notRepo string, cfg lsptest.Config) {
	env := lsptest.New(t, dir, cfg)
	files := []string{"app.go", "config.yaml", "billing.js", "s.py", "keys/" + canary("file name") + ".txt"}
	for _, f := range files {
		env.OpenFile(f)
	}
	env.Await(
		lsptest.DiagnosticsAt("app.go", 1, lsptest.WithCode("security/hardcoded-secret")),
		lsptest.DiagnosticsAt("config.yaml", 1, lsptest.WithCode("security/generic-secret")),
		lsptest.MessageContaining("not a git repository"),
	)
	for _, f := range files {
		for _, d := range env.Client.Diagnostics(env.URI(f)) {
			env.Hover(f, d.Range.Start)
			env.CodeActions(f, d.Range)
		}
		env.CodeActions(f, protocol.Range{End: protocol.Position{Line: 3}})
	}
	app := env.URI("app.go")
	commands := []struct {
		name    string
		arg     any
		wantErr bool
	}{
		{"reviewls.review", nil, false},
		{"reviewls.walkthrough", nil, false},
		{"reviewls.board", nil, false},
		{"reviewls.explain", map[string]any{"uri": app, "position": protocol.Position{Line: 3, Character: 5}}, false},
		{"reviewls.explain", map[string]any{"item": "board-1", "symbol": "Config"}, false},
		{"reviewls.investigate", map[string]any{"item": "board-1", "question": "where did the region come from?"}, false},
		{"reviewls.bookmark", map[string]any{"item": "board-1", "question": "is the key rotated?"}, false},
		{"reviewls.selectPerspectives", map[string]any{"perspectives": []string{"functional", "security", "readiness"}}, false},
		{"reviewls.setDepth", map[string]any{"depth": "standard", "rationale": "canary"}, false},
		{"reviewls.sweep", nil, false},
		{"reviewls.emit", map[string]any{"confirm": false}, false},
		// An error naming the file whose name holds a secret.
		{"reviewls.explain", map[string]any{"uri": env.URI(files[4]), "position": protocol.Position{}}, true},
	}
	for _, c := range commands {
		var args []any
		if c.arg != nil {
			args = []any{c.arg}
		}
		var out json.RawMessage
		if err := env.ExecuteCommand(c.name, &out, args...); (err != nil) != c.wantErr {
			t.Errorf("%s %v: error %v, want an error: %v", c.name, c.arg, err, c.wantErr)
		}
	}
	for _, settings := range []map[string]any{{"base": "main"}, {"scope": "staged"}} {
		if err := env.Server.DidChangeConfiguration(env.Ctx, &protocol.DidChangeConfigurationParams{Settings: map[string]any{"reviewls": settings}}); err != nil {
			t.Fatal(err)
		}
		var sum map[string]any
		if err := env.ExecuteCommand("reviewls.review", &sum); err != nil {
			t.Fatalf("review with %v: %v", settings, err)
		}
		env.ExecuteCommand("reviewls.board", nil)
	}
	env.Shutdown()
}

// runBin runs the binary in dir and returns its output and exit code.
func runBin(t *testing.T, bin, dir string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("run %s: %v", strings.Join(args, " "), err)
	}
	return out.Bytes(), errOut.Bytes(), code
}

// commitWithHook runs git commit so that the installed pre-commit hook
// reviews the staged changes, and returns what git printed.
func commitWithHook(t *testing.T, dir string) ([]byte, error) {
	cmd := exec.Command("git", "commit", "-q", "-m", "stage the token")
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=canary", "GIT_AUTHOR_EMAIL=canary@example.com",
		"GIT_COMMITTER_NAME=canary", "GIT_COMMITTER_EMAIL=canary@example.com")
	return cmd.CombinedOutput()
}

// redactedForLog hides the canaries in text a failing test prints.
func redactedForLog(b []byte) string {
	s := string(b)
	for _, c := range canaries {
		s = strings.ReplaceAll(s, c.value, fmt.Sprintf("<%s canary>", c.where))
	}
	return s
}

// lockedBuffer is a bytes.Buffer safe for concurrent writers and readers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}
