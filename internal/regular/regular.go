// Package regular opens files by name only when they are regular files.
// A named pipe where a file is expected blocks a reader forever (until a
// writer comes), and a device such as /dev/zero never ends; both are an
// error here instead, naming what the path is.
//
// The check is made on the opened file, not on an earlier stat, so a pipe
// swapped in between cannot slip through, and the open itself does not
// wait: it is non-blocking where the system allows it.
package regular

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
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
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, &Error{Path: name, Mode: fi.Mode()}
	}
	f, err := os.OpenFile(name, os.O_RDONLY|nonBlock, 0)
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
	f, fi, err := open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	b.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := b.ReadFrom(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
