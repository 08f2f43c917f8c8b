package symbol

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// thousandLines returns a file of at least 1,000 lines made of the
// declarations of a testdata file repeated: the head (package clause and
// imports) once, then the rest as often as needed.
func thousandLines(tb testing.TB, name, bodyFrom string) []byte {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	head, body := src, []byte(nil)
	if i := bytes.Index(src, []byte(bodyFrom)); i >= 0 {
		head, body = src[:i], src[i:]
	}
	if body == nil {
		head, body = nil, src
	}
	out := append([]byte(nil), head...)
	for bytes.Count(out, []byte("\n")) < 1000 {
		out = append(out, body...)
	}
	return out
}

func BenchmarkExtract(b *testing.B) {
	for _, tc := range []struct {
		name     string
		lang     review.Language
		bodyFrom string
	}{
		{"store.go", review.LangGo, "// ErrNotFound"},
		{"cart.tsx", review.LangTSX, ""},
		{"pipeline.py", review.LangPython, ""},
		{"Inventory.java", review.LangJava, "/**"},
		{"parser.rs", review.LangRust, "/// The largest"},
	} {
		content := thousandLines(b, tc.name, tc.bodyFrom)
		b.Run(fmt.Sprintf("%s/%dlines", tc.lang, bytes.Count(content, []byte("\n"))), func(b *testing.B) {
			b.SetBytes(int64(len(content)))
			b.ReportAllocs()
			for b.Loop() {
				if len(Extract(tc.name, content, tc.lang)) == 0 {
					b.Fatal("no symbols")
				}
			}
		})
	}
}

// BenchmarkExtractMinified extracts the symbols of a 200 KB file on one
// line, as minifiers write them: 25,000 declarations on the same line.
// Each symbol's hash covered the whole line, so this took seconds (7 s of
// CPU in a review); symbols on the same lines now share one hash.
func BenchmarkExtractMinified(b *testing.B) {
	content := bytes.Repeat([]byte("var a=1;"), 25000)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		if len(Extract("app.min.js", content, review.LangJavaScript)) == 0 {
			b.Fatal("no symbols")
		}
	}
}

// TestSameLineSymbolsShareHash checks the hash of symbols that span the
// same lines: it is the hash of those lines, whichever symbol asked.
func TestSameLineSymbolsShareHash(t *testing.T) {
	content := []byte("var a=1; var b=2;\nvar c=3;\n")
	syms := Extract("x.js", content, review.LangJavaScript)
	if len(syms) != 3 {
		t.Fatalf("symbols = %+v, want a, b and c", syms)
	}
	starts := syntax.LineStarts(content)
	for _, s := range syms {
		if want := hashLines(content, starts, s.Line, s.EndLine); s.Hash != want {
			t.Errorf("%s: hash %x, want %x (the hash of lines %d-%d)", s.Name, s.Hash, want, s.Line, s.EndLine)
		}
	}
	if syms[0].Hash != syms[1].Hash || syms[0].Hash == syms[2].Hash {
		t.Errorf("hashes %x %x %x: want a and b (one line) equal, c different", syms[0].Hash, syms[1].Hash, syms[2].Hash)
	}
}
