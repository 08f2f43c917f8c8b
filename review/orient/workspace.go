package orient

import (
	"bytes"
	"context"
	"path/filepath"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// Workspace is what explanations and investigations read beyond the change
// set: the base version of files, the tracked files to search for
// references, and the history of lines. The engine provides it from
// review/gitdiff.
type Workspace interface {
	// Root is the work tree.
	Root() string
	// ReadBase returns path at the review base; an error wrapping
	// os.ErrNotExist when it did not exist there.
	ReadBase(ctx context.Context, path string) ([]byte, error)
	// TrackedFiles lists the repository's tracked files.
	TrackedFiles() ([]string, error)
	// LineHistory blames the given base lines of path.
	LineHistory(ctx context.Context, path string, lines []int) ([]review.LineOrigin, error)
}

// maxSearchFiles bounds the files read when searching references: enough
// for every file of a language in a large service, while a search stays
// within a few hundred milliseconds.
const maxSearchFiles = 5000

// searchFiles returns the files to search for references of a symbol of a
// language family: tracked files of the same family plus untracked
// changed files, changed files first.
func searchFiles(ws Workspace, cs *review.ChangeSet, lang review.Language) []string {
	fam := lang.Family()
	seen := map[string]bool{}
	var out []string
	for _, f := range cs.Files {
		if f.Reviewed() && f.Language.Family() == fam {
			seen[f.Path] = true
			out = append(out, f.Path)
		}
	}
	tracked, _ := ws.TrackedFiles()
	for _, p := range tracked {
		if len(out) >= maxSearchFiles {
			break
		}
		if !seen[p] && review.DetectLanguage(p, nil).Family() == fam {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// overlayOf returns the reviewed content of the changed files, which
// searches read instead of the disk.
func overlayOf(cs *review.ChangeSet) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range cs.Files {
		if f.Reviewed() {
			out[f.Path] = f.Content
		}
	}
	return out
}

// readFile returns a file's content: the change set's reviewed content,
// else the disk.
func readFile(ws Workspace, cs *review.ChangeSet, path string) ([]byte, bool) {
	if f := cs.File(path); f != nil && f.Reviewed() {
		return f.Content, true
	}
	data, err := regular.ReadFile(filepath.Join(ws.Root(), filepath.FromSlash(path)))
	if err != nil || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return nil, false
	}
	return data, true
}
