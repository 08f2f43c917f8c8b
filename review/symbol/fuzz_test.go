package symbol

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// fuzzLangs are the languages every fuzz input is read as: a Go file read
// as Rust is as good a malformed input as any.
var fuzzLangs = []review.Language{
	review.LangGo, review.LangPython, review.LangJavaScript, review.LangTSX,
	review.LangJava, review.LangRust,
}

// FuzzExtract feeds arbitrary bytes to every extractor, bypassing the
// recover of Extract, and checks the invariants of the results and that
// the functions built on them do not panic either.
func FuzzExtract(f *testing.F) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) == ".golden" {
			continue
		}
		b, err := os.ReadFile(filepath.Join("testdata", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"",
		"package p\nfunc (",
		"package p\ntype T struct {\n\tx int",
		"package p\nfunc f() { s := `unterminated",
		"def f(:\n  '''open docstring",
		"class A:\n\tdef m(self,\n",
		"export class X { get( } }",
		"const f = async <T,>(x: T): Promise<",
		"let s = `${a ${b}`; /* open",
		"<div>{a}</div> } ) ]",
		"impl<T for X { fn a(&self) -> 'a",
		"fn f() { let c = '\\u{1F600}'; let r = r##\"x\"#; }",
		"public class A { void m() { String s = \"\"\"\n text",
		"@interface A { int v() default",
		"\x00\xff\xfe{[(<",
		"}}}])))",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, lang := range fuzzLangs {
			syms := extract("f", src, lang, nil)
			for i, s := range syms {
				if s.Line < 1 || s.EndLine < s.Line || s.NameCol < 1 || s.Hash == 0 {
					t.Fatalf("%s: bad symbol %+v", lang, s)
				}
				if i > 0 && syms[i-1].Line > s.Line {
					t.Fatalf("%s: symbols out of order: %+v before %+v", lang, syms[i-1], s)
				}
			}
			Enclosing(syms, 2)
			if len(syms) > 0 {
				s := syms[len(syms)/2]
				calls(src, lang, s)
				typesUsed(src, lang, s)
				IdentAt(src, s.Line, s.NameCol)
			}
		}
		IdentAt(src, 1, 3)
	})
}

// TestExtractTruncated reads every prefix (in steps) of the realistic
// testdata files, the shape of a file being typed: no panic, and sane
// symbols.
func TestExtractTruncated(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) == ".golden" {
			continue
		}
		src, err := os.ReadFile(filepath.Join("testdata", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		lang := review.DetectLanguage(e.Name(), src)
		for cut := 0; cut <= len(src); cut += 11 {
			syms := extract(e.Name(), src[:cut], lang, nil)
			for _, s := range syms {
				if s.Line < 1 || s.EndLine < s.Line || s.NameCol < 1 {
					t.Fatalf("%s cut at %d: bad symbol %+v", e.Name(), cut, s)
				}
			}
		}
	}
}

// FuzzCutBodies checks the body cutting of the Go extractor: every byte
// kept maps back through the cuts to the same byte of the content, each
// cut leaves the "{" and "}" of its body, and on a file that parses
// cleanly the symbols equal those of a parse with the bodies kept.
func FuzzCutBodies(f *testing.F) {
	for _, s := range []string{"", "package p\nfunc f() { x() }\n", "package p\nvar f = func() {\n\treturn\n}\n",
		"package p\nfunc f() struct{ a int } { return struct{ a int }{} }\n", "package p\nfunc f() {"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		out, cuts := syntax.GoCutBodies(content)
		if cuts == nil && !bytes.Equal(out, content) {
			t.Fatal("no cuts, yet the output differs from the content")
		}
		g := &goFile{src: content, cuts: cuts}
		prevAt, prevShift := 0, 0
		for _, c := range cuts {
			if c.At < prevAt || c.At > len(out) || c.Shift <= prevShift || c.At == 0 || out[c.At-1] != '{' {
				t.Fatalf("cut %+v after at %d shift %d (%d bytes out)", c, prevAt, prevShift, len(out))
			}
			if o := c.At + c.Shift; o < len(content) && content[o] != '}' {
				t.Fatalf("cut %+v resumes at %q, not at the closing brace", c, content[o])
			}
			prevAt, prevShift = c.At, c.Shift
		}
		if len(out)+prevShift != len(content) {
			t.Fatalf("%d bytes out and %d cut for %d bytes of content", len(out), prevShift, len(content))
		}
		for o := range out {
			if m := g.off(token.Pos(o)); content[m] != out[o] {
				t.Fatalf("offset %d maps to %d: %q, want %q", o, m, content[m], out[o])
			}
		}
		fset := token.NewFileSet()
		if _, err := parser.ParseFile(fset, "", content, parser.SkipObjectResolution); err != nil {
			return
		}
		cut, _ := extractGo(content)
		full := parseGo(content, true).symbols()
		for i := range cut {
			cut[i].Hash = 0
		}
		if diff := cmp.Diff(full, cut); diff != "" {
			t.Fatalf("symbols with bodies cut differ (-full +cut):\n%s", diff)
		}
	})
}
