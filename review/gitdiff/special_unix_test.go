//go:build unix

package gitdiff

import (
	"net"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSpecialFiles puts a named pipe and a socket in the work tree, and a
// pipe in place of a tracked file: Scan and Refresh both list each as
// skipped with its kind, and neither opens one (a pipe would block).
func TestSpecialFiles(t *testing.T) {
	dir := refreshRepo(t)
	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "")
	prev := scan(t, r, tg, nil)

	remove(t, dir, "clean.go")
	for _, p := range []string{"clean.go", "new.pipe", "x.log"} {
		if err := syscall.Mkfifo(filepath.Join(dir, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, "s.sock"), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	want := map[string]string{
		"clean.go": "a named pipe, not a regular file",
		"new.pipe": "a named pipe, not a regular file",
		"s.sock":   "a socket, not a regular file",
	}
	cs := scan(t, open(t, dir, Options{}), tg, nil)
	got := map[string]string{}
	for _, f := range cs.Files {
		if f.Skip != "" && want[f.Path] != "" {
			got[f.Path] = f.Skip.String()
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skip reasons (-want +got):\n%s", diff)
	}
	if f := cs.File("x.log"); f != nil {
		t.Errorf("an ignored pipe is listed: %+v", f)
	}
	if f := cs.File("clean.go"); f == nil || f.Status != "modified" {
		t.Errorf("clean.go replaced by a pipe: %+v, want modified", f)
	}

	refreshed, err := r.Refresh(t.Context(), prev, nil, "clean.go", "new.pipe", "s.sock", "x.log")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cs, refreshed, fileOpts); diff != "" {
		t.Errorf("Refresh differs from Scan (-scan +refresh):\n%s", diff)
	}
}
