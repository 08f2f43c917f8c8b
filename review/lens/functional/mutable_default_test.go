package functional

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestMutableDefaultFixes(t *testing.T) {
	f := lenstest.NewFile("defaults.py", scriptTestdata(t, "testdata/mutable-default/defaults.py"))
	if n := lenstest.CheckFixes(t, MutableDefault, f); n != 6 {
		t.Errorf("checked %d fixes, want 6", n)
	}
}

// TestMutableDefaultFixText checks the exact fixed text: the guard goes
// after the docstring, with the body's indentation, and an annotation is
// widened.
func TestMutableDefaultFixText(t *testing.T) {
	src := "class A:\n\tdef get(self, hits: dict = {}):\n\t\t\"\"\"Doc.\n\t\t\"\"\"\n\t\treturn hits\n"
	f := lenstest.NewFile("a.py", []byte(src))
	got := lenstest.Check(t, MutableDefault, f, 0, nil)
	if len(got) != 1 || got[0].Fix == nil {
		t.Fatalf("got %d findings, want 1 with a fix", len(got))
	}
	fixed, err := review.ApplyEdits(f.Content, got[0].Fix.Edits)
	if err != nil {
		t.Fatal(err)
	}
	want := "class A:\n\tdef get(self, hits: dict | None = None):\n\t\t\"\"\"Doc.\n\t\t\"\"\"\n\t\tif hits is None:\n\t\t\thits = {}\n\t\treturn hits\n"
	if string(fixed) != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", fixed, want)
	}
	if strings.Count(string(fixed), "is None") != 1 {
		t.Error("guard inserted more than once")
	}
}
