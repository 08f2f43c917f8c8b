package lens

import (
	"path"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
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

// UIFixture reports whether p is a test, end-to-end test or story of a
// user interface rather than the interface itself: test files and
// directories ([review.IsTestPath]: *.test.*, *.spec.*, __tests__/,
// test/, tests/), e2e/, cypress/, playwright/ and __mocks__/ directories,
// and stories (*.stories.*, *.story.*, .storybook/). UI rules leave them
// alone: their markup is a fixture, never shown to a user.
func UIFixture(p string) bool {
	if review.IsTestPath(p) {
		return true
	}
	base := path.Base(p)
	if strings.Contains(base, ".stories.") || strings.Contains(base, ".story.") {
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "e2e", "cypress", "playwright", "__mocks__", ".storybook":
			return true
		}
	}
	return false
}

// LibraryPath reports whether p may hold library code: no directory of
// its path is one of application, example, tool or test code, or private
// by name (a leading _ or dot, which the Go tool ignores too).
func LibraryPath(p string) bool {
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "cmd", "internal", "examples", "example", "_examples", "testdata", "test", "tests", "scripts", "script",
			"tools", "hack", "bin", "e2e", "docs", "doc":
			return false
		}
		if dir != "." && (strings.HasPrefix(dir, "_") || strings.HasPrefix(dir, ".")) {
			return false
		}
	}
	return true
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
// py (see [syntax.PyFile.FuncAt]), or "".
func PyFuncName(py *syntax.PyFile, n int) string {
	if fn := py.FuncAt(n); fn != nil {
		return fn.Name
	}
	return ""
}
