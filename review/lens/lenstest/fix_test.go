package lenstest

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestParses checks the parsers the fix tests trust, through the same
// long-lived processes, one file after another: valid files pass, broken
// ones fail with the parser's message, and a failure does not poison the
// next file.
func TestParses(t *testing.T) {
	for _, tc := range []struct {
		lang    review.Language
		src     string
		wantErr string
	}{
		{review.LangPython, "def f(x):\n    return x\n", ""},
		{review.LangPython, "def f(x:\n    return x\n", "python3: line"},
		{review.LangPython, "s = 'é'\nprint(s)\n", ""},
		{review.LangJavaScript, "function f(a) { return a + 1 }\n", ""},
		{review.LangJavaScript, "function f(a) { return a + }\n", "node: "},
		{review.LangJavaScript, "import fs from 'fs'\nexport const x = await fs.promises.readFile('a')\n", ""},
		{review.LangJavaScript, "const s = 'line\\n' + \"\\u00e9\"\n", ""},
		{review.LangGo, "package a\n", ""},
		{review.LangGo, "package a\nfunc (\n", "expected"},
		{review.LangShell, "if true; then echo ok; fi\n", ""},
		{review.LangShell, "if true; then echo ok\n", "sh"},
	} {
		err := Parses(tc.lang, []byte(tc.src))
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s %q: %v, want it to parse", tc.lang, tc.src, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s %q: error %v, want one containing %q", tc.lang, tc.src, err, tc.wantErr)
		}
	}
}

// TestTypeErrors checks the type check the fix tests trust: a file that
// compiles against the standard library has no error, and the fix the
// issue reported (one value from WriteString's two, a return of a value
// from a function without results) has both of its errors.
func TestTypeErrors(t *testing.T) {
	good := "package p\n\nimport \"os\"\n\nfunc W(path, s string) error {\n\tf, err := os.Create(path)\n\tif err != nil {\n\t\treturn err\n\t}\n\tdefer f.Close()\n\t_, err = f.WriteString(s)\n\treturn err\n}\n"
	if errs := TypeErrors([]byte(good)); len(errs) != 0 {
		t.Errorf("errors in a file that compiles: %v", errs)
	}
	bad := "package p\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc W(path, s string) {\n\tf, _ := os.Create(path)\n\tif err := f.WriteString(s); err != nil {\n\t\treturn fmt.Errorf(\"write: %w\", err)\n\t}\n}\n"
	errs := TypeErrors([]byte(bad))
	var msgs []string
	for m := range errs {
		msgs = append(msgs, m)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"assignment mismatch: 1 variable but f.WriteString returns 2 values", "too many return values"} {
		if !strings.Contains(all, want) {
			t.Errorf("errors %q lack %q", msgs, want)
		}
	}
}
