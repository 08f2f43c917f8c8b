package syntax

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// skipJSGap returns the offset after the white space and comments that
// start at src[i], stopping at hi: what the JavaScript tokenizer skips
// between tokens.
func skipJSGap(src string, i, hi int) int {
	for i < hi {
		switch {
		case src[i] <= ' ':
			i++
		case strings.HasPrefix(src[i:hi], "//"):
			k := strings.IndexByte(src[i:hi], '\n')
			if k < 0 {
				return hi
			}
			i += k
		case strings.HasPrefix(src[i:hi], "/*"):
			k := strings.Index(src[i+2:hi], "*/")
			if k < 0 {
				return hi
			}
			i += 2 + k + 2
		default:
			return i
		}
	}
	return i
}

// checkPairs checks bracket matches: symmetric, of one kind, and nested
// (the matched tokens, read in order, close the last one still open).
func checkPairs(t *testing.T, n int, match func(int) int, text func(int) string) {
	t.Helper()
	var open []int
	for i := range n {
		j := match(i)
		switch {
		case j < 0:
		case j >= n || match(j) != i:
			t.Fatalf("token %d matches %d, which matches %d", i, j, match(j))
		case i < j:
			if pair := text(i) + text(j); pair != "()" && pair != "[]" && pair != "{}" {
				t.Fatalf("tokens %d and %d pair %q", i, j, pair)
			}
			open = append(open, i)
		case len(open) == 0 || open[len(open)-1] != j:
			t.Fatalf("pair %d-%d crosses another", j, i)
		default:
			open = open[:len(open)-1]
		}
	}
}

// FuzzTokenizeJS checks that the JavaScript tokens cover the input in
// order, with only white space and comments between them, that their
// lines, line-break flags and bracket matches are right, and that the
// readers built on them (functions, imports, statements) stay in range.
func FuzzTokenizeJS(f *testing.F) {
	for _, s := range []string{"", "#!/usr/bin/env node\nx", "a /* b", "`${`${`", "'\\", "x = /[/]/g", "</a>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lang := range []review.Language{review.LangTypeScript, review.LangTSX} {
			checkTokenizeJS(t, string(data), lang)
		}
	})
}

// checkTokenizeJS checks the rules' reading of src in lang; see
// FuzzTokenizeJS.
func checkTokenizeJS(t *testing.T, src string, lang review.Language) {
	t.Helper()
	js := TokenizeJS(lang, []byte(src))
	pos, line := 0, 1
	if strings.HasPrefix(src, "#!") {
		if k := strings.IndexByte(src, '\n'); k >= 0 {
			pos = k
		} else {
			pos = len(src)
		}
	}
	for i, tk := range js.Toks {
		off, end := int(tk.Off), int(tk.End)
		if off < pos || end <= off || end > len(src) {
			t.Fatalf("token %d [%d,%d) after offset %d of %d bytes", i, off, end, pos, len(src))
		}
		if g := skipJSGap(src, pos, off); g != off {
			t.Fatalf("token %d at %d: bytes %q before it are neither space nor comment", i, off, src[g:off])
		}
		nl := i == 0 || strings.Contains(src[pos:off], "\n")
		line += strings.Count(src[pos:off], "\n")
		if int(tk.Line) != line || tk.NL != nl {
			t.Fatalf("token %d %q: line %d nl %v, want line %d nl %v", i, js.Text(i), tk.Line, tk.NL, line, nl)
		}
		line += strings.Count(src[off:end], "\n")
		text := js.Text(i)
		switch tk.Kind {
		case TokString:
			if text[0] != '"' && text[0] != '\'' {
				t.Fatalf("string token %q", text)
			}
		case TokTemplate:
			if text[0] != '`' {
				t.Fatalf("template token %q", text)
			}
		case TokRegexp:
			if text[0] != '/' || strings.Contains(text, "\n") {
				t.Fatalf("regexp token %q", text)
			}
		case TokIdent, TokNumber:
			if strings.ContainsAny(text, " \t\n") {
				t.Fatalf("word token %q", text)
			}
		}
		if c := js.Col(i); c < 1 || c > end {
			t.Fatalf("token %d: column %d", i, c)
		}
		if l, c := js.EndCol(i); l < int(tk.Line) || c < 1 {
			t.Fatalf("token %d: end %d:%d", i, l, c)
		}
		pos = end
	}
	if g := skipJSGap(src, pos, len(src)); g != len(src) {
		t.Fatalf("bytes %q after the last token", src[g:])
	}
	if lines := strings.Count(src, "\n") + 1; len(js.lineStart) != lines {
		t.Fatalf("%d line starts for %d lines", len(js.lineStart), lines)
	}
	next := 0
	for n := 1; n <= len(js.lineStart); n++ {
		lo, hi := js.LineToks(n)
		if lo != next || hi < lo {
			t.Fatalf("line %d: tokens [%d,%d), want from %d", n, lo, hi, next)
		}
		for i := lo; i < hi; i++ {
			if int(js.Toks[i].Line) != n {
				t.Fatalf("line %d holds token %d of line %d", n, i, js.Toks[i].Line)
			}
		}
		next = hi
	}
	if next != len(js.Toks) {
		t.Fatalf("lines hold %d of %d tokens", next, len(js.Toks))
	}
	checkPairs(t, len(js.Toks), js.Match, js.Text)

	file := &review.File{Path: "f.ts", Language: lang, Content: []byte(src)}
	for _, funcs := range [][]JSFunc{JSFuncs(file), JSAsyncFuncs(file)} {
		for _, fn := range funcs {
			if fn.Start < 0 || fn.Start > fn.Open || fn.Open >= fn.Close || fn.Close >= len(js.Toks) ||
				!js.Is(fn.Open, "{") || js.Match(fn.Open) != fn.Close {
				t.Fatalf("function %+v", fn)
			}
			if e := JSEnclosing(funcs, fn.Open+1); fn.Open+1 < fn.Close && e == nil {
				t.Fatalf("no function encloses the body of %+v", fn)
			}
		}
	}
	JSImports(file)
	js.LongestBlock()
	for i := range js.Toks {
		js.StatementStart(i)
		js.EndsStatement(i)
		if c := js.Chain(i); c < i || c > len(js.Toks) {
			t.Fatalf("Chain(%d) = %d", i, c)
		}
		if c := js.ChainBack(i); c < 0 || c > i+1 {
			t.Fatalf("ChainBack(%d) = %d", i, c)
		}
		switch js.Text(i) {
		case "{":
			js.BlockBrace(i)
		case "(":
			for _, a := range js.Args(i) {
				if a[0] > a[1] || a[1] > len(js.Toks) {
					t.Fatalf("Args(%d): %v", i, a)
				}
				js.ConstExpr(a[0], a[1])
				js.Span(a[0], a[1])
			}
		}
		js.StringValue(i)
	}
}
