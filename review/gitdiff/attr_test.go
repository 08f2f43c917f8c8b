package gitdiff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// checkedAttrs are the attributes pathAttrs holds, in its field order.
var checkedAttrs = []string{"text", "crlf", "eol", "filter", "diff", "ident", "working-tree-encoding"}

// gitCheckAttr runs `git check-attr` for paths and returns, per path, the
// attributes in checkedAttrs order as "unspecified", "set", "unset" or the
// value.
func gitCheckAttr(t *testing.T, dir string, paths []string) map[string][]string {
	t.Helper()
	args := append([]string{"check-attr", "-z"}, checkedAttrs...)
	args = append(append(args, "--"), paths...)
	fields := strings.Split(strings.TrimSuffix(gitEnv(t, dir, args...), "\x00"), "\x00")
	out := map[string][]string{}
	for i := 0; i+2 < len(fields); i += 3 {
		p, attr, val := fields[i], fields[i+1], fields[i+2]
		if out[p] == nil {
			out[p] = make([]string, len(checkedAttrs))
		}
		for k, a := range checkedAttrs {
			if a == attr {
				out[p][k] = val
			}
		}
	}
	return out
}

func attrStrings(a pathAttrs) []string {
	var out []string
	for _, v := range []attrValue{a.text, a.crlf, a.eol, a.filter, a.diff, a.ident, a.encoding} {
		switch v.kind {
		case attrSet:
			out = append(out, "set")
		case attrUnset:
			out = append(out, "unset")
		case attrString:
			out = append(out, v.value)
		default:
			out = append(out, "unspecified")
		}
	}
	return out
}

// checkAttrs compares the attributes of paths with git check-attr's.
func checkAttrs(t *testing.T, dir string, paths []string) {
	t.Helper()
	r := open(t, dir, Options{})
	st, err := r.newState(resolve(t, r, false, ""))
	if err != nil {
		t.Fatal(err)
	}
	want := gitCheckAttr(t, dir, paths)
	for _, p := range paths {
		if diff := cmp.Diff(want[p], attrStrings(st.conv.attrs.lookup(p))); diff != "" {
			t.Errorf("%s: attributes %v differ from git check-attr (-git +ours):\n%s", p, checkedAttrs, diff)
		}
	}
}

func TestAttributesMatchGit(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	write(t, home, map[string]string{
		".gitconfig":  "[core]\n\tattributesFile = ~/attrs\n",
		"attrs":       "*.glob diff=word\n*.txt ident\n[attr]globalmacro -text diff\n",
		"unused.file": "",
	})
	dir := initRepo(t)
	write(t, dir, map[string]string{
		".gitattributes": strings.Join([]string{
			"# comment",
			"* text=auto",
			"*.bin binary",
			"*.txt text eol=crlf",
			"docs/** -text",
			"/anchored.md text",
			"!neg.txt -text",
			"dir/ -text",
			"[attr]mymacro text eol=lf -diff",
			"*.mac mymacro",
			"*.unmac mymacro !eol",
			"*.gm globalmacro",
			`"quoted name.txt" ident`,
			`"esc\tname.q" ident`,
			"*.lfs filter=lfs diff=lfs merge=lfs -text",
			"sub/*.c crlf=input",
			"**/deep/*.go text=auto eol=lf",
			"*.ws working-tree-encoding=UTF-16LE",
			"a?.q -text",
			"[abc].r text",
			"*.order -text text",
			"*.order2 text binary",
			"*.order3 binary text",
			"*.bad text bad^name",
			"\t  indented.x   -text  ",
			"*.crlfattr crlf",
			"*.nocrlf -crlf",
			"*.eolonly eol=lf",
			"*.binaryeol -text eol=crlf",
			"*.unset !text",
			"",
		}, "\r\n"),
		"sub/.gitattributes":       "*.txt -text\n[attr]nested text\n*.nest nested\nx.go text\n*.c -ident\n",
		"sub/inner/.gitattributes": "*.txt text=auto\n/rooted.y text\nz/*.y -text\n",
		".git/info/attributes":     "*.info ident\noverride.txt -text\n[attr]binary text\n",
	})
	paths := []string{
		"a.go", "a.txt", "b.bin", "docs/a.txt", "docs/x/y.md", "anchored.md", "sub/anchored.md",
		"neg.txt", "dir", "dir/a.go", "m.mac", "m.unmac", "x.gm", "quoted name.txt", "esc\tname.q",
		"big.lfs", "sub/a.c", "sub/x/a.c", "a/deep/x.go", "deep/x.go", "a/b/deep/c/x.go",
		"u.ws", "ab.q", "abc.q", "a.r", "d.r", "x.order", "x.order2", "x.order3", "x.bad", "indented.x",
		"s.crlfattr", "s.nocrlf", "s.eolonly", "s.binaryeol", "s.unset",
		"sub/a.txt", "sub/b.nest", "sub/x.go", "sub/y/x.go", "sub/inner/a.txt", "sub/inner/rooted.y",
		"sub/inner/q/rooted.y", "sub/inner/z/w.y", "x.info", "override.txt", "sub/override.txt",
		"f.glob", "sub/inner/f.glob",
	}
	checkAttrs(t, dir, paths)

	// A tracked .gitattributes missing from the work tree, or replaced by a
	// symbolic link, is read from the index.
	commitAll(t, dir, "init")
	remove(t, dir, "sub/.gitattributes")
	remove(t, dir, "sub/inner/.gitattributes")
	symlink(t, dir, "../../.gitattributes", "sub/inner/.gitattributes")
	checkAttrs(t, dir, paths)

	// An untracked one in the work tree counts.
	write(t, dir, map[string]string{"new/.gitattributes": "*.go -text ident\n", "sub/.gitattributes": "*.txt text=auto\n"})
	checkAttrs(t, dir, []string{"new/a.go", "new/x/a.go", "sub/a.txt", "sub/x.go"})
}

