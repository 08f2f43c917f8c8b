package process

import (
	"go/scanner"
	"go/token"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// fuzzLangs are the languages FuzzDirectives lexes files as: one of each
// comment syntax, and an unknown language.
var fuzzLangs = []review.Language{
	review.LangGo, review.LangJavaScript, review.LangTSX, review.LangPython, review.LangShell, review.LangYAML,
	review.LangHTML, review.LangMarkdown, review.LangSQL, review.LangRuby, review.LangVue, review.LangJSON, review.LangUnknown,
}

// FuzzDirectives checks the suppression parser on arbitrary files of
// every comment syntax: it never panics; every directive it finds sits on
// a line that holds the marker, with a one-line trimmed reason, valid
// exactly when it reports no problem; and, for input that Go's own
// scanner accepts, the directives of a Go file are exactly the lines
// where a real Go comment holds the marker — none in a string, none
// missed.
//
// Seed corpus: testdata/fuzz/FuzzDirectives. Run with
//
//	go test -run XXX -fuzz FuzzDirectives -fuzztime 10m -parallel 1 ./review/process
func FuzzDirectives(f *testing.F) {
	f.Add(uint8(0), "package a\n\nconst k = \"reviewls:ignore security/hardcoded-secret x AKIAZ7Q2R5T6W3X4Y6B2\"\n")
	f.Add(uint8(0), "u := \"http://x\" // reviewls:ignore security/x test fixture value\n")
	f.Add(uint8(3), "k = '# reviewls:ignore a/b c d e'  # reviewls:ignore a/b <why this finding does not apply>\n")
	f.Fuzz(func(t *testing.T, lang uint8, src string) {
		language := fuzzLangs[int(lang)%len(fuzzLangs)]
		file := &review.File{Path: "f", Language: language, Content: []byte(src)}
		ds := Directives(file)
		lines := lens.SplitLines(file.Content)
		for _, d := range ds {
			if d.Line < 1 || d.Line > len(lines) {
				t.Fatalf("directive on line %d of %d", d.Line, len(lines))
			}
			if !strings.Contains(lines[d.Line-1], review.IgnoreDirective) {
				t.Fatalf("directive on line %d, which holds no marker: %q", d.Line, lines[d.Line-1])
			}
			if d.Reason != strings.TrimSpace(d.Reason) || strings.ContainsAny(d.Reason, "\n") {
				t.Fatalf("reason %q is not one trimmed line", d.Reason)
			}
			if d.Valid() != (d.Problem == "") {
				t.Fatal("Valid disagrees with Problem")
			}
			// The directive policy itself is fuzzed with the parser
			// (review.FuzzParseDirective).
		}
		if language == review.LangGo {
			if want, ok := goCommentMarkerLines(src); ok {
				got := map[int]bool{}
				for _, d := range ds {
					got[d.Line] = true
				}
				for n := range want {
					if !got[n] {
						t.Fatalf("line %d: a Go comment holds the marker, but no directive was found:\n%s", n, src)
					}
				}
				for n := range got {
					if !want[n] {
						t.Fatalf("line %d: a directive was found outside any Go comment:\n%s", n, src)
					}
				}
			}
		}
	})
}

// goCommentMarkerLines returns the lines on which a comment, as Go's own
// scanner reads src, holds the directive marker; false when the scanner
// reports an error (the lexers may then disagree about what is a string).
func goCommentMarkerLines(src string) (map[int]bool, bool) {
	fset := token.NewFileSet()
	tf := fset.AddFile("f.go", -1, len(src))
	var s scanner.Scanner
	bad := false
	s.Init(tf, []byte(src), func(token.Position, string) { bad = true }, scanner.ScanComments)
	lines := map[int]bool{}
	for {
		pos, tok, _ := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		// The scanner drops carriage returns from lit, so find the
		// comment's extent in src itself.
		off := tf.Offset(pos)
		end := len(src)
		if strings.HasPrefix(src[off:], "//") {
			if i := strings.IndexByte(src[off:], '\n'); i >= 0 {
				end = off + i
			}
		} else if i := strings.Index(src[off+2:], "*/"); i >= 0 {
			end = off + 2 + i
		}
		for i := off; ; {
			j := strings.Index(src[i:end], review.IgnoreDirective)
			if j < 0 {
				break
			}
			lines[tf.Line(tf.Pos(i+j))] = true
			i += j + len(review.IgnoreDirective)
		}
	}
	return lines, !bad
}
