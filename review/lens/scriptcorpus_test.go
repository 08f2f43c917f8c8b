package lens_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestScriptCorpusIsClean runs the whole catalog at depth standard on the
// clean-corpus fixtures of the scripting languages (Python, JavaScript and
// TypeScript, shell, Dockerfile, GitHub Actions) and requires silence.
// Each fixture's base/ files are the committed tree and its work/ files
// the change; only the lines a diff marks as added count as changed.
func TestScriptCorpusIsClean(t *testing.T) {
	var paths []string
	for _, prefix := range []string{"python-", "js-", "ts-", "shell-", "dockerfile-", "actions-"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "clean", prefix+"*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) < 12 {
		t.Fatalf("found %d scripting fixtures, want at least 12", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			cs := corpusChangeSet(t, p)
			for _, l := range catalog() {
				got, err := l.Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthStandard})
				if err != nil {
					t.Fatal(err)
				}
				for _, fd := range got {
					t.Errorf("%s:%d: %s: %s", fd.Span.Path, fd.Span.StartLine, fd.RuleID, fd.Message)
				}
			}
		})
	}
}

// corpusChangeSet writes a fixture's tree (base/ overlaid with work/) to a
// temporary root and returns the change set of its work/ files.
func corpusChangeSet(t *testing.T, path string) *review.ChangeSet {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	base := map[string][]byte{}
	cs := &review.ChangeSet{Root: t.TempDir()}
	write := func(rel string, data []byte) {
		full := filepath.Join(cs.Root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range ar.Files {
		if rel, ok := strings.CutPrefix(f.Name, "base/"); ok {
			base[rel] = f.Data
			write(rel, f.Data)
		}
	}
	for _, f := range ar.Files {
		rel, ok := strings.CutPrefix(f.Name, "work/")
		if !ok {
			continue
		}
		write(rel, f.Data)
		file := lenstest.NewFile(rel, f.Data)
		if old, ok := base[rel]; ok {
			file.Status = review.StatusModified
			file.Lines = map[int]review.LineState{}
			for _, n := range addedLines(lens.SplitLines(old), lens.SplitLines(f.Data)) {
				file.Lines[n] = review.LineUnstaged
			}
		}
		cs.Files = append(cs.Files, file)
	}
	cs.Sort()
	return cs
}

// addedLines returns the 1-based lines of b that are not part of a longest
// common subsequence of a and b: the lines a diff shows as added.
func addedLines(a, b []string) []int {
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []int
	i, j := 0, 0
	for j < len(b) {
		switch {
		case i < len(a) && a[i] == b[j]:
			i++
			j++
		case i < len(a) && lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			out = append(out, j+1)
			j++
		}
	}
	return out
}
