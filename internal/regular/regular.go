// Package regular opens files by name only when they are regular files.
// A named pipe where a file is expected blocks a reader forever (until a
// writer comes), and a device such as /dev/zero never ends; both are an
// error here instead, naming what the path is.
//
// The check is made on the opened file, not on an earlier stat, so a pipe
// swapped in between cannot slip through, and the open itself does not
// wait: it is non-blocking where the system allows it.
//
// [WriteFile] is the other side: it writes a new regular file and renames
// it into place, so it never writes through what a path holds.
package regular

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Error reports a path that is not a regular file.
type Error struct {
	Path string
	Mode fs.FileMode
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s)", e.Path, Kind(e.Mode))
}

// ErrNotRegular is matched by every *Error with errors.Is.
var ErrNotRegular = errors.New("not a regular file")

// Is reports whether target is ErrNotRegular.
func (e *Error) Is(target error) bool { return target == ErrNotRegular }

// Kind names the type of file of mode m: "a named pipe", "a socket", "a
// device", "a directory", or "a special file".
func Kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t == 0:
		return "a regular file"
	}
	return "a special file"
}

// Open opens name for reading when it is a regular file (a symbolic link
// to one counts, as with os.Open). Anything else is an *Error, and is
// never opened when a stat can tell first.
func Open(name string) (*os.File, error) {
	f, _, err := open(name)
	return f, err
}

func open(name string) (*os.File, fs.FileInfo, error) {
	return openWith(os.Stat, os.OpenFile, name)
}

// openWith opens name for reading with stat and openFile (those of the os
// package, or of an [os.Root]) when it is a regular file, and returns it
// with its FileInfo.
func openWith(stat func(string) (fs.FileInfo, error), openFile func(string, int, fs.FileMode) (*os.File, error), name string) (*os.File, fs.FileInfo, error) {
	if fi, err := stat(name); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, &Error{Path: name, Mode: fi.Mode()}
	}
	f, err := openFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &Error{Path: name, Mode: fi.Mode()}
	}
	return f, fi, nil
}

// ReadFile is os.ReadFile for regular files only (see Open).
func ReadFile(name string) ([]byte, error) {
	return ReadFileLimit(name, -1)
}

// SizeError reports a file larger than a reader's limit.
type SizeError struct {
	Path  string
	Limit int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.Path, e.Limit)
}

// ReadFileLimit is ReadFile reading at most limit bytes (no limit when
// negative): a longer file is a *SizeError, and never read whole.
func ReadFileLimit(name string, limit int64) ([]byte, error) {
	f, fi, err := open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimit(f, fi, name, limit)
}

// ReadFileIn is ReadFileLimit for name inside root: a symbolic link that
// leads out of root is refused (an error from os.Root), as is anything
// but a regular file.
func ReadFileIn(root *os.Root, name string, limit int64) ([]byte, error) {
	f, fi, err := openWith(root.Stat, root.OpenFile, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimit(f, fi, name, limit)
}

// readLimit reads the regular file f, opened as name, up to limit bytes.
func readLimit(f *os.File, fi fs.FileInfo, name string, limit int64) ([]byte, error) {
	size := fi.Size()
	var r io.Reader = f
	if limit >= 0 {
		if size > limit {
			return nil, &SizeError{Path: name, Limit: limit}
		}
		// The file may grow after the stat: read one byte past the limit
		// to tell.
		r = io.LimitReader(f, limit+1)
	}
	var b bytes.Buffer
	b.Grow(int(size) + bytes.MinRead)
	if _, err := b.ReadFrom(r); err != nil {
		return nil, err
	}
	if limit >= 0 && int64(b.Len()) > limit {
		return nil, &SizeError{Path: name, Limit: limit}
	}
	return b.Bytes(), nil
}

// WriteFile replaces name with a regular file that holds data, with the
// permissions perm, atomically: it writes and syncs a temporary file in
// the same folder and renames it over name, so a reader sees the old
// content or the new, never half of it, and whatever name was (a symbolic
// link, a pipe) is replaced, never written through. The folder must
// exist; on an error name is as it was and no temporary file is left.
func WriteFile(name string, data []byte, perm fs.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(perm); err == nil {
		if _, err = f.Write(data); err == nil {
			err = f.Sync()
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	return err
}
