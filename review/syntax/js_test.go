package syntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

func jsTexts(js *JSFile) []string {
	var out []string
	for i := range js.Toks {
		out = append(out, js.Text(i))
	}
	return out
}

func TestTokenizeJS(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"comments dropped", "a // b\n/* c */ d", []string{"a", "d"}},
		{"strings whole", `x = "a // b" + 'c'`, []string{"x", "=", `"a // b"`, "+", `'c'`}},
		{"template with nested template", "t = `a ${f(`b ${c}`)} d`;", []string{"t", "=", "`a ${f(`b ${c}`)} d`", ";"}},
		{"regexp after paren is division", "a = (b) / c / d", []string{"a", "=", "(", "b", ")", "/", "c", "/", "d"}},
		{"division after a postfix increment", "x = a++ / 2; y = (b) / c", []string{"x", "=", "a", "++", "/", "2", ";", "y", "=", "(", "b", ")", "/", "c"}},
		{"regexp literal", "x = /[/]\\/+/g.test(s)", []string{"x", "=", "/[/]\\/+/g", ".", "test", "(", "s", ")"}},
		{"jsx closing tag", "<p>{x}</p>", []string{"<", "p", ">", "{", "x", "}", "<", "/", "p", ">"}},
		{"operators", "a === b !== c => d?.e ?? f", []string{"a", "===", "b", "!==", "c", "=>", "d", "?.", "e", "??", "f"}},
		{"unterminated string ends at line", "<p>Don't</p>\nx()", []string{"<", "p", ">", "Don", "'t</p>", "x", "(", ")"}},
		{"shebang", "#!/usr/bin/env node\nx", []string{"x"}},
		// The lexer splits these; the view joins them again.
		{"compound operators", "a >>>= b; c ??= d; e **= f; g >>= h", []string{"a", ">>>=", "b", ";", "c", "??=", "d", ";", "e", "**=", "f", ";", "g", ">>=", "h"}},
		{"type argument closers", "let m: Map<K, Array<V>> = n", []string{"let", "m", ":", "Map", "<", "K", ",", "Array", "<", "V", ">>", "=", "n"}},
		{"regexp in a substitution", "u = `${s.replace(/}/g, '')}x` + y", []string{"u", "=", "`${s.replace(/}/g, '')}x`", "+", "y"}},
		{"template left open in a substitution", "t = `a ${b", []string{"t", "=", "`a ${b"}},
		{"control characters are space", "a\x00\x1bb", []string{"a", "b"}},
		{"crlf continuation in a string", "s = 'a\\\r\nb'; c", []string{"s", "=", "'a\\\r\nb'", ";", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, jsTexts(TokenizeJS(review.LangTypeScript, []byte(tt.src)))); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJSReadings checks the two readings of one lexer: TokensOf (what the
// symbol extraction reads: template pieces, ">" apart) and JS (what the
// rules read: the template and ">>>" whole), each memoised per file.
func TestJSReadings(t *testing.T) {
	f := &review.File{Path: "a.ts", Content: []byte("const a = `${x}` >>> 1\n"), Language: review.LangTypeScript}
	tk := TokensOf(f)
	if tk == nil || TokensOf(f) != tk {
		t.Fatal("TokensOf is not memoised per file")
	}
	js := JS(f)
	if JS(f) != js || js.Src != string(tk.Src) {
		t.Fatal("JS is not memoised per file")
	}
	if got := jsTexts(js); !cmp.Equal(got, []string{"const", "a", "=", "`${x}`", ">>>", "1"}) {
		t.Errorf("view tokens %q", got)
	}
	if n := len(tk.Toks); n != 10 { // const a = `${ x }` > > > 1
		t.Errorf("lexer tokens = %d, want 10", n)
	}
}

func TestTokenizeJSLinesAndMatch(t *testing.T) {
	js := TokenizeJS(review.LangTypeScript, []byte("f(`a\nb`, {\n  x: [1],\n})\ng()\n"))
	lo, hi := js.LineToks(5)
	if got := js.Text(lo); got != "g" || hi-lo != 3 {
		t.Errorf("line 5 tokens start with %q (%d tokens), want g (3)", got, hi-lo)
	}
	if !js.Toks[lo].NL {
		t.Error("g has no line break before it")
	}
	if m := js.Match(1); js.Text(m) != ")" || js.Toks[m].Line != 4 {
		t.Errorf("( matches %q on line %d", js.Text(m), js.Toks[m].Line)
	}
	if args := js.Args(1); len(args) != 2 {
		t.Errorf("got %d args, want 2", len(args))
	}
}

func TestJSFuncs(t *testing.T) {
	src := `async function load(a) { return a }
const save = async (x): Promise<void> => { await x }
class C {
  static async run(): Promise<{ ok: boolean }> { return { ok: true } }
  get name() { return "c" }
}
items.forEach((x) => { use(x) })
if (x) { y() }
const obj = { handle: function () {}, m() {} }
`
	f := &review.File{Path: "a.ts", Language: review.LangTypeScript, Content: []byte(src)}
	var got []string
	for _, fn := range JSFuncs(f) {
		s := fn.Name
		if fn.Async {
			s = "async " + s
		}
		got = append(got, s)
	}
	want := []string{"async load", "async save", "async run", "name", "", "handle", "m"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("funcs (-want +got):\n%s", diff)
	}
}

func TestJSAsyncFuncs(t *testing.T) {
	src := `async function a() {}
const b = async (x): Promise<{ ok: boolean }> => { return { ok: true } }
const c = async x => { await x }
class K { async d() {} static async *e() {} f() {} }
function g() {}
const h = async () => 1
`
	f := &review.File{Path: "a.ts", Language: review.LangTypeScript, Content: []byte(src)}
	var got []string
	for _, fn := range JSAsyncFuncs(f) {
		got = append(got, fn.Name)
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d", "e"}, got); diff != "" {
		t.Errorf("async funcs (-want +got):\n%s", diff)
	}
	if n := TokenizeJS(review.LangTypeScript, []byte(src)).LongestBlock(); n != 0 {
		t.Errorf("LongestBlock = %d, want 0", n)
	}
}

func TestJSImports(t *testing.T) {
	src := strings.Join([]string{
		`import cp, { exec as run, execSync } from 'node:child_process';`,
		`import * as fsp from "fs/promises";`,
		`import type { T } from "types";`,
		`const { spawn, exec: ex } = require('child_process');`,
		`const ser = require("node-serialize");`,
		`const es = require('child_process').execSync;`,
	}, "\n")
	f := &review.File{Path: "a.js", Language: review.LangJavaScript, Content: []byte(src)}
	want := []JSImport{
		{"cp", "node:child_process", "default"}, {"run", "node:child_process", "exec"}, {"execSync", "node:child_process", "execSync"},
		{"fsp", "fs/promises", "*"},
		{"spawn", "child_process", "spawn"}, {"ex", "child_process", "exec"},
		{"ser", "node-serialize", "*"},
		{"es", "child_process", "execSync"},
	}
	if diff := cmp.Diff(want, JSImports(f)); diff != "" {
		t.Errorf("imports (-want +got):\n%s", diff)
	}
}

// TestJSFuncsTruncated checks that truncated input (an unclosed body, a
// trailing async) yields no function rather than a panic.
func TestJSFuncsTruncated(t *testing.T) {
	for _, src := range []string{"function f() {", "async", "const f = async () => {", "class A { m(): T {", "x = async ("} {
		f := &review.File{Path: "a.ts", Language: review.LangTypeScript, Content: []byte(src)}
		if got := JSFuncs(f); len(got) != 0 {
			t.Errorf("%q: got %d funcs, want 0", src, len(got))
		}
		if got := JSAsyncFuncs(f); len(got) != 0 {
			t.Errorf("%q: got %d async funcs, want 0", src, len(got))
		}
	}
}

// TestTokenizeJSRegexpBackslashNewline: a backslash at the end of a line
// does not carry a regular expression onto the next one, so the lines of
// later tokens stay right (found by fuzzing review/internal/scan).
func TestTokenizeJSRegexpBackslashNewline(t *testing.T) {
	js := TokenizeJS(review.LangTypeScript, []byte("x = (/a\\\n/);\ny = 1\n"))
	var got []string
	for i, tk := range js.Toks {
		got = append(got, fmt.Sprintf("%d:%s", tk.Line, js.Text(i)))
	}
	want := []string{"1:x", "1:=", "1:(", "1:/", "1:a", "1:\\", "2:/", "2:)", "2:;", "3:y", "3:=", "3:1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
}

// TestLexJSX checks the lexer's reading of JSX in TSX: text is one token,
// apostrophes and all; tags, attribute strings (which span lines) and
// expressions are code; a "<" that cannot start an expression, or opens
// type parameters, is an operator.
func TestLexJSX(t *testing.T) {
	src := "const f = <T,>(x: T) => x < 2;\n" +
		"const e = cond && <p className=\"a\n b\">Don't {x /* c */}</p>;\n" +
		"const g = <Sel<Opt> v={<i />} />;\n" +
		"const h = <>a {`${<b>x</b>}`}</>;\n" +
		"let z = 'ok';\n"
	tk := Lex([]byte(src), review.LangTSX.Info().Tokens)
	var got []string
	for i, x := range tk.Toks {
		text := tk.Text(i)
		switch {
		case x.Kind == TokJSXText:
			got = append(got, "text:"+text)
		case x.Flags&TokJSXOpen != 0:
			got = append(got, "open")
		case x.Flags&TokJSXClose != 0:
			got = append(got, "close")
		case x.Flags&TokJSXEnd != 0:
			got = append(got, "end")
		case x.Flags&TokJSXChild != 0:
			got = append(got, "child")
		default:
			got = append(got, text)
		}
	}
	want := []string{
		"const", "f", "=", "<", "T", ",", ">", "(", "x", ":", "T", ")", "=>", "x", "<", "2", ";",
		"const", "e", "=", "cond", "&&", "open", "p", "className", "=", "\"a\n b\"", "end", "text:Don't", "child", "x", "}", "close", "/", "p", "end", ";",
		"const", "g", "=", "open", "Sel", "<", "Opt", ">", "v", "=", "{", "open", "i", "/", "end", "}", "/", "end", ";",
		"const", "h", "=", "open", "end", "text:a", "child", "`${", "open", "b", "end", "text:x", "close", "/", "b", "end", "}`", "}", "close", "/", "end", ";",
		"let", "z", "=", "'ok'", ";",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	// The same source as TypeScript has no JSX: the apostrophe opens a
	// string.
	ts := Lex([]byte(src), review.LangTypeScript.Info().Tokens)
	for i, x := range ts.Toks {
		if x.Kind == TokJSXText || x.Flags&(TokJSXOpen|TokJSXClose|TokJSXEnd|TokJSXChild) != 0 {
			t.Fatalf("TypeScript token %d %q read as JSX", i, ts.Text(i))
		}
	}
}

// TestExprEnd checks the lexing of one expression in braces.
func TestExprEnd(t *testing.T) {
	for _, tt := range []struct {
		src          string
		end          int
		code, spread bool
	}{
		{"{a ? '}' : b}x", 13, true, false},
		{"{...rest} y", 9, true, true},
		{"{/* } */}", 9, false, false},
		{"{`${a}}`}z", 9, true, false},
		{"{x / 2 }", 8, true, false},
		{"{open", 5, true, false},
	} {
		end, code, spread := ExprEnd(tt.src, 1)
		if end != tt.end || code != tt.code || spread != tt.spread {
			t.Errorf("ExprEnd(%q) = %d, %v, %v; want %d, %v, %v", tt.src, end, code, spread, tt.end, tt.code, tt.spread)
		}
	}
}
