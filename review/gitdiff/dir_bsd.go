//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package gitdiff

import (
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// dirHandle is an open directory of the work tree.
type dirHandle struct {
	fd  int // -1 when the directory is not open
	abs string
	f   *os.File
}

// openDir opens directory abs and reads its entries, sorted in git's order.
// The caller closes the handle.
func openDir(abs string) (*dirHandle, []dirent, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, nil, err
	}
	des, err := f.ReadDir(-1)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	ents := make([]dirent, 0, len(des))
	for _, de := range des {
		t := de.Type()
		if t != 0 && t != fs.ModeDir && t != fs.ModeSymlink {
			t = fs.ModeIrregular
		}
		ents = append(ents, dirent{name: de.Name(), typ: t})
	}
	sortDirents(ents)
	return &dirHandle{fd: int(f.Fd()), abs: abs, f: f}, ents, nil
}

func (d *dirHandle) close() {
	if d.f != nil {
		d.f.Close()
		d.f = nil
	}
	d.fd = -1
}

// lstat returns the stat data of name in the directory, relative to its
// descriptor when open.
func (d *dirHandle) lstat(name string) (stat, error) {
	var st unix.Stat_t
	err := ignoringEINTR(func() error {
		if d.fd >= 0 {
			return unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		}
		return unix.Lstat(filepath.Join(d.abs, name), &st)
	})
	if err != nil {
		return stat{}, &fs.PathError{Op: "lstat", Path: filepath.Join(d.abs, name), Err: err}
	}
	return unixStat(&st), nil
}
