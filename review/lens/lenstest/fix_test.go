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
