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
			syms := extract("f", src, lang)
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
			syms := extract(e.Name(), src[:cut], lang)
			for _, s := range syms {
				if s.Line < 1 || s.EndLine < s.Line || s.NameCol < 1 {
					t.Fatalf("%s cut at %d: bad symbol %+v", e.Name(), cut, s)
				}
			}
		}
	}
}

// lexLangs are the languages with a tokenizer syntax.
var lexLangs = []review.Language{
	review.LangGo, review.LangJavaScript, review.LangJava, review.LangC, review.LangRust,
	review.LangPython, review.LangRuby, review.LangShell,
}

// FuzzLex checks the tokenizer of every syntax: tokens and comments
// together cover the input in order with only white space between them
// (after a "#!" line), none is empty, token lines and first-on-line flags
// agree with the line starts, and bracket matches are symmetric, of one
// kind and nested. The renderings built on the tokens must not panic.
func FuzzLex(f *testing.F) {
	for _, s := range []string{"", "#!/bin/sh\necho", "/* /* */", "r#\"", "'\\u{", "`${`${", "\"\"\"", "a$#b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		starts := lineStarts(src)
		if len(starts) != bytes.Count(src, []byte("\n"))+1 {
			t.Fatalf("%d line starts for %d line breaks", len(starts), bytes.Count(src, []byte("\n")))
		}
		for _, lang := range lexLangs {
			syn, _ := syntaxOf(lang)
			lx := lex(src, syn)
			pos := 0
			if bytes.HasPrefix(src, []byte("#!")) {
				if k := bytes.IndexByte(src, '\n'); k >= 0 {
					pos = k
				} else {
					pos = len(src)
				}
			}
			ti, ci := 0, 0
			lastLine := int32(0)
			for ti < len(lx.toks) || ci < len(lx.comments) {
				var off, end int
				isTok := ci >= len(lx.comments) || ti < len(lx.toks) && lx.toks[ti].off < lx.comments[ci].off
				if isTok {
					tk := lx.toks[ti]
					off, end = int(tk.off), int(tk.end)
					if want := int32(lineOfOffset(starts, off)); tk.line != want || tk.nl != (want != lastLine) {
						t.Fatalf("%s: token %d %q: line %d nl %v, want line %d", lang, ti, lx.text(ti), tk.line, tk.nl, want)
					}
					lastLine = tk.line
					if c := lx.col(ti); c < 1 || c > off+1 {
						t.Fatalf("%s: token %d: column %d", lang, ti, c)
					}
					ti++
				} else {
					c := lx.comments[ci]
					off, end = int(c.off), int(c.end)
					if text := src[off:end]; c.line && !bytes.HasPrefix(text, []byte(syn.LineComment)) ||
						!c.line && !bytes.HasPrefix(text, []byte("/*")) || c.line && bytes.IndexByte(text, '\n') >= 0 {
						t.Fatalf("%s: comment %q (line comment %v)", lang, text, c.line)
					}
					ci++
				}
				if off < pos || end <= off || end > len(src) {
					t.Fatalf("%s: span [%d,%d) after %d of %d bytes", lang, off, end, pos, len(src))
				}
				if gap := bytes.Trim(src[pos:off], " \t\n\r\f\v"); len(gap) > 0 {
					t.Fatalf("%s: bytes %q at %d are neither token, comment nor space", lang, gap, pos)
				}
				pos = end
			}
			if gap := bytes.Trim(src[pos:], " \t\n\r\f\v"); len(gap) > 0 {
				t.Fatalf("%s: bytes %q at the end are neither token, comment nor space", lang, gap)
			}
			n := len(lx.toks)
			var open []int // matched openers not yet closed
			for i := range n {
				switch m := lx.match(i); {
				case m < 0:
				case m >= n || lx.match(m) != i:
					t.Fatalf("%s: token %d matches %d, which matches %d", lang, i, m, lx.match(m))
				case m > i:
					if pair := lx.text(i) + lx.text(m); pair != "()" && pair != "[]" && pair != "{}" {
						t.Fatalf("%s: tokens %d and %d pair %q", lang, i, m, pair)
					}
					open = append(open, i)
				case len(open) == 0 || open[len(open)-1] != m:
					t.Fatalf("%s: pair %d-%d crosses another", lang, m, i)
				default:
					open = open[:len(open)-1]
				}
				if e := lx.endLine(i); e < lx.line(i) {
					t.Fatalf("%s: token %d ends on line %d before its line %d", lang, i, e, lx.line(i))
				}
			}
			lx.head(0, n)
			lx.join(n/2, n)
			lx.docBefore(len(src))
			if n > 0 {
				lx.docBefore(int(lx.toks[n/2].off))
			}
		}
	})
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
		out, cuts := cutBodies(content)
		if cuts == nil && !bytes.Equal(out, content) {
			t.Fatal("no cuts, yet the output differs from the content")
		}
		g := &goFile{src: content, cuts: cuts}
		prevAt, prevShift := 0, 0
		for _, c := range cuts {
			if c.at < prevAt || c.at > len(out) || c.shift <= prevShift || c.at == 0 || out[c.at-1] != '{' {
				t.Fatalf("cut %+v after at %d shift %d (%d bytes out)", c, prevAt, prevShift, len(out))
			}
			if o := c.at + c.shift; o < len(content) && content[o] != '}' {
				t.Fatalf("cut %+v resumes at %q, not at the closing brace", c, content[o])
			}
			prevAt, prevShift = c.at, c.shift
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
