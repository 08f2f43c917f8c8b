package orient

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
)

// Walkthrough builds the factual orientation narrative of a change
// (Register 1): its areas, the runway (entry points, public APIs, blast
// radius) and the test and rollout notes. It grades nothing.
func Walkthrough(cs *review.ChangeSet, areas []review.Area, risk *review.Risk, changes map[string][]symbol.Change) *review.Walkthrough {
	w := &review.Walkthrough{Areas: areas}
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		for _, c := range changes[p] {
			s := c.Symbol
			w.Symbols = append(w.Symbols, fmt.Sprintf("%s (%s, %s) at %s:%d", s.QualifiedName(), s.Kind, changeLabel(c), p, s.Line))
			if isEntry(p, s) {
				w.EntryPoints = append(w.EntryPoints, fmt.Sprintf("%s:%d %s", p, s.Line, s.QualifiedName()))
			}
			if public, _ := s.Public(); public && c.Kind != symbol.ChangeNone && !review.IsTestPath(p) && isCallable(s.Kind) {
				w.PublicAPIs = append(w.PublicAPIs, fmt.Sprintf("%s:%d %s — %s", p, s.Line, s.Signature, changeLabel(c)))
			}
		}
	}
	for _, a := range areas {
		for _, p := range a.Files {
			if isEntryFile(p) && !containsPrefix(w.EntryPoints, p+":") {
				w.EntryPoints = append(w.EntryPoints, p)
			}
		}
	}
	if risk != nil {
		for _, h := range risk.Hotspots {
			w.BlastRadius = append(w.BlastRadius, review.BlastItem{Kind: review.BlastHotspot, Path: h.Path, Classes: h.Classes})
		}
		for _, a := range areas {
			switch a.Kind {
			case KindConfig:
				w.BlastRadius = append(w.BlastRadius, review.BlastItem{Kind: review.BlastConfig, Files: a.Files})
			case KindDependencies:
				w.BlastRadius = append(w.BlastRadius, review.BlastItem{Kind: review.BlastDependencies, Files: a.Files})
			}
		}
		if risk.Brief.TestNotes != "" {
			w.TestNotes = append(w.TestNotes, risk.Brief.TestNotes)
		}
		if risk.Brief.RolloutNotes != "" {
			w.Rollout = append(w.Rollout, risk.Brief.RolloutNotes)
		}
	}
	return w
}

// changeLabel names what the change did to a symbol: its kind, "renamed
// from <old name>", or "doc comment changed" for a body change that left
// the declaration's text as it was.
func changeLabel(c symbol.Change) string {
	if c.Kind == symbol.ChangeBody && docChanged(c) && c.Old.Hash != 0 && c.Old.Hash == c.Symbol.Hash {
		return "doc comment changed"
	}
	return changeText(c)
}

func isCallable(k symbol.Kind) bool {
	return k != symbol.KindField
}

// isEntry reports symbols a program starts from: main functions, HTTP
// handlers, CLI command functions.
func isEntry(p string, s symbol.Symbol) bool {
	switch {
	case s.Name == "main" && (s.Kind == symbol.KindFunction),
		strings.Contains(s.Signature, "http.ResponseWriter"),
		strings.Contains(s.Signature, "*cobra.Command"),
		s.Name == "__main__":
		return true
	}
	return false
}

// isEntryFile reports files that are entry points by convention.
func isEntryFile(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(p, "cmd/") || strings.Contains(p, "/cmd/") || base == "main.go" || base == "__main__.py" || base == "manage.py" ||
		strings.HasPrefix(base, "server.") || strings.HasPrefix(base, "app.") || base == "index.ts" || base == "index.js"
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// maxCallPathSymbols bounds the public symbols whose callers a walkthrough
// searches (each search reads the language's tracked files).
const maxCallPathSymbols = 10

// CallPaths finds, for the changed public symbols, their callers outside
// the symbol's own directory: the paths by which the change reaches the
// rest of the code. It also returns the blast-radius lines of shared
// modules: changed files whose symbols are called from two or more other
// directories.
func CallPaths(ctx context.Context, ws Workspace, cs *review.ChangeSet, changes map[string][]symbol.Change) (paths []string, shared []review.BlastItem) {
	n := 0
	files := make([]string, 0, len(changes))
	for p := range changes {
		files = append(files, p)
	}
	sort.Strings(files)
	for _, p := range files {
		f := cs.File(p)
		if f == nil || review.IsTestPath(p) {
			continue
		}
		dirs := map[string]bool{}
		for _, c := range changes[p] {
			s := c.Symbol
			if !s.Exported || c.Kind == symbol.ChangeRemoved || !isCallable(s.Kind) || n >= maxCallPathSymbols || ctx.Err() != nil {
				continue
			}
			n++
			refs, _ := symbol.References(ws.Root(), searchFiles(ws, cs, f.Language), overlayOf(cs), s.Name, &s, 20)
			for _, r := range refs {
				if r.Call && path.Dir(r.Path) != path.Dir(p) && !r.InTest {
					paths = append(paths, fmt.Sprintf("%s:%d → %s", r.Path, r.Line, s.QualifiedName()))
					dirs[path.Dir(r.Path)] = true
				}
			}
		}
		if len(dirs) >= 2 {
			shared = append(shared, review.BlastItem{Kind: review.BlastShared, Path: p, Files: sortedKeys(dirs)})
		}
	}
	return paths, shared
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
