package syntax

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// commentSyntaxes are the distinct comment syntaxes of CommentSyntax.
var commentSyntaxes = func() []review.CommentSyntax {
	var out []review.CommentSyntax
	for _, lang := range []review.Language{review.LangGo, review.LangPython, review.LangShell, review.LangHTML,
		review.LangVue, review.LangSQL, review.LangJSON} {
		if s := CommentSyntax(lang); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}()

// subsequence reports whether the bytes of s appear in line in order.
func subsequence(s, line string) bool {
	j := 0
	for i := 0; i < len(line) && j < len(s); i++ {
		if line[i] == s[j] {
			j++
		}
	}
	return j == len(s)
}

// FuzzScanComments checks the comment scanner of every syntax: one entry
// per line, a column on the line, text taken from the line, and a scan
// that reads forward only (the comments of a prefix of the lines are those
// of the whole file).
func FuzzScanComments(f *testing.F) {
	for _, s := range []string{"", "/*", "'''\n#", "`\n//", "<!-- a\n-->", "a = '\\' // b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := review.SplitLines(data)
		for _, syn := range commentSyntaxes {
			got := scanComments(lines, syn)
			if len(got) != len(lines) {
				t.Fatalf("%+v: %d comments for %d lines", syn, len(got), len(lines))
			}
			for i, c := range got {
				if c.Col == 0 && c.Text != "" || c.Col < 0 || c.Col > len(lines[i]) || len(c.Text) > len(lines[i]) {
					t.Fatalf("%+v: line %d %q: comment %+v", syn, i+1, lines[i], c)
				}
				if !subsequence(strings.ReplaceAll(c.Text, " ", ""), lines[i]) {
					t.Fatalf("%+v: line %d %q: comment %q is not text of the line", syn, i+1, lines[i], c.Text)
				}
			}
			half := len(lines) / 2
			if prefix := scanComments(lines[:half], syn); !slices.Equal(prefix, got[:half]) {
				t.Fatalf("%+v: the first %d lines scan differently alone", syn, half)
			}
		}
		// The exported entry point reads the same lines.
		file := &review.File{Path: "f.py", Language: review.LangPython, Content: bytes.Clone(data)}
		if c := Comments(file); len(c) != len(lines) {
			t.Fatalf("Comments: %d entries for %d lines", len(c), len(lines))
		}
	})
}