func TestAttributesSystemFile(t *testing.T) {
	// GIT_ATTR_NOSYSTEM keeps /etc/gitattributes out; without a system
	// file the result is the same either way.
	if _, err := os.Stat("/etc/gitattributes"); err == nil {
		t.Skip("the machine has a system attributes file")
	}
	dir := initRepo(t)
	write(t, dir, map[string]string{".gitattributes": "*.c text\n"})
	t.Setenv("GIT_ATTR_NOSYSTEM", "1")
	checkAttrs(t, dir, []string{"a.c", filepath.ToSlash("x/b.c")})
}

func TestParseAttributes(t *testing.T) {
	tests := []struct {
		line string
		want []attrAssign // nil: no line
		pat  string
	}{
		{"*.c text", []attrAssign{{"text", attrValue{kind: attrSet}}}, "*.c"},
		{"*.c -text !eol diff=x", []attrAssign{{"text", attrValue{kind: attrUnset}}, {"eol", attrValue{}}, {"diff", attrValue{kind: attrString, value: "x"}}}, "*.c"},
		{`"a b" text`, []attrAssign{{"text", attrValue{kind: attrSet}}}, "a b"},
		{`"a\101\"" text`, []attrAssign{{"text", attrValue{kind: attrSet}}}, `aA"`},
		{"!x text", nil, ""},
		{"*.c te$t", nil, ""},
		{"*.c builtin_x", nil, ""},
		{"# *.c text", nil, ""},
		{"   ", nil, ""},
		{"x -", nil, ""},
		{"*.c", []attrAssign{}, "*.c"},
		{strings.Repeat("x", maxAttrLine) + " text", nil, ""},
	}
	for _, tc := range tests {
		f := parseAttributes([]byte(tc.line+"\n"), "", true)
		if tc.want == nil {
			if len(f.lines) != 0 {
				t.Errorf("%q: got lines %+v, want none", tc.line, f.lines)
			}
			continue
		}
		if len(f.lines) != 1 {
			t.Errorf("%q: got %d lines, want 1", tc.line, len(f.lines))
			continue
		}
		l := f.lines[0]
		if l.pat.text != tc.pat || !cmp.Equal(l.states, tc.want, cmp.AllowUnexported(attrAssign{}, attrValue{}), cmpopts.EquateEmpty()) {
			t.Errorf("%q: got pattern %q states %+v, want %q %+v", tc.line, l.pat.text, l.states, tc.pat, tc.want)
		}
	}
	// Macros only where allowed.
	if f := parseAttributes([]byte("[attr]m text\n"), "sub/", false); len(f.macros) != 0 {
		t.Errorf("macro in a nested file: %+v", f.macros)
	}
	if f := parseAttributes([]byte("[attr]m text\n"), "", true); len(f.macros) != 1 || f.macros[0].name != "m" {
		t.Errorf("root macro: %+v", f.macros)
	}
}
