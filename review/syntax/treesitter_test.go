//go:build treesitter

// The differential test of the Python lexer against tree-sitter-python, a
// full grammar, run by hand (it needs cgo):
//
//	go test -tags treesitter -run TreeSitter ./review/syntax
//	REVIEWLS_TS_CORPUS=/path/to/tree go test -tags treesitter -run TreeSitter -v ./review/syntax
//
// and of the JavaScript lexer (JSX included) against tree-sitter-javascript.
// tree-sitter is a test oracle only; the product links no cgo.

package syntax

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/reviewls/reviewls/review"
)

// TestTreeSitterPython compares the string literals and comments the
// lexer finds in Python files with the string and comment nodes of
// tree-sitter-python, on every file the grammar parses without an error
// (the Python fuzz seeds, or the tree REVIEWLS_TS_CORPUS names): the
// boundaries must agree on at least 99.9% of them.
func TestTreeSitterPython(t *testing.T) {
	root, corpus := corpusRoot("FuzzScanPython")
	var files int
	var c spanCount
	skipped := eachParsed(t, python.Language(), root, corpus, func(p string) bool { return strings.HasSuffix(p, ".py") },
		func(p string, src []byte, n *sitter.Node) {
			files++
			want := map[[2]int]bool{}
			tsSpans(n, want)
			dropShebang(src, want)
			tk := Lex(src, pySyntax)
			got := map[[2]int]bool{}
			for _, x := range tk.Toks {
				if x.Kind == TokString {
					got[[2]int{int(x.Off), int(x.End)}] = true
				}
			}
			for _, c := range tk.Comments {
				got[[2]int{int(c.Off), int(c.End)}] = true
			}
			c.add(p, src, want, got)
		})
	t.Logf("%d files (%d with syntax errors skipped): %s", files, skipped, c)
	c.check(t, files, 0.999)
}

// corpusRoot returns the tree REVIEWLS_TS_CORPUS names, or else the seeds
// of the fuzz target.
func corpusRoot(target string) (root string, corpus bool) {
	if root := os.Getenv("REVIEWLS_TS_CORPUS"); root != "" {
		return root, true
	}
	return filepath.Join("testdata", "fuzz", target), false
}

// eachParsed parses with grammar every file under root (every fuzz seed's
// value, or the files of a corpus that keep accepts) and calls fn on the
// ones it parses without an error, with a shebang line left out of the
// tree's comments. It returns how many had errors.
func eachParsed(t *testing.T, grammar unsafe.Pointer, root string, corpus bool, keep func(p string) bool,
	fn func(p string, src []byte, n *sitter.Node)) (skipped int) {
	t.Helper()
	parser := sitter.NewParser()
	defer parser.Close()
	if err := parser.SetLanguage(sitter.NewLanguage(grammar)); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || corpus && !keep(p) {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !corpus {
			src = fuzzSeedBytes(t, src)
		}
		tree := parser.Parse(src, nil)
		defer tree.Close()
		if tree.RootNode().HasError() {
			skipped++
			return nil
		}
		fn(p, src, tree.RootNode())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return skipped
}

// spanCount counts the spans tree-sitter and the lexer agree on.
type spanCount struct {
	agree, onlyTS, onlyLex int
	firstDiff              string
}

// add compares the spans of file p, tree-sitter's (want) and the lexer's.
func (c *spanCount) add(p string, src []byte, want, got map[[2]int]bool) {
	diff := func(what string, sp [2]int) {
		if c.firstDiff == "" {
			c.firstDiff = p + ": " + what + " only " + string(src[sp[0]:min(sp[1], sp[0]+60)])
		}
	}
	for sp := range want {
		if got[sp] {
			c.agree++
		} else {
			c.onlyTS++
			diff("tree-sitter", sp)
		}
	}
	for sp := range got {
		if !want[sp] {
			c.onlyLex++
			diff("lexer", sp)
		}
	}
}

func (c spanCount) String() string {
	return fmt.Sprintf("%d of %d agree; %d only in tree-sitter, %d only in the lexer; first difference: %q",
		c.agree, c.agree+c.onlyTS+c.onlyLex, c.onlyTS, c.onlyLex, c.firstDiff)
}

// check fails the test when nothing was compared or the agreement is
// under floor.
func (c spanCount) check(t *testing.T, files int, floor float64) {
	t.Helper()
	total := c.agree + c.onlyTS + c.onlyLex
	if files == 0 || total == 0 {
		t.Fatal("nothing compared")
	}
	if float64(c.agree) < floor*float64(total) {
		t.Errorf("agreement %.2f%% under %.1f%%", 100*float64(c.agree)/float64(total), 100*floor)
	}
}

// tsSpans adds the spans of the outermost string nodes and of the
// comments under n (a string's interpolations hold code, not more
// literals of the file).
func tsSpans(n *sitter.Node, out map[[2]int]bool) {
	switch n.Kind() {
	case "string", "comment":
		out[[2]int{int(n.StartByte()), int(n.EndByte())}] = true
		return
	}
	for i := range n.ChildCount() {
		tsSpans(n.Child(i), out)
	}
}

// fuzzSeedBytes returns the []byte value of a Go fuzz corpus file.
func fuzzSeedBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	s := string(b)
	i := strings.Index(s, "[]byte(")
	if i < 0 {
		t.Fatalf("not a fuzz seed: %.40q", s)
	}
	v := strings.TrimSuffix(strings.TrimSpace(s[i+len("[]byte("):]), ")")
	out, err := strconv.Unquote(v)
	if err != nil {
		t.Fatalf("seed value: %v", err)
	}
	return []byte(out)
}

