package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["unprivileged"] = cmdUnprivileged
}

// nobody is the uid and gid reviewls runs as when the tests run as root.
const nobody = "65534"

// cmdUnprivileged runs reviewls as a user without special permissions, so
// that file permissions apply: as nobody (through setpriv) when the tests
// run as root, as the current user otherwise. The binary is a copy of the
// test binary that any user can execute, and $WORK and its parent are
// made searchable by others, which nobody needs to reach the repository.
//
//	unprivileged reviewls args...
func cmdUnprivileged(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || args[0] != "reviewls" {
		ts.Fatalf("usage: unprivileged reviewls args...")
	}
	bin := filepath.Join(ts.Getenv("WORK"), ".unprivileged", "reviewls")
	if _, err := os.Stat(bin); err != nil {
		ts.Check(copyExecutable(bin))
	}
	name, argv := bin, args[1:]
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			ts.Fatalf("running as root and setpriv is not installed: cannot run reviewls as another user")
		}
		work := ts.Getenv("WORK")
		for _, d := range []string{work, filepath.Dir(work)} {
			fi, err := os.Stat(d)
			ts.Check(err)
			ts.Check(os.Chmod(d, fi.Mode().Perm()|0o011))
		}
		for d := filepath.Dir(filepath.Dir(work)); ; d = filepath.Dir(d) {
			fi, err := os.Stat(d)
			ts.Check(err)
			if fi.Mode().Perm()&0o001 == 0 {
				ts.Fatalf("%s is not searchable by other users: nobody cannot reach $WORK", d)
			}
			if d == filepath.Dir(d) {
				break
			}
		}
		name, argv = setpriv, append([]string{"--reuid=" + nobody, "--regid=" + nobody, "--clear-groups", bin}, argv...)
	}
	// Another user cannot copy the work directory to try the run's
	// hints in: the hint runner sits this run out.
	log := ts.Getenv(hintLogEnv)
	ts.Setenv(hintLogEnv, "")
	err := ts.Exec(name, argv...)
	ts.Setenv(hintLogEnv, log)
	switch {
	case err == nil && neg:
		ts.Fatalf("unexpected command success")
	case err != nil && !neg:
		ts.Fatalf("unexpected command failure: %v", err)
	}
}

// copyExecutable copies the running test binary, which runs reviewls's
// main when called "reviewls", to path, executable by anyone.
func copyExecutable(path string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	in, err := os.Open(self)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
