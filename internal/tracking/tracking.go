// Package tracking opens the one directory reviewls writes in, a work
// tree's .copilot-tracking, for the artifact writers and the history
// cache alike.
package tracking

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Dir is the name of the directory, at the root of the work tree.
const Dir = ".copilot-tracking"

// Open opens root/.copilot-tracking as an os.Root, creating it when create
// is set, and refuses it when it is a symbolic link or not a directory:
// nothing is ever written through a link out of the repository.
func Open(root string, create bool) (*os.Root, error) {
	repo, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open work tree root: %w", err)
	}
	defer repo.Close()
	if create {
		if err := repo.Mkdir(Dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create %s: %w", Dir, err)
		}
	}
	fi, err := repo.Lstat(Dir)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory (a symbolic link is refused)", Dir)
	}
	return repo.OpenRoot(Dir)
}
