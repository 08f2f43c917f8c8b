package llmtest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/gitdiff"
)

// TestFileMatchesGit checks that File builds the hunks and changed lines
// the engine's own diff makes of the same two versions.
func TestFileMatchesGit(t *testing.T) {
	for name, annotated := range map[string]string{
		"replacements and a deletion": "package app\n\nfunc Sum(xs []int) int {\n\ttotal := 0\n-\tfor i := 0; i < len(xs); i++ {\n+\tfor i := 0; i <= len(xs); i++ {\n\t\ttotal += xs[i]\n\t}\n\treturn total\n}\n\nfunc Div(a, b int) int {\n-\tif b == 0 {\n-\t\treturn 0\n-\t}\n\treturn a / b\n}\n+\n+func Scale(x int) int {\n+\treturn x * factor\n+}\n",
		"two hunks":                   "a\n+b\nc\nd\ne\nf\ng\nh\ni\nj\nk\n-l\nm\n",
		"a new file":                  "+one\n+two\n",
	} {
		var old, new strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(annotated, "\n"), "\n") {
			switch {
			case strings.HasPrefix(l, "+"):
				new.WriteString(l[1:] + "\n")
			case strings.HasPrefix(l, "-"):
				old.WriteString(l[1:] + "\n")
			default:
				old.WriteString(l + "\n")
				new.WriteString(l + "\n")
			}
		}
		want := gitdiff.Diff([]byte(old.String()), []byte(new.String()))
		f := File("x.go", annotated)
		if diff := cmp.Diff(want, f.Hunks); diff != "" {
			t.Errorf("%s: hunks (-git +File):\n%s", name, diff)
		}
		if string(f.Content) != new.String() {
			t.Errorf("%s: content %q, want %q", name, f.Content, new.String())
		}
		for _, h := range want {
			n := h.NewStart
			for _, l := range h.Lines {
				switch l[0] {
				case '+':
					if f.Lines[n] != review.LineUnstaged {
						t.Errorf("%s: line %d is not changed", name, n)
					}
					n++
				case ' ':
					if f.Changed(n) {
						t.Errorf("%s: line %d is changed", name, n)
					}
					n++
				}
			}
		}
	}
}
