package review

import "errors"

// ErrNotRepository is returned (wrapped) when a directory to review is not
// inside a git work tree; the error names the directory.
var ErrNotRepository = errors.New("not a git repository")
