package syntax

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScanPython(t *testing.T) {
	src := `"""Module doc with a def f(): inside."""
import os


@decorator
async def fetch(url, retries=3,
                headers={}):
    """Doc.

    Still the docstring: if x:
    """
    s = f"{url}" + 'it''s'  # comment (
    return [
        s,
    ]


def one(x): return x


if __name__ == "__main__":
    print(fetch("x"))
`
	py := ParsePython(src)
	if got, want := len(py.Lines), 22; got != want {
		t.Fatalf("got %d lines, want %d", got, want)
	}
	var logical []int
	for i, l := range py.Lines {
		if l.Logical {
			logical = append(logical, i+1)
		}
	}
	if diff := cmp.Diff([]int{1, 2, 5, 6, 8, 12, 13, 18, 21, 22}, logical); diff != "" {
		t.Errorf("logical lines (-want +got):\n%s", diff)
	}
	type fn struct {
		Name         string
		Async        bool
		Line, Indent int
		Body, End    int
	}
	var got []fn
	for _, f := range py.Funcs {
		got = append(got, fn{f.Name, f.Async, f.Line, f.Indent, f.Body, f.End})
	}
	want := []fn{{"fetch", true, 6, 0, 8, 15}, {"one", false, 18, 0, 18, 18}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("funcs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][2]int{{21, 22}}, py.Main); diff != "" {
		t.Errorf("main blocks (-want +got):\n%s", diff)
	}
	args := py.Args(py.Funcs[0].Open)
	if len(args) != 3 || args[1].Name != "retries" || py.Src[args[2].Value:args[2].End] != "{}" {
		t.Errorf("args = %+v", args)
	}
	l12 := py.CodeLine(12)
	if want := `    s = f"     " + '  '' '             `; l12 != want {
		t.Errorf("masked line 12 = %q, want %q", l12, want)
	}
	off := py.Offset(12) + len("    s = ")
	if py.Literal(off, off+len(`f"{url}"`)) {
		t.Error("an f-string with a field is a literal")
	}
	off2 := py.Offset(12) + len(`    s = f"{url}" + `)
	if !py.Literal(off2, off2+len(`'it''s'`)) {
		t.Error("implicitly concatenated strings are not a literal")
	}
}
