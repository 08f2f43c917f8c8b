package standards

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// FuzzFmtScreen feeds arbitrary bytes to the gofmt rule as a Go file whose
// lines all changed. The screen names a line of the file, with a reason.
// When the input formats, the line diff against gofmt's output must be a
// shortest one; the rule reports at most once, on a changed line, with a
// fix that turns the file into gofmt's output; and on gofmt's output it
// reports nothing. (The screen itself may still flag a formatted line: it
// is a heuristic, and then gofmt runs and finds nothing to change.)
func FuzzFmtScreen(f *testing.F) {
	for _, data := range gofmtCasesOf(f) {
		f.Add(data)
	}
	for _, s := range []string{"", "package p\n\nvar s = `\n  x\n`\n", "package p\n/*\n  */\nfunc f() {}\n"} {
		f.Add([]byte(s))
	}
	gofmt := lens.New(review.Standards, Gofmt)
	check := func(t *testing.T, file *review.File) []*review.Finding {
		got, err := gofmt.Check(t.Context(), &review.ChangeSet{Files: []*review.File{file}}, nil, review.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := lenstest.NewFile("p.go", data)
		lines := lens.Lines(file)
		if n, why := fmtScreen(file, lines); n < 0 || n > len(lines) || (n == 0) != (why == "") {
			t.Fatalf("fmtScreen = %d, %q for %d lines", n, why, len(lines))
		}
		formatted, err := format.Source(data)
		if err != nil {
			return
		}
		out := lens.SplitLines(formatted)
		checkUnmatched(t, lines, out)
		findings := check(t, file)
		if len(findings) > 1 {
			t.Fatalf("%d findings, want at most one", len(findings))
		}
		for _, fd := range findings {
			if fd.Span.StartLine < 1 || fd.Span.StartLine > len(lines) || fd.Fix == nil {
				t.Fatalf("finding at line %d of %d, fix %v", fd.Span.StartLine, len(lines), fd.Fix)
			}
			fixed, err := review.ApplyEdits(data, fd.Fix.Edits)
			if err != nil || !bytes.Equal(fixed, formatted) {
				t.Fatalf("fix gives %q (%v), want gofmt's %q", fixed, err, formatted)
			}
		}
		if again, err := format.Source(formatted); err != nil || !bytes.Equal(again, formatted) {
			return // gofmt is not idempotent on this input
		}
		if got := check(t, lenstest.NewFile("p.go", formatted)); len(got) != 0 {
			t.Fatalf("finding on gofmt's own output at line %d: %s\n%s", got[0].Span.StartLine, got[0].Message, formatted)
		}
	})
}

// checkUnmatched checks unmatchedLines(a, b): increasing line numbers of
// a whose removal leaves a subsequence of b, and (for inputs small enough
// to check by dynamic programming, under the cost cap) as few as possible.
func checkUnmatched(t *testing.T, a, b []string) {
	t.Helper()
	del := unmatchedLines(a, b)
	if !slices.IsSorted(del) || len(slices.Compact(slices.Clone(del))) != len(del) {
		t.Fatalf("unmatchedLines = %v: not increasing", del)
	}
	var kept []string
	for i, l := range a {
		if _, found := slices.BinarySearch(del, i+1); !found {
			kept = append(kept, l)
		}
	}
	j := 0
	for _, l := range b {
		if j < len(kept) && kept[j] == l {
			j++
		}
	}
	if j != len(kept) {
		t.Fatalf("the lines unmatchedLines keeps are not a subsequence of b")
	}
	if len(a) > 200 || len(b) > 200 || len(a)+len(b) > maxDiffCost {
		return
	}
	if want := len(a) - lenstest.LCS(a, b)[0][0]; len(del) != want {
		t.Fatalf("unmatchedLines deletes %d lines, a shortest edit deletes %d", len(del), want)
	}
}

// gofmtCasesOf returns the rule's test inputs, formatted and not.
func gofmtCasesOf(f *testing.F) [][]byte {
	entries, err := os.ReadDir("testdata/gofmt")
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("testdata/gofmt", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}
