// Package orient builds the orientation-first view of a change: the areas
// of the dispatch board, the factual walkthrough (Register 1: no severity,
// no verdict), and the walk-back of merged findings onto board items.
package orient

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

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

// AreaOf returns the area name and kind of a changed path.
func AreaOf(p string) (name, kind string) {
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
	dir := path.Dir(p)
	if dir == "." {
		return "(root)", KindPackage
	}
	return dir, KindPackage
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
func Areas(cs *review.ChangeSet, changes map[string][]symbol.Change) []review.Area {
	index := map[string]*review.Area{}
	var order []*review.Area
	for _, f := range cs.Files {
		name, kind := AreaOf(f.Path)
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

// firstChanged returns the first changed line of f, or 1.
func firstChanged(f *review.File) int {
	if lines := f.ChangedLines(); len(lines) > 0 {
		return lines[0]
	}
	return 1
}

// strongest returns the file of the area with the most changed lines.
func strongest(cs *review.ChangeSet, a review.Area) *review.File {
	var best *review.File
	for _, p := range a.Files {
		f := cs.File(p)
		if best == nil || f.Added+f.Deleted > best.Added+best.Deleted {
			best = f
		}
	}
	return best
}
