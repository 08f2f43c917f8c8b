package lens_test

import (
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
	"github.com/reviewls/reviewls/review/syntax"
)

func TestOldContent(t *testing.T) {
	// a b c d e f -> a B c e f x: a change, a deletion and an addition.
	f := &review.File{Path: "x.txt", Status: review.StatusModified, Content: []byte("a\nB\nc\ne\nf\nx\n"), Hunks: []review.Hunk{
		{OldStart: 1, OldLines: 4, NewStart: 1, NewLines: 3, Lines: []string{" a", "-b", "+B", " c", "-d"}},
		{OldStart: 6, OldLines: 1, NewStart: 5, NewLines: 2, Lines: []string{" f", "+x"}},
	}}
	old, ok := lens.OldContent(f)
	if !ok || string(old) != "a\nb\nc\nd\ne\nf\n" {
		t.Errorf("OldContent = %q, %v", old, ok)
	}
	bad := &review.File{Path: f.Path, Status: f.Status, Content: f.Content, Hunks: []review.Hunk{f.Hunks[0], f.Hunks[1]}}
	bad.Hunks[1].NewLines = 3 // does not fit the hunk's lines
	if _, ok := lens.OldContent(bad); ok {
		t.Error("OldContent accepted hunks that do not fit")
	}
	if old, ok := lens.OldContent(&review.File{Status: review.StatusUntracked, Content: []byte("x\n")}); !ok || old != nil {
		t.Errorf("untracked file: %q, %v", old, ok)
	}
}

// TestCodeChanged checks what counts as a code change for the missing-tests
// note: real shapes of commits that change no behaviour, and near misses
// that do.
func TestCodeChanged(t *testing.T) {
	tests := []struct {
		name, path, old, new string
		want                 bool
	}{
		{"go comment and layout", "a.go", "package a\n\n// F adds.\nfunc F(a, b int) int { return a + b }\n",
			"package a\n\n// F adds two numbers.\nfunc F(a, b int) int {\n\treturn a + b\n}\n", false},
		{"go help text", "cmd.go", "package a\n\nvar c = Command{Short: \"Print the version\"}\n",
			"package a\n\nvar c = Command{Short: \"Print the version number\"}\n", false},
		{"go parameter type", "a.go", "package a\n\nfunc F(n int) int { return n }\n", "package a\n\nfunc F(n int64) int64 { return n }\n", false},
		{"go struct field type", "a.go", "package a\n\ntype T struct{ N int }\n", "package a\n\ntype T struct {\n\tN int64\n}\n", false},
		{"go logic", "a.go", "package a\n\nfunc F(n int) bool { return n > 0 }\n", "package a\n\nfunc F(n int) bool { return n >= 0 }\n", true},
		{"go rename of declared names", "a.go", "package a\n\nconst one = \"x\"\n\nfunc F(m map[string]int) int { v := m[one]; return v }\n",
			"package a\n\nconst oneAnnotation = \"x\"\n\nfunc F(m map[string]int) int { val := m[oneAnnotation]; return val }\n", false},
		{"go call of another function is code", "a.go", "package a\n\nfunc F(b []byte) int { return len(b) }\n", "package a\n\nfunc F(b []byte) int { return cap(b) }\n", true},
		{"go rename onto an existing name is code", "a.go", "package a\n\nvar x, y = 1, 2\n\nfunc F() int { return x + y }\n", "package a\n\nvar x, y = 1, 2\n\nfunc F() int { return y + y }\n", true},
		{"go conversion is code", "a.go", "package a\n\nfunc F(n int) any { return int32(n) }\n", "package a\n\nfunc F(n int) any { return int64(n) }\n", true},
		{"python annotations", "m.py", "def f(a, b=1):\n    return a + b\n\nx = 0\n",
			"def f(a: int, b: float = 1) -> float:\n    return a + b\n\nx: int = 0\n", false},
		{"python docstring and comment", "m.py", "def f(a):\n    return a\n", "def f(a):\n    \"\"\"Return a.\"\"\"\n    # identity\n    return a\n", false},
		{"python indentation is code", "m.py", "def f(a):\n    if a:\n        g()\n    h()\n", "def f(a):\n    if a:\n        g()\n        h()\n", true},
		{"python default value", "m.py", "def f(a: int = 1):\n    return a\n", "def f(a: int = 2):\n    return a\n", true},
		{"typescript types", "s.ts", "export function f(a, b) {\n  const x = a + b;\n  return x;\n}\n",
			"export interface P {\n  a: number;\n}\nexport type N = number | string;\nexport function f<T>(a: number, b?: N): number {\n  const x: number = a + (b as number);\n  return x;\n}\n", false},
		{"typescript import type", "s.ts", "import { a } from './a';\n", "import { a } from './a';\nimport type { B } from './b';\n", false},
		{"typescript ternary and object", "s.ts", "const o = { a: c ? 1 : 2 };\n", "const o = { a: c ? 1 : 3 };\n", true},
		{"typescript optional parameter then logic", "s.ts", "function f(a?: string) {\n  return a ? 1 : 2;\n}\n", "function f(a?: string) {\n  return a ? 2 : 1;\n}\n", true},
		{"javascript string", "s.js", "throw new Error('bad input');\n", "throw new Error(\"bad input given\");\n", false},
		{"javascript logic", "s.js", "if (a) f();\n", "if (!a) f();\n", true},
		{"unknown language", "x.rb", "a = 1\n", "a = 1 # one\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lens.CodeChanged(lenstest.Modified(tt.path, tt.old, tt.new)); got != tt.want {
				old := syntax.CodeTokens(review.DetectLanguage(tt.path, nil), []byte(tt.old))
				new := syntax.CodeTokens(review.DetectLanguage(tt.path, nil), []byte(tt.new))
				t.Errorf("CodeChanged = %v, want %v\nold %q\nnew %q", got, tt.want, old, new)
			}
		})
	}
}
