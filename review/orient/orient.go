// Package orient builds the orientation-first view of a change: the areas
// of the dispatch board, the factual walkthrough (Register 1: no severity,
// no verdict), and the walk-back of merged findings onto board items.
package orient

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
)

// Area kinds.
const (
	KindPackage      = "package"
	KindTests        = "tests"
	KindConfig       = "config"
	KindDocs         = "docs"
	KindDependencies = "dependencies"
)

// kindOrder places source areas first, then the supporting kinds.
var kindOrder = map[string]int{KindPackage: 0, KindTests: 1, KindConfig: 2, KindDocs: 3, KindDependencies: 4}

// AreaOf returns the area name and kind of a changed path; a file of the
// root directory is in the area named root.
func AreaOf(p, root string) (name, kind string) {
	base := path.Base(p)
	switch {
	case isDependency(base):
		return "dependencies", KindDependencies
	case review.IsTestPath(p):
		return "tests", KindTests
	case isDoc(p):
		return "docs", KindDocs
	case isConfig(p):
		return "config", KindConfig
	}
	return dirArea(path.Dir(p), root), KindPackage
}

// dirArea names the package area of a directory.
func dirArea(dir, root string) string {
	if dir == "." {
		return root
	}
	return dir
}

// RootName names the area of the repository's root directory as a Go or
// Node user knows it: the last element of the module path in go.mod
// (major version suffix dropped), else the name in package.json, else the
// repository directory's name.
func RootName(cs *review.ChangeSet) string {
	read := func(p string) []byte {
		if f := cs.File(p); f != nil && f.Reviewed() {
			return f.Content
		}
		if cs.Root == "" {
			return nil
		}
		data, err := regular.ReadFile(filepath.Join(cs.Root, p))
		if err != nil {
			return nil // no such manifest
		}
		return data
	}
	if m := modulePath(read("go.mod")); m != "" {
		elems := strings.Split(m, "/")
		last := elems[len(elems)-1]
		if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
			last = elems[len(elems)-2]
		}
		return last
	}
	var pkg struct{ Name string }
	if json.Unmarshal(read("package.json"), &pkg) == nil && pkg.Name != "" {
		return pkg.Name
	}
	if cs.Root != "" {
		return filepath.Base(cs.Root)
	}
	return "."
}

func isDependency(base string) bool {
	switch base {
	case "go.mod", "go.sum", "go.work", "go.work.sum", "package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml",
		"requirements.txt", "requirements-dev.txt", "pyproject.toml", "poetry.lock", "Pipfile", "Pipfile.lock",
		"Cargo.toml", "Cargo.lock", "Gemfile", "Gemfile.lock", "composer.json", "composer.lock", "pom.xml",
		"build.gradle", "build.gradle.kts":
		return true
	}
	return strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt")
}

func isDoc(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".mdx", ".rst", ".adoc":
		return true
	case ".txt":
		return !strings.Contains(p, "/")
	}
	return strings.HasPrefix(p, "docs/") || strings.HasPrefix(p, "doc/")
}

func isConfig(p string) bool {
	base := path.Base(p)
	switch strings.ToLower(path.Ext(base)) {
	case ".yml", ".yaml", ".toml", ".ini", ".cfg", ".conf", ".json", ".env", ".properties":
		return true
	}
	lower := strings.ToLower(base)
	return strings.HasPrefix(lower, "dockerfile") || lower == "makefile" || strings.HasPrefix(p, ".github/") ||
		(strings.HasPrefix(base, ".") && !strings.Contains(base[1:], "."))
}

