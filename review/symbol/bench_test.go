package symbol

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/reviewls/reviewls/review"
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
	for _, tc := range []struct{ name, lang, bodyFrom string }{
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
