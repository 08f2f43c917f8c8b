package standards

import (
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// The unformatted inputs are named x.go.in, so they do not fail the
// repository's own formatting check.
func gofmtCases(t *testing.T) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir("testdata/gofmt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata/gofmt", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[lenstest.InputName(e.Name())] = b
	}
	return out
}

func TestGofmtFixes(t *testing.T) {
	total := 0
	for name, data := range gofmtCases(t) {
		n := lenstest.CheckFixes(t, Gofmt, lenstest.NewFile(name, data))
		total += n
		if n == 0 {
			continue
		}
		fd := lenstest.Check(t, Gofmt, lenstest.NewFile(name, data), 0, nil)[0]
		fixed, err := review.ApplyEdits(data, fd.Fix.Edits)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := format.Source(data); string(fixed) != string(want) {
			t.Errorf("%s: fix gives\n%s\nwant gofmt's output\n%s", name, fixed, want)
		}
	}
	if total < 6 {
		t.Errorf("checked %d fixes, want one per unformatted input", total)
	}
}

// TestGofmtScreen checks that the screen lets formatted inputs through
// without running gofmt, and stops every unformatted one.
func TestGofmtScreen(t *testing.T) {
	for name, data := range gofmtCases(t) {
		file := lenstest.NewFile(name, data)
		want := name != "clean.go" && name != "eof.go"
		if got := fmtSuspect(file, lens.Lines(file)); got != want {
			t.Errorf("%s: fmtSuspect = %v, want %v", name, got, want)
		}
	}
}

// TestGofmtUnchangedLines checks that a difference on unchanged lines only
// is not reported, and that the finding moves to the first changed line
// gofmt rewrites.
func TestGofmtUnchangedLines(t *testing.T) {
	src := []byte("package p\n\nfunc f() {\n  g()\n\tg()\n  g()\n}\n\nfunc g() {}\n")
	f := lenstest.NewFile("p.go", src)
	f.Lines = map[int]review.LineState{5: review.LineUnstaged}
	if got := lenstest.Check(t, Gofmt, f, 0, nil); len(got) != 0 {
		t.Errorf("got %d findings for a formatted changed line, want 0", len(got))
	}
	f = lenstest.NewFile("p.go", src)
	f.Lines = map[int]review.LineState{5: review.LineUnstaged, 6: review.LineUnstaged}
	got := lenstest.Check(t, Gofmt, f, 0, nil)
	if len(got) != 1 || got[0].Span.StartLine != 6 {
		t.Fatalf("got %+v, want one finding on line 6", got)
	}
}

// TestGofmtBlankLines checks that a doubled blank line is reported on the
// blank line gofmt removes, and blank lines at the end of a file are not.
func TestGofmtBlankLines(t *testing.T) {
	f := lenstest.NewFile("p.go", []byte("package p\n\nfunc f() {\n\tg()\n\n\n\tg()\n}\n\nfunc g() {}\n"))
	got := lenstest.Check(t, Gofmt, f, 0, nil)
	if len(got) != 1 || got[0].Span.StartLine != 6 {
		t.Fatalf("got %+v, want one finding on line 6", got)
	}
	if n := lenstest.CheckFixes(t, Gofmt, f); n != 1 {
		t.Errorf("checked %d fixes, want 1", n)
	}
}

func TestUnmatchedLines(t *testing.T) {
	for _, tt := range []struct {
		a, b []string
		want []int
	}{
		{[]string{"a", "b", "c"}, []string{"a", "b", "c"}, nil},
		{[]string{"a", "x", "c"}, []string{"a", "b", "c"}, []int{2}},
		{[]string{"a", "", "", "c"}, []string{"a", "", "c"}, []int{3}},
		{[]string{"x", "a", "y", "b"}, []string{"a", "b", "z"}, []int{1, 3}},
		{[]string{"a"}, nil, []int{1}},
	} {
		if got := unmatchedLines(tt.a, tt.b); !slices.Equal(got, tt.want) {
			t.Errorf("unmatchedLines(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
