//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package gitdiff

import "os"

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
	ents := direntsOf(des)
	return &dirHandle{fd: int(f.Fd()), abs: abs, f: f}, ents, nil
}

func (d *dirHandle) close() {
	if d.f != nil {
		d.f.Close()
		d.f = nil
	}
	d.fd = -1
}
