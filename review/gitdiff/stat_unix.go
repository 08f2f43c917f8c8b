//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package gitdiff

import (
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// unixStat converts the stat data of the system.
func unixStat(st *unix.Stat_t) stat {
	return stat{
		size:      st.Size,
		mode:      fileMode(uint32(st.Mode)),
		mtimeSec:  uint32(st.Mtim.Sec),
		mtimeNsec: uint32(st.Mtim.Nsec),
		ctimeSec:  uint32(st.Ctim.Sec),
		ctimeNsec: uint32(st.Ctim.Nsec),
		ino:       uint32(st.Ino),
		hasCtime:  true,
	}
}

func fileMode(m uint32) fs.FileMode {
	perm := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return perm
	case unix.S_IFDIR:
		return perm | fs.ModeDir
	case unix.S_IFLNK:
		return perm | fs.ModeSymlink
	}
	return perm | fs.ModeIrregular
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// lstat returns the stat data of name in the directory, relative to its
// descriptor when open: the kernel then resolves one path component rather
// than the whole path, which is most of the cost of a stat.
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
