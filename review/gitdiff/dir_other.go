//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package gitdiff

import (
	"os"
	"path/filepath"
)

// dirHandle is a directory of the work tree.
type dirHandle struct {
	fd  int
	abs string
}

// openDir reads the entries of directory abs, sorted in git's order.
func openDir(abs string) (*dirHandle, []dirent, error) {
	des, err := os.ReadDir(abs)
	if err != nil {
		return nil, nil, err
	}
	ents := direntsOf(des)
	return &dirHandle{fd: -1, abs: abs}, ents, nil
}

func (d *dirHandle) close() {}

// lstat returns the stat data of name in the directory. This platform
// exposes no inode or change time: only size, mode and modification time
// are compared.
func (d *dirHandle) lstat(name string) (stat, error) {
	fi, err := os.Lstat(filepath.Join(d.abs, name))
	if err != nil {
		return stat{}, err
	}
	mt := fi.ModTime()
	return stat{size: fi.Size(), mode: fi.Mode(), mtimeSec: uint32(mt.Unix()), mtimeNsec: uint32(mt.Nanosecond())}, nil
}
