package lens

import (
	"path"
	"strings"
)

// Snippet shortens code cited in a message to its first line, at most 60
// bytes of it.
func Snippet(s string) string {
	s, _, cut := strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 60 {
		s, cut = s[:57], true
	}
	if cut {
		s += "..."
	}
	return s
}

// Vendored reports whether p is third-party or built code that a review
// of the project's own changes should not judge line by line: files under
// node_modules/, vendor/, third_party/ or dist/, and minified files.
func Vendored(p string) bool {
	if strings.Contains(path.Base(p), ".min.") {
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "node_modules", "vendor", "third_party", "dist":
			return true
		}
	}
	return false
}

// PyFuncName returns the name of the innermost def that holds line n of
// py (see [PyFile.FuncAt]), or "".
func PyFuncName(py *PyFile, n int) string {
	if fn := py.FuncAt(n); fn != nil {
		return fn.Name
	}
	return ""
}
