package lenstest

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"os/exec"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// CheckFixes applies the fix of every finding rule reports on f, one at a
// time, and asserts that the fixed file still parses and that the rule no
// longer reports that finding. It returns the number of fixes checked.
func CheckFixes(t *testing.T, rule *lens.Rule, f *review.File) int {
	t.Helper()
	n := 0
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
		g := NewFile(f.Path, fixed)
		for _, again := range Check(t, rule, g, 0, nil) {
			if again.ID == fd.ID || again.Span.StartLine == fd.Span.StartLine && again.Title == fd.Title {
				t.Errorf("%s:%d: finding %q still reported after fix %q:\n%s", f.Path, fd.Span.StartLine, fd.Title, fd.Fix.Title, fixed)
			}
		}
	}
	return n
}

// Parses reports whether content is syntactically valid in lang, using
// the real parser where one is at hand: go/parser for Go, Python's ast
// module, node --check for JavaScript, sh -n for shell, a YAML decoder for
// YAML. Other languages are checked for balanced brackets.
func Parses(lang review.Language, content []byte) error {
	switch lang {
	case review.LangGo:
		_, err := parser.ParseFile(token.NewFileSet(), "fixed.go", content, parser.ParseComments)
		return err
	case review.LangPython:
		return run(content, "python3", "-c", "import ast, sys; ast.parse(sys.stdin.read())")
	case review.LangJavaScript:
		return run(content, "node", "--check", "-")
	case review.LangShell:
		return run(content, "sh", "-n")
	case review.LangYAML, review.LangActions:
		var v any
		return yaml.Unmarshal(content, &v)
	}
	return balanced(content)
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
