package gitdiff

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// specialSkip is the skip reason of the special file at abs, naming its
// kind; it only stats the file.
func specialSkip(abs string) review.SkipReason {
	fi, err := os.Lstat(abs)
	if err != nil {
		return review.SkipSpecial
	}
	return review.SkipReason(regular.Kind(fi.Mode())+", ") + review.SkipSpecial
}

// binarySniffLen is how much of a file is searched for a NUL byte to call
// it binary: git's own heuristic (buffer_is_binary) looks at 8000 bytes.
const binarySniffLen = 8000

var lockFiles = map[string]bool{
	"package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true,
	"go.sum": true, "Cargo.lock": true, "poetry.lock": true,
	"Pipfile.lock": true, "Gemfile.lock": true, "composer.lock": true,
}

var vendorDirs = map[string]review.SkipReason{
	"vendor": review.SkipVendored, "node_modules": review.SkipVendored,
	"dist": review.SkipBuildOutput, "bin": review.SkipBuildOutput, "obj": review.SkipBuildOutput,
	"out": review.SkipBuildOutput, "coverage": review.SkipBuildOutput,
}

// pathSkip returns why a file is not reviewed judging by its path alone, or
// "".
func pathSkip(p string) review.SkipReason {
	dir, base := path.Split(p)
	for _, d := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
		if r := vendorDirs[d]; r != "" {
			return r
		}
	}
	if lockFiles[base] {
		return review.SkipLockFile
	}
	lower := strings.ToLower(base)
	switch {
	case strings.HasSuffix(lower, ".min.js"), strings.HasSuffix(lower, ".min.css"):
		return review.SkipMinified
	case strings.HasSuffix(lower, ".map"):
		return review.SkipSourceMap
	}
	return ""
}

// isBinary reports whether data looks binary: a NUL byte near its start.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniffLen)], 0) >= 0
}

// generatedHeaderLines bounds the search for the generated-code marker:
// it sits in the leading comments, after at most a license block.
const generatedHeaderLines = 200

// isGenerated reports whether data carries the generated-code marker
// (https://go.dev/s/generatedcode): a line "// Code generated ... DO NOT
// EDIT." among the comments before the first line of code. A "#" comment
// is accepted too, for the scripting languages that follow the convention.
func isGenerated(data []byte) bool {
	for n := 0; len(data) > 0 && n < generatedHeaderLines; n++ {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 || bytes.HasPrefix(trimmed, []byte("#!")) {
			continue
		}
		var text []byte
		switch {
		case bytes.HasPrefix(line, []byte("// ")):
			text = line[3:]
		case bytes.HasPrefix(line, []byte("# ")):
			text = line[2:]
		case bytes.HasPrefix(trimmed, []byte("//")), bytes.HasPrefix(trimmed, []byte("#")),
			bytes.HasPrefix(trimmed, []byte("/*")), bytes.HasPrefix(trimmed, []byte("*")):
			continue // another comment line
		default:
			return false // code
		}
		if rest, ok := bytes.CutPrefix(text, []byte("Code generated ")); ok && bytes.HasSuffix(rest, []byte(" DO NOT EDIT.")) {
			return true
		}
	}
	return false
}

// filterSkip returns the skip reason of a path whose content passes
// through the filter driver name (Git LFS's is "lfs").
func filterSkip(name string) review.SkipReason {
	return review.SkipReason("filter " + name + ": clean/smudge filters are not run")
}

// encodingSkip returns the skip reason of a path whose work tree content
// git re-encodes (the working-tree-encoding attribute).
func encodingSkip(enc string) review.SkipReason {
	return review.SkipReason("working-tree-encoding " + enc + ": not converted")
}

// sizeSkip returns the skip reason of a file of size n over the cap.
func sizeSkip(n, limit int64) review.SkipReason {
	s, c := formatSize(n), formatSize(limit)
	if s == c {
		s, c = strconv.FormatInt(n, 10)+" B", strconv.FormatInt(limit, 10)+" B"
	}
	return review.SkipReason(fmt.Sprintf("size %s exceeds the %s cap", s, c))
}

// formatSize renders a byte count in binary units with one decimal
// ("2.3 MiB", "1 MiB", "512 B").
func formatSize(n int64) string {
	units := []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}}
	for _, u := range units {
		if n >= u.size {
			v := strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64)
			return strings.TrimSuffix(v, ".0") + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}