// TestTreeSitterJavaScript compares the literals (strings, template
// literals whole, regular expressions), the JSX text and the comments of
// JavaScript and JSX files, as the rules' reading and the lexer give them,
// with tree-sitter-javascript's nodes, on the files the grammar parses
// without an error (the JavaScript fuzz seeds, or the .js, .mjs, .cjs and
// .jsx files of REVIEWLS_TS_CORPUS). A .js file that holds JSX is left out:
// the product reads JSX only in .jsx and .tsx.
func TestTreeSitterJavaScript(t *testing.T) {
	root, corpus := corpusRoot("FuzzTokenizeJS")
	var files, jsxInJS int
	var c spanCount
	isJS := func(p string) bool {
		switch filepath.Ext(p) {
		case ".js", ".mjs", ".cjs", ".jsx":
			return true
		}
		return false
	}
	skipped := eachParsed(t, javascript.Language(), root, corpus, isJS, func(p string, src []byte, n *sitter.Node) {
		lang := review.LangJavaScript
		if filepath.Ext(p) == ".jsx" || !corpus && strings.HasSuffix(p, "-jsx") {
			lang = review.LangJSX
		}
		want := map[[2]int]bool{}
		if jsSpans(n, src, want) && lang != review.LangJSX {
			jsxInJS++
			return
		}
		files++
		dropShebang(src, want)
		got := map[[2]int]bool{}
		js := TokenizeJS(lang, src)
		for _, x := range js.Toks {
			if x.Kind.IsString() || x.Kind == TokJSXText {
				got[[2]int{int(x.Off), int(x.End)}] = true
			}
		}
		for _, c := range Lex(src, lang.Info().Tokens).Comments {
			got[[2]int{int(c.Off), int(c.End)}] = true
		}
		c.add(p, src, want, got)
	})
	t.Logf("%d files (%d with syntax errors, %d .js files with JSX left out): %s", files, skipped, jsxInJS, c)
	c.check(t, files, 0.99)
}

// dropShebang removes a shebang line from the comments tree-sitter found:
// the lexer skips it.
func dropShebang(src []byte, want map[[2]int]bool) {
	if strings.HasPrefix(string(src), "#!") {
		delete(want, [2]int{0, strings.IndexByte(string(src)+"\n", '\n')})
	}
}

// jsSpans adds the spans of the outermost literal nodes, of the JSX text
// (trimmed of white space, as the lexer's token is) and of the comments
// under n, and reports whether n holds JSX. Inside a template literal
// only comments count: the rules' reading holds the template whole.
func jsSpans(n *sitter.Node, src []byte, out map[[2]int]bool) bool {
	return jsSpansIn(n, src, out, false)
}

func jsSpansIn(n *sitter.Node, src []byte, out map[[2]int]bool, inTemplate bool) (jsx bool) {
	switch k := n.Kind(); {
	case k == "comment":
		out[[2]int{int(n.StartByte()), int(n.EndByte())}] = true
		return false
	case inTemplate:
	case k == "template_string":
		out[[2]int{int(n.StartByte()), int(n.EndByte())}] = true
		inTemplate = true
	case k == "string" || k == "regex":
		out[[2]int{int(n.StartByte()), int(n.EndByte())}] = true
		return false
	case k == "jsx_text":
		a, b := int(n.StartByte()), int(n.EndByte())
		for a < b && src[a] <= ' ' {
			a++
		}
		for b > a && src[b-1] <= ' ' {
			b--
		}
		if a < b {
			out[[2]int{a, b}] = true
		}
		return true
	case k == "jsx_element" || k == "jsx_self_closing_element":
		jsx = true
	}
	for i := range n.ChildCount() {
		if jsSpansIn(n.Child(i), src, out, inTemplate) {
			jsx = true
		}
	}
	return jsx
}
