//go:build unix

package regular

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadFile reads regular files, directly and through a link, and
// refuses a named pipe (which would block), a link to one, a directory
// and a device, naming each.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"to-file": file, "to-pipe": pipe} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"file", "to-file"} {
		data, err := ReadFile(filepath.Join(dir, name))
		if err != nil || string(data) != "data" {
			t.Errorf("ReadFile(%s) = %q, %v", name, data, err)
		}
	}
	for path, kind := range map[string]string{
		pipe:                          "a named pipe",
		filepath.Join(dir, "to-pipe"): "a named pipe",
		dir:                           "a directory",
		"/dev/null":                   "a device",
	} {
		_, err := ReadFile(path)
		if want := path + " is not a regular file (" + kind + ")"; err == nil || err.Error() != want {
			t.Errorf("ReadFile(%s) error = %v, want %q", path, err, want)
		}
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s) error %v is not ErrNotRegular", path, err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) error = %v, want ErrNotExist", err)
	}
}

// TestReadFileLimit reads a file of exactly the limit and refuses one a
// byte longer (sparse: nothing is written to the disk) with a *SizeError
// naming the limit.
func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	const limit = 1 << 20
	for size, ok := range map[int64]bool{limit: true, limit + 1: false} {
		name := filepath.Join(dir, "f")
		if err := os.Truncate(name, 0); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
		data, err := ReadFileLimit(name, limit)
		var se *SizeError
		switch {
		case ok && (err != nil || int64(len(data)) != size):
			t.Errorf("size %d: ReadFileLimit = %d bytes, %v", size, len(data), err)
		case !ok && (!errors.As(err, &se) || se.Limit != limit || err.Error() != name+" is larger than 1048576 bytes"):
			t.Errorf("size %d: ReadFileLimit error = %v, want a *SizeError", size, err)
		}
	}
}

// TestReadFileIn reads a file inside the root, directly and through a
// link that stays inside, and refuses a link out of the root, a named
// pipe and a file over the limit.
func TestReadFileIn(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"in": "file", "out": outside} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, name := range []string{"file", "in"} {
		if data, err := ReadFileIn(root, name, 4); err != nil || string(data) != "data" {
			t.Errorf("ReadFileIn(%s) = %q, %v", name, data, err)
		}
	}
	if data, err := ReadFileIn(root, "out", -1); err == nil {
		t.Errorf("ReadFileIn(out) = %q: a link out of the root was followed", data)
	}
	if _, err := ReadFileIn(root, "pipe", -1); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFileIn(pipe) error = %v, want ErrNotRegular", err)
	}
	var se *SizeError
	if _, err := ReadFileIn(root, "file", 3); !errors.As(err, &se) {
		t.Errorf("ReadFileIn(file, 3) error = %v, want a *SizeError", err)
	}
}

// TestWriteFile writes a new file with the permissions asked for, replaces
// a file's content, and replaces a symbolic link instead of writing
// through it; no temporary file is left, and a missing folder is an error
// that creates nothing.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(target, []byte("target"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name string
		perm os.FileMode
	}{{"new", 0o600}, {"new", 0o755}, {"link", 0o600}} {
		name := filepath.Join(dir, step.name)
		data := []byte(step.name + " " + step.perm.String())
		if err := WriteFile(name, data, step.perm); err != nil {
			t.Fatalf("WriteFile(%s, %v): %v", step.name, step.perm, err)
		}
		fi, err := os.Lstat(name)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != step.perm {
			t.Errorf("%s after WriteFile: %v, %v; want a regular file %v", step.name, fi.Mode(), err, step.perm)
		}
		if got, err := os.ReadFile(name); err != nil || string(got) != string(data) {
			t.Errorf("%s holds %q, %v; want %q", step.name, got, err, data)
		}
	}
	if got, err := os.ReadFile(target); err != nil || string(got) != "target" {
		t.Errorf("the link's target holds %q, %v: written through the link", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the folder holds %d entries, want new and link only", len(entries))
	}
	missing := filepath.Join(dir, "missing", "f")
	if err := WriteFile(missing, nil, 0o600); err == nil {
		t.Errorf("WriteFile into a missing folder: no error")
	}
	if _, err := os.Stat(filepath.Dir(missing)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("WriteFile into a missing folder created it: %v", err)
	}
}