// Areas groups the changed files of cs into review areas, in board order:
// source packages by directory, then tests, config, docs and dependencies.
// changes holds each file's changed symbols (nil: none known); they become
// the areas' symbols.
//
// A test file goes with the source it tests: a Go _test.go file with its
// package's directory, test_x.py, x_test.py, x.test.ts or x.spec.js with
// the changed x.py or x.ts (beside it, or above a tests directory), else
// with a changed package of its own directory; other tests form the
// tests area.
func Areas(cs *review.ChangeSet, changes map[string][]symbol.Change) []review.Area {
	root := RootName(cs)
	index := map[string]*review.Area{}
	var order []*review.Area
	homes := testHomes(cs, root)
	for _, f := range cs.Files {
		name, kind := AreaOf(f.Path, root)
		if h, ok := homes[f.Path]; ok {
			name, kind = h, KindPackage
		}
		a := index[name]
		if a == nil {
			a = &review.Area{Name: name, Kind: kind}
			index[name] = a
			order = append(order, a)
		}
		a.Files = append(a.Files, f.Path)
		a.Added += f.Added
		a.Deleted += f.Deleted
		for _, c := range changes[f.Path] {
			if n := c.Symbol.QualifiedName(); !slices.Contains(a.Symbols, n) {
				a.Symbols = append(a.Symbols, n)
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		ki, kj := kindOrder[order[i].Kind], kindOrder[order[j].Kind]
		if ki != kj {
			return ki < kj
		}
		return order[i].Name < order[j].Name
	})
	out := make([]review.Area, len(order))
	for i, a := range order {
		a.Summary = areaSummary(cs, a)
		out[i] = *a
	}
	return out
}

func areaSummary(cs *review.ChangeSet, a *review.Area) string {
	counts := map[review.FileStatus]int{}
	for _, p := range a.Files {
		counts[cs.File(p).Status]++
	}
	var parts []string
	for _, s := range []review.FileStatus{review.StatusModified, review.StatusAdded, review.StatusUntracked, review.StatusRenamed, review.StatusDeleted} {
		if n := counts[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	return fmt.Sprintf("%s in %s (+%d −%d)", strings.Join(parts, ", "), a.Name, a.Added, a.Deleted)
}

// modulePath returns the module path of a go.mod, or "".
func modulePath(gomod []byte) string {
	for _, l := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// testHomes maps each changed test file to the package area of the source
// it tests, when that is clear.
func testHomes(cs *review.ChangeSet, root string) map[string]string {
	sources := map[string][]string{} // stem -> changed source paths
	dirs := map[string]bool{}        // directories with a changed source
	for _, f := range cs.Files {
		if _, kind := AreaOf(f.Path, root); kind == KindPackage && !review.IsTestPath(f.Path) {
			sources[stem(f.Path)] = append(sources[stem(f.Path)], f.Path)
			dirs[path.Dir(f.Path)] = true
		}
	}
	out := map[string]string{}
	for _, f := range cs.Files {
		p := f.Path
		if !review.IsTestPath(p) || isDependency(path.Base(p)) || isDoc(p) || isConfig(p) {
			continue
		}
		dir := path.Dir(p)
		if strings.HasSuffix(p, "_test.go") {
			out[p] = dirArea(dir, root)
			continue
		}
		// The source of the same stem: beside the test, above its tests
		// directory, or the only one in the change.
		cands := sources[testStem(p)]
		up := path.Dir(dir)
		var home string
		for _, c := range cands {
			if d := path.Dir(c); d == dir || d == up || strings.HasPrefix(c, up+"/") && up != "." {
				home = d
				break
			}
		}
		if home == "" && len(cands) == 1 {
			home = path.Dir(cands[0])
		}
		if home == "" && dirs[dir] {
			home = dir
		}
		if home != "" {
			out[p] = dirArea(home, root)
		}
	}
	return out
}

// stem returns a file's name without directory and extension.
func stem(p string) string {
	b := path.Base(p)
	if i := strings.IndexByte(b, '.'); i > 0 {
		return b[:i]
	}
	return b
}

// testStem returns the stem of the source a test file names: test_x.py,
// x_test.py, x.test.ts, x.spec.js, x_spec.rb all give x.
func testStem(p string) string {
	s := stem(p)
	s = strings.TrimPrefix(s, "test_")
	for _, suf := range []string{"_test", "_spec", "Test", "Tests"} {
		s = strings.TrimSuffix(s, suf)
	}
	return s
}

// firstChanged returns the first changed line of f, or 1.
func firstChanged(f *review.File) int {
	if lines := f.ChangedLines(); len(lines) > 0 {
		return lines[0]
	}
	return 1
}

// strongest returns the file of the area with the most changed lines,
// a source file before a test.
func strongest(cs *review.ChangeSet, a review.Area) *review.File {
	var best *review.File
	for _, p := range a.Files {
		f := cs.File(p)
		if best == nil || review.IsTestPath(best.Path) && !review.IsTestPath(f.Path) ||
			review.IsTestPath(best.Path) == review.IsTestPath(f.Path) && f.Added+f.Deleted > best.Added+best.Deleted {
			best = f
		}
	}
	return best
}
