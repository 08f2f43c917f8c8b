package lenstest

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// CheckFixes applies the fix of every finding rule reports on f, one at a
// time, and asserts that the fixed file still parses, that a Go file has
// no type error the original did not have (see [TypeErrors]), and that the
// rule no longer reports that finding. It returns the number of fixes
// checked.
func CheckFixes(t *testing.T, rule *lens.Rule, f *review.File) int {
	t.Helper()
	n := 0
	var before map[string]int
	if f.Language == review.LangGo {
		before = TypeErrors(f.Content)
	}
	for _, fd := range Check(t, rule, f, 0, nil) {
		if fd.Fix == nil {
			continue
		}
		n++
		fixed, err := review.ApplyEdits(f.Content, fd.Fix.Edits)
		if err != nil {
			t.Errorf("%s:%d: apply fix %q: %v", f.Path, fd.Span.StartLine, fd.Fix.Title, err)
			continue
		}
		if err := Parses(f.Language, fixed); err != nil {
			t.Errorf("%s:%d: after fix %q the file no longer parses: %v\n%s", f.Path, fd.Span.StartLine, fd.Fix.Title, err, fixed)
			continue
		}
		if before != nil {
			var added []string
			for msg, k := range TypeErrors(fixed) {
				if k > before[msg] {
					added = append(added, msg)
				}
			}
			if len(added) > 0 {
				sort.Strings(added)
				t.Errorf("%s:%d: after fix %q the file does not compile: %s\n%s", f.Path, fd.Span.StartLine, fd.Fix.Title, strings.Join(added, "; "), fixed)
				continue
			}
		}
		g := NewFile(f.Path, fixed)
		for _, again := range Check(t, rule, g, 0, nil) {
			if again.ID == fd.ID || again.Span.StartLine == fd.Span.StartLine && again.Title == fd.Title {
				t.Errorf("%s:%d: finding %q still reported after fix %q:\n%s", f.Path, fd.Span.StartLine, fd.Title, fd.Fix.Title, fixed)
			}
		}
	}
	return n
}

// stdImporter imports the standard library from its export data for
// [TypeErrors], and caches what it imported; stdMu guards it.
var (
	stdMu       sync.Mutex
	stdImporter = importer.Default()
)

// TypeErrors type-checks a Go file alone as its package, with go/types and
// the standard library, and counts its errors by message (without their
// positions, so that the errors of two versions of a file compare). A
// fixture refers to other files of its package and to modules that are
// not at hand, so its own count is not zero; what a fix must not do is add
// to it.
func TypeErrors(content []byte) map[string]int {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "fixed.go", content, parser.SkipObjectResolution)
	if err != nil {
		return map[string]int{err.Error(): 1}
	}
	out := map[string]int{}
	stdMu.Lock()
	defer stdMu.Unlock()
	conf := types.Config{Importer: stdImporter, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			out[te.Msg]++
			return
		}
		out[err.Error()]++
	}}
	conf.Check(file.Name.Name, fset, []*ast.File{file}, nil) // the errors are in out
	return out
}

// Parses reports whether content is syntactically valid in lang, using
// the real parser where one is at hand: go/parser for Go, Python's ast
// module, node's parser for JavaScript (as a script, or as a module when
// it has module syntax, as node --check decides), sh -n for shell, a YAML
// decoder for YAML. Other languages are checked for balanced brackets.
// Python and node run as one long-lived process each, fed file after file:
// a process per fix made the catalog's fix test slow.
func Parses(lang review.Language, content []byte) error {
	switch lang {
	case review.LangGo:
		_, err := parser.ParseFile(token.NewFileSet(), "fixed.go", content, parser.ParseComments)
		return err
	case review.LangPython:
		return pythonParser.check(content)
	case review.LangJavaScript:
		return nodeParser.check(content)
	case review.LangShell:
		return run(content, "sh", "-n")
	case review.LangYAML, review.LangActions:
		var v any
		return yaml.Unmarshal(content, &v)
	}
	return balanced(content)
}

// A parserProc is a parser process that reads files framed as a decimal
// byte count, a newline and the bytes, and answers each with one line:
// "ok" or the syntax error.
type parserProc struct {
	name string
	args []string

	mu    sync.Mutex
	in    io.WriteCloser
	out   *bufio.Reader
	start error // why the process could not start, once it failed
}

var (
	pythonParser = &parserProc{name: "python3", args: []string{"-c", `import ast, sys
r = sys.stdin.buffer
while True:
    n = r.readline()
    if not n:
        break
    src = r.read(int(n))
    try:
        ast.parse(src)
        print("ok", flush=True)
    except SyntaxError as e:
        print(("line %s: %s" % (e.lineno, e.msg)).replace("\n", " "), flush=True)
`}}
	nodeParser = &parserProc{name: "node", args: []string{"--experimental-vm-modules", "--no-warnings", "-e", `const vm = require('vm');
let buf = Buffer.alloc(0);
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  for (;;) {
    const nl = buf.indexOf(10);
    if (nl < 0) return;
    const n = Number(buf.subarray(0, nl).toString());
    if (buf.length < nl + 1 + n) return;
    const src = buf.subarray(nl + 1, nl + 1 + n).toString();
    buf = buf.subarray(nl + 1 + n);
    let answer = 'ok';
    try {
      new vm.Script(src);
    } catch (e) {
      try { new vm.SourceTextModule(src); } catch (m) { answer = String(e.message).replace(/\n/g, ' '); }
    }
    process.stdout.write(answer + '\n');
  }
});`}}
)

func (p *parserProc) check(content []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.in == nil && p.start == nil {
		cmd := exec.Command(p.name, p.args...)
		in, err := cmd.StdinPipe()
		if err == nil {
			var out io.ReadCloser
			if out, err = cmd.StdoutPipe(); err == nil {
				if err = cmd.Start(); err == nil {
					p.in, p.out = in, bufio.NewReader(out)
				}
			}
		}
		if err != nil {
			p.start = fmt.Errorf("%s: %v", p.name, err)
		}
	}
	if p.start != nil {
		return p.start
	}
	if _, err := fmt.Fprintf(p.in, "%d\n%s", len(content), content); err != nil {
		return fmt.Errorf("%s: %v", p.name, err)
	}
	line, err := p.out.ReadString('\n')
	if err != nil {
		return fmt.Errorf("%s: %v", p.name, err)
	}
	if line = strings.TrimSuffix(line, "\n"); line != "ok" {
		return fmt.Errorf("%s: %s", p.name, line)
	}
	return nil
}

func run(stdin []byte, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v: %s", name, err, stderr.Bytes())
	}
	return nil
}

// balanced checks that (), [] and {} nest, ignoring nothing: a coarse
// check for languages without a parser at hand.
func balanced(content []byte) error {
	var stack []byte
	pairs := map[byte]byte{')': '(', ']': '[', '}': '{'}
	for i, c := range content {
		switch c {
		case '(', '[', '{':
			stack = append(stack, c)
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != pairs[c] {
				return fmt.Errorf("unbalanced %q at byte %d", c, i)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("%d unclosed brackets", len(stack))
	}
	return nil
}
