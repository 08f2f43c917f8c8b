//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package gitdiff

import "github.com/reviewls/reviewls/internal/regular"

// mapFile reads the file at path into memory where mapping it is not
// supported, and returns its bytes and a function that releases nothing.
func mapFile(path string) ([]byte, func() error, error) {
	data, err := regular.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
