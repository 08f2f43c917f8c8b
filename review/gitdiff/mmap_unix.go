//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package gitdiff

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only into memory and returns its
// bytes and the function that unmaps them. Only the pages read are ever
// loaded, and they are the page cache's, not the process's heap.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if size != int64(int(size)) || !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("map %s: not a regular file of a mappable size", path)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("map %s: %w", path, err)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
