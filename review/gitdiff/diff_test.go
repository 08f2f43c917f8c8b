package gitdiff

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     []review.Hunk
	}{
		{"equal", "a\nb\n", "a\nb\n", nil},
		{"both empty", "", "", nil},
		{"new file", "", "a\nb\n", []review.Hunk{{NewStart: 1, NewLines: 2, Lines: []string{"+a", "+b"}}}},
		{"deleted file", "a\n", "", []review.Hunk{{OldStart: 1, OldLines: 1, Lines: []string{"-a"}}}},
		{"insert at top", "b\nc\n", "a\nb\nc\n", []review.Hunk{{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 3, Lines: []string{"+a", " b", " c"}}}},
		{"change in middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nX\n6\n7\n8\n9\n", []review.Hunk{{
			OldStart: 2, OldLines: 7, NewStart: 2, NewLines: 7,
			Lines: []string{" 2", " 3", " 4", "-5", "+X", " 6", " 7", " 8"},
		}}},
		{"missing final newline added", "a\nb", "a\nb\n", []review.Hunk{{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, Lines: []string{" a", "-b", "+b"}}}},
		{"crlf keeps carriage return", "a\r\nb\r\n", "a\r\nc\r\n", []review.Hunk{{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, Lines: []string{" a\r", "-b\r", "+c\r"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Diff([]byte(tc.old), []byte(tc.new))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Diff (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDiffMatchesGit compares hunk headers and lines with `git diff
// --no-index` on hand-picked and on random inputs, with and without
// indentation (which the indent heuristic looks at).
func TestDiffMatchesGit(t *testing.T) {
	cases := [][2]string{
		{"a\nb\nc\n", "a\nc\n"},
		{"package a\n\nfunc A() {\n\treturn\n}\n", "package a\n\nfunc A() {\n\treturn\n}\n\nfunc B() {\n\treturn\n}\n"},
		{"x\n}\n\n}\n", "x\n}\n\ny\n}\n\n}\n"},
		{strings.Repeat("line\n", 20), strings.Repeat("line\n", 10) + "new\n" + strings.Repeat("line\n", 10)},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nY\n16\n17\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\nX\n3\n4\n5\n6\n7\n8\nY\n10\n"},
		{"a\nb", "a\nb\nc"},
		{"a\nb\n", "a\nb"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"{\n\ta\n}\n{\n\tb\n}\n", "{\n\ta\n}\n{\n\tc\n}\n{\n\tb\n}\n"},
		{
			"func A() {\n\treturn\n}\n\nfunc C() {\n\treturn\n}\n",
			"func A() {\n\treturn\n}\n\nfunc B() {\n\treturn\n}\n\nfunc C() {\n\treturn\n}\n",
		},
		{
			"if x {\n\tif y {\n\t\ta()\n\t}\n}\n",
			"if x {\n\tif y {\n\t\ta()\n\t}\n\tif z {\n\t\ta()\n\t}\n}\n",
		},
		{
			"def f():\n    pass\n\n\ndef g():\n    pass\n",
			"def f():\n    pass\n\n\ndef h():\n    pass\n\n\ndef g():\n    pass\n",
		},
	}
	r := rand.New(rand.NewSource(1))
	for range 300 {
		a := randomText(r)
		b := randomText(r)
		if r.Intn(2) == 0 {
			b = mutate(r, a)
		}
		cases = append(cases, [2]string{a, b})
	}
	dir := t.TempDir()
	for i, c := range cases {
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		if err := os.WriteFile(a, []byte(c[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(b, []byte(c[1]), 0o644); err != nil {
			t.Fatal(err)
		}
		want := gitDiffNoIndex(t, dir, "a", "b")
		got := renderHunks(Diff([]byte(c[0]), []byte(c[1])))
		if got != want {
			t.Errorf("case %d: %q -> %q\n--- Diff\n%s--- git\n%s", i, c[0], c[1], got, want)
		}
	}
}

// randomText returns lines drawn from a small set, some indented or blank,
// so that diffs often have several equally short alignments.
func randomText(r *rand.Rand) string {
	words := []string{"a", "b", "c", "\tx", "\ty", "\t\tz", "    w", "}", "", "{"}
	var sb strings.Builder
	for range r.Intn(40) {
		sb.WriteString(words[r.Intn(len(words))] + "\n")
	}
	if r.Intn(5) == 0 && sb.Len() > 0 {
		return strings.TrimSuffix(sb.String(), "\n")
	}
	return sb.String()
}

func mutate(r *rand.Rand, s string) string {
	lines := strings.SplitAfter(s, "\n")
	for range 1 + r.Intn(4) {
		if len(lines) == 0 {
			lines = append(lines, "x\n")
			continue
		}
		p := r.Intn(len(lines))
		switch r.Intn(3) {
		case 0:
			lines = append(lines[:p], lines[p+1:]...)
		case 1:
			lines = append(lines[:p], append([]string{"new\n"}, lines[p:]...)...)
		default:
			lines[p] = "changed\n"
		}
	}
	return strings.Join(lines, "")
}

// gitDiffNoIndex runs `git diff --no-index` on two files of dir and
// returns its hunks, without the "\ No newline" markers Diff omits.
func gitDiffNoIndex(t *testing.T, dir, a, b string) string {
	t.Helper()
	out := runGitAllowDiff(t, dir, "diff", "--no-index", "--no-color", "-U3", a, b)
	return hunksOnly(out)
}

// runGitAllowDiff runs a git diff command, whose exit status is 1 when
// there are differences.
func runGitAllowDiff(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return runGit(&failTB{TB: t}, dir, args...)
}

func hunksOnly(out string) string {
	var sb strings.Builder
	started := false
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(l, "@@") {
			started = true
			end := strings.Index(l[2:], "@@")
			l = l[:end+4] + "\n"
		}
		if !started || l == "" || strings.HasPrefix(l, "\\") {
			continue
		}
		if !strings.HasSuffix(l, "\n") {
			l += "\n"
		}
		sb.WriteString(l)
	}
	return sb.String()
}

func renderHunks(hs []review.Hunk) string {
	var sb strings.Builder
	for _, h := range hs {
		sb.WriteString(hunkHeader(h) + "\n")
		for _, l := range h.Lines {
			sb.WriteString(l + "\n")
		}
	}
	return sb.String()
}

func hunkHeader(h review.Hunk) string {
	r := func(s, n int) string {
		if n == 1 {
			return fmt.Sprint(s)
		}
		return fmt.Sprintf("%d,%d", s, n)
	}
	return "@@ -" + r(h.OldStart, h.OldLines) + " +" + r(h.NewStart, h.NewLines) + " @@"
}

func hunkHeaders(hs []review.Hunk) []string {
	var out []string
	for _, h := range hs {
		out = append(out, hunkHeader(h))
	}
	return out
}

// gitHunkHeaders runs a git diff command in dir and returns its hunk
// headers.
func gitHunkHeaders(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	return hunkHeadersOf(runGit(t, dir, args...))
}

// hunkHeadersOf returns the hunk headers of git diff output.
func hunkHeadersOf(out string) []string {
	var hs []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "@@") {
			hs = append(hs, l[:strings.Index(l[2:], "@@")+4])
		}
	}
	return hs
}

func errorsIsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

func TestDiffLargeRewriteIsBounded(t *testing.T) {
	// A full rewrite of a large file must not take the O(N*D) worst case.
	var a, b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&a, "old line %d\n", i)
		fmt.Fprintf(&b, "new line %d\n", i)
		if i%7 == 0 {
			a.WriteString("}\n")
			b.WriteString("}\n")
		}
	}
	hs := Diff([]byte(a.String()), []byte(b.String()))
	added, deleted := 0, 0
	for _, h := range hs {
		for _, l := range h.Lines {
			switch {
			case strings.HasPrefix(l, "+new"):
				added++
			case strings.HasPrefix(l, "-old"):
				deleted++
			}
		}
	}
	// The "}" lines, repeated thousands of times among unique lines, may
	// count as changed too (as in git); every real line must.
	if added != 20000 || deleted != 20000 {
		t.Errorf("rewrite: +%d -%d, want +20000 -20000", added, deleted)
	}
}

func TestEditsNewToOld(t *testing.T) {
	a := splitLines([]byte("a\nb\nc\nd\n"))
	b := splitLines([]byte("a\nX\nc\nd\nY\n"))
	e := diffLines(a, b)
	if diff := cmp.Diff([]int{0, -1, 2, 3, -1}, e.newToOld()); diff != "" {
		t.Errorf("newToOld (-want +got):\n%s", diff)
	}
}
