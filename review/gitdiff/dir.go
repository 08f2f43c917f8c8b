package gitdiff

import (
	"io/fs"
	"path/filepath"
	"slices"
)

// dirent is one entry of a directory.
type dirent struct {
	name string
	// typ holds the type bits of the entry's mode: 0 for a regular file,
	// fs.ModeDir, fs.ModeSymlink, or fs.ModeIrregular for anything else.
	typ fs.FileMode
}

func (d dirent) isDir() bool { return d.typ == fs.ModeDir }

// pathDir returns a handle that stats names in directory abs by path,
// without opening it.
func pathDir(abs string) *dirHandle { return &dirHandle{fd: -1, abs: abs} }

// statPath returns the stat data of the file at path (not following a
// final symbolic link).
func statPath(path string) (stat, error) {
	return pathDir(filepath.Dir(path)).lstat(filepath.Base(path))
}

// sortDirents sorts entries in git's order: a directory sorts as its name
// followed by '/'.
// direntsOf converts os.ReadDir's entries, sorted in git's order; types
// other than file, directory and symlink are irregular.
func direntsOf(des []fs.DirEntry) []dirent {
	ents := make([]dirent, 0, len(des))
	for _, de := range des {
		t := de.Type()
		if t != 0 && t != fs.ModeDir && t != fs.ModeSymlink {
			t = fs.ModeIrregular
		}
		ents = append(ents, dirent{name: de.Name(), typ: t})
	}
	sortDirents(ents)
	return ents
}

func sortDirents(ents []dirent) {
	slices.SortFunc(ents, func(a, b dirent) int { return cmpKey(a.name, a.isDir(), b.name, b.isDir()) })
}
