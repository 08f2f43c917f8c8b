package syntax

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestCommentsAgainstGoScanner checks the hand-written comment lexer on Go
// against go/scanner, the oracle: on every Go file of this module (real
// code, with comments in strings, raw strings, runes and block comments
// across lines), each line's comment parts must be exactly the pieces of
// the comments go/scanner finds. REVIEWLS_GO_CORPUS=<dir> runs it over
// every Go file under another tree instead (a clone of a real
// repository, by hand).
func TestCommentsAgainstGoScanner(t *testing.T) {
	var paths []string
	if dir := os.Getenv("REVIEWLS_GO_CORPUS"); dir != "" {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				paths = append(paths, p)
			}
			return nil
		})
	}
	if len(paths) == 0 {
		for _, pat := range []string{"../*.go", "../*/*.go", "../*/*/*.go", "../../*/*.go", "../../*/*/*.go"} {
			m, _ := filepath.Glob(pat)
			paths = append(paths, m...)
		}
	}
	if len(paths) < 100 {
		t.Fatalf("found %d Go files; the corpus is this module's own source", len(paths))
	}
	lines := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := goCommentParts(src)
		if !ok {
			continue // go/scanner rejects it: no ground truth
		}
		f := &review.File{Path: p, Language: review.LangGo, Content: src}
		got := CommentParts(f)
		ls := f.TextLines()
		lines += len(ls)
		for i := range ls {
			var g [][2]int
			for _, c := range got[i] {
				g = append(g, [2]int{c.From, c.To})
			}
			if !slices.Equal(g, want[i+1]) {
				t.Errorf("%s:%d %q: comment parts %v, go/scanner %v", p, i+1, ls[i], g, want[i+1])
				break
			}
		}
	}
	t.Logf("%d files, %d lines agree with go/scanner", len(paths), lines)
}

// goCommentParts returns, per 1-based line, the byte ranges of the comment
// pieces go/scanner finds on it (a block comment split at line ends, "\r"
// left out); ok is false when the scanner reports an error.
func goCommentParts(src []byte) (map[int][][2]int, bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("x.go", -1, len(src))
	var s scanner.Scanner
	bad := false
	s.Init(file, src, func(token.Position, string) { bad = true }, scanner.ScanComments)
	out := map[int][][2]int{}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		p := file.Position(pos)
		line, col := p.Line, p.Column-1
		for i, piece := range strings.Split(lit, "\n") {
			piece = strings.TrimSuffix(piece, "\r")
			from := col
			if i > 0 {
				from = 0
			}
			out[line+i] = append(out[line+i], [2]int{from, from + len(piece)})
		}
	}
	return out, !bad
}

// TestCommentsAgainstGoScannerCases holds the shapes that this module's
// own files lack and real repositories have (moby's license headers open
// "/*" alone on a line), checked against go/scanner the same way.
func TestCommentsAgainstGoScannerCases(t *testing.T) {
	for _, src := range []string{
		"/*\nCopyright the authors.\n\nLicensed under the terms.\n*/\n\npackage p\n",
		"package p\n\n\t/*\n\t */\nvar x = 1 /*\n\n*/ + 2\n",
		"package p\n\nvar s = `/* not\na comment */` // but this is\n",
		"package p\n\nvar r = '/' /* a */ /* b\r\n c */\n",
	} {
		want, ok := goCommentParts([]byte(src))
		if !ok {
			t.Fatalf("go/scanner rejects %q", src)
		}
		f := &review.File{Path: "x.go", Language: review.LangGo, Content: []byte(src)}
		got := CommentParts(f)
		for i, l := range f.TextLines() {
			var g [][2]int
			for _, c := range got[i] {
				g = append(g, [2]int{c.From, c.To})
			}
			if !slices.Equal(g, want[i+1]) {
				t.Errorf("%q line %d %q: comment parts %v, go/scanner %v", src, i+1, l, g, want[i+1])
			}
		}
	}
}
