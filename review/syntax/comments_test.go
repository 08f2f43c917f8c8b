package syntax

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

func TestScanComments(t *testing.T) {
	tests := []struct {
		name string
		lang review.Language
		src  string
		want []Comment
	}{
		{"go line", review.LangGo, "x := 1 // TODO: a\n", []Comment{{" TODO: a", 8}}},
		{"go string is not a comment", review.LangGo, "s := \"// TODO\"\n", []Comment{{}}},
		{"go block across lines", review.LangGo, "/* one\n * TODO two\n */ x()\n", []Comment{{" one", 1}, {" * TODO two", 1}, {" ", 1}}},
		{"go raw string across lines", review.LangGo, "s := `a\n// not\n` // yes\n", []Comment{{}, {}, {" yes", 3}}},
		{"escaped quote", review.LangJavaScript, "s = \"a\\\"//b\" // c\n", []Comment{{" c", 14}}},
		{"python hash and docstring", review.LangPython, "\"\"\"doc\n# not a comment\n\"\"\"\nx = 1  # FIXME\n", []Comment{{}, {}, {}, {" FIXME", 8}}},
		{"shell quote", review.LangShell, "echo '#x' # real\n", []Comment{{" real", 11}}},
		{"html", review.LangHTML, "<p>a</p> <!-- TODO -->\n", []Comment{{" TODO ", 10}}},
		{"unknown language hash", review.LangUnknown, "key: v # TODO\n", []Comment{{" TODO", 8}}},
		{"go raw string ends at its backquote", review.LangGo, "p := `C:\\` // TODO\n", []Comment{{" TODO", 12}}},
		{"js template escapes its backquote", review.LangJavaScript, "s = `a\\`// not` // TODO\n", []Comment{{" TODO", 17}}},
		{"yaml hash inside a word", review.LangYAML, "url: http://x/#frag # TODO\n", []Comment{{" TODO", 21}}},
		{"shell hash inside a word", review.LangShell, "echo ${#x} a#b;# TODO\n", []Comment{{" TODO", 16}}},
		{"html quotes only in tags", review.LangHTML, "<p title=\"<!-- x -->\">don't</p> <!-- TODO -->\n", []Comment{{" TODO ", 33}}},
		{"html attribute across lines", review.LangHTML, "<img alt=\"a\n<!-- not -->\"> <!-- TODO -->\n", []Comment{{}, {" TODO ", 16}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scanComments(review.SplitLines([]byte(tt.src)), CommentSyntax(tt.lang))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("comments mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCommentParts(t *testing.T) {
	src := "/* a */ s := \"/* no */\" // b\n/* c\nd */ x\n"
	_, got := lexComments(review.SplitLines([]byte(src)), CommentSyntax(review.LangGo))
	want := [][]CommentPart{
		{{From: 0, To: 7, TextFrom: 2, TextTo: 5}, {From: 24, To: 28, TextFrom: 26, TextTo: 28}},
		{{From: 0, To: 4, TextFrom: 2, TextTo: 4}},
		{{From: 0, To: 4, TextFrom: 0, TextTo: 2}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("comment parts (-want +got):\n%s", diff)
	}
}

func TestSplitLinesCRLF(t *testing.T) {
	got := review.SplitLines([]byte("a\r\nb\r\n\r\nc"))
	want := []string{"a", "b", "", "c"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SplitLines (-want +got):\n%s", diff)
	}
}

func TestIgnoreComment(t *testing.T) {
	for lang, want := range map[review.Language]string{
		review.LangGo:     "// reviewls:ignore r/x why",
		review.LangPython: "# reviewls:ignore r/x why",
		review.LangHTML:   "<!-- reviewls:ignore r/x why -->",
	} {
		if got := IgnoreComment(lang, "r/x", "why"); got != want {
			t.Errorf("IgnoreComment(%s) = %q, want %q", lang, got, want)
		}
	}
}

func TestQuoteEnd(t *testing.T) {
	for _, tc := range []struct {
		line string
		i    int
		want int
	}{
		{`x := "ab" + y`, 5, 8},
		{`x := "a\"b"`, 5, 10},
		{`'it''s'`, 0, 3},
		{`"open`, 0, -1},
		{`"ends in \"`, 0, -1},
	} {
		if got := QuoteEnd(tc.line, tc.i); got != tc.want {
			t.Errorf("QuoteEnd(%q, %d) = %d, want %d", tc.line, tc.i, got, tc.want)
		}
	}
}
