package symbol

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reviewls/reviewls/review"
)

// ignoreHash leaves the content fingerprint out of comparisons; it is
// tested through Diff.
var ignoreHash = cmpopts.IgnoreFields(Symbol{}, "Hash")

func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		lang review.Language
		src  string
		want []Symbol
	}{
		{
			name: "go method with generic receiver and multi-line signature",
			lang: review.LangGo,
			src: `package p

// Get returns the value of key.
//
//go:noinline
func (c *Cache[K, V]) Get(
	key K, // the key
	fallback V,
) (V, error) {
	return fallback, nil
}
`,
			want: []Symbol{{
				Name: "Get", Container: "Cache", Kind: KindMethod,
				Signature: "func (c *Cache[K, V]) Get(key K, fallback V) (V, error)",
				Doc:       "Get returns the value of key.",
				Path:      "x", Line: 6, EndLine: 11, NameCol: 23, Exported: true,
			}},
		},
		{
			name: "go grouped type with struct fields and embedded field",
			lang: review.LangGo,
			src: `package p

type (
	// point is unexported.
	point struct {
		*Base
		x, y int ` + "`json:\"x\"`" + `
	}
)
`,
			want: []Symbol{
				{Name: "point", Kind: KindStruct, Signature: "type point struct", Doc: "point is unexported.",
					Path: "x", Line: 5, EndLine: 8, NameCol: 2, Fields: []string{"*Base", "x int", "y int"}},
				{Name: "Base", Container: "point", Kind: KindField, Signature: "*Base", Path: "x", Line: 6, EndLine: 6, NameCol: 4, Exported: true},
				{Name: "x", Container: "point", Kind: KindField, Signature: "x int", Path: "x", Line: 7, EndLine: 7, NameCol: 3},
				{Name: "y", Container: "point", Kind: KindField, Signature: "y int", Path: "x", Line: 7, EndLine: 7, NameCol: 6},
			},
		},
		{
			name: "go half-typed file keeps what parses",
			lang: review.LangGo,
			src: `package p

func Done() {}

func half(x int) {
	if x {
`,
			want: []Symbol{
				{Name: "Done", Kind: KindFunction, Signature: "func Done()", Path: "x", Line: 3, EndLine: 3, NameCol: 6, Exported: true},
				{Name: "half", Kind: KindFunction, Signature: "func half(x int)", Path: "x", Line: 5, EndLine: 6, NameCol: 6},
			},
		},
		{
			name: "python decorated method, docstring, nested def, init fields",
			lang: review.LangPython,
			src: `class Store(Base):
    """Keeps things."""

    limit: int = 10

    def __init__(self, path):
        self.path = path
        self._db: dict = {}

    @cached
    async def load(
        self,
        key,  # the key
    ) -> bytes:
        '''Load key.'''
        def helper():
            pass
        return helper()
`,
			want: []Symbol{
				{Name: "Store", Kind: KindClass, Signature: "class Store(Base)", Doc: "Keeps things.", Path: "x",
					Line: 1, EndLine: 18, NameCol: 7, Exported: true,
					Fields: []string{"limit: int", "path", "_db: dict"}, Methods: []string{"__init__", "load"}},
				{Name: "limit", Container: "Store", Kind: KindField, Signature: "limit: int", Path: "x", Line: 4, EndLine: 4, NameCol: 5, Exported: true},
				{Name: "__init__", Container: "Store", Kind: KindMethod, Signature: "def __init__(self, path)", Path: "x",
					Line: 6, EndLine: 8, NameCol: 9, Exported: true},
				{Name: "load", Container: "Store", Kind: KindMethod, Signature: "async def load(self, key) -> bytes",
					Doc: "Load key.", Path: "x", Line: 11, EndLine: 18, NameCol: 15, Exported: true},
			},
		},
		{
			name: "python module constants and private function",
			lang: review.LangPython,
			src:  "LIMIT = 3\nname = 'x'\n\ndef _private(a, *, b=1):\n\treturn a\n",
			want: []Symbol{
				{Name: "LIMIT", Kind: KindConst, Signature: "LIMIT = 3", Path: "x", Line: 1, EndLine: 1, NameCol: 1, Exported: true},
				{Name: "_private", Kind: KindFunction, Signature: "def _private(a, *, b=1)", Path: "x", Line: 4, EndLine: 5, NameCol: 5},
			},
		},
		{
			name: "typescript default export, overloads and generic arrow",
			lang: review.LangTypeScript,
			src: `/** Identity. */
export const id = <T,>(x: T): T => x;
export function over(a: string): string;
export function over(a: any) {
  return a;
}
export default async function () {}
`,
			want: []Symbol{
				{Name: "id", Kind: KindFunction, Signature: "export const id = <T,>(x: T): T =>", Doc: "Identity.",
					Path: "x", Line: 2, EndLine: 2, NameCol: 14, Exported: true},
				{Name: "over", Kind: KindFunction, Signature: "export function over(a: string): string", Path: "x", Line: 3, EndLine: 3, NameCol: 17, Exported: true},
				{Name: "over", Kind: KindFunction, Signature: "export function over(a: any)", Path: "x", Line: 4, EndLine: 6, NameCol: 17, Exported: true},
				{Name: "default", Kind: KindFunction, Signature: "export default async function ()", Path: "x", Line: 7, EndLine: 7, NameCol: 1, Exported: true},
			},
		},
		{
			name: "tsx class with decorators, accessors, private members and arrow property",
			lang: review.LangTSX,
			src: `@Component({ selector: "x" })
export class Panel extends React.Component<Props> {
  private count = 0;
  @Input() title: string;
  get label(): string { return this.title; }
  #secret() {}
  handle = (e: Event): void => {
    this.count++;
  };
  render() {
    return <div onClick={this.handle}>{this.label}</div>;
  }
}
`,
			want: []Symbol{
				{Name: "Panel", Kind: KindClass, Signature: "export class Panel extends React.Component<Props>", Path: "x",
					Line: 2, EndLine: 13, NameCol: 14, Exported: true,
					Fields: []string{"count", "title: string"}, Methods: []string{"label", "#secret", "handle", "render"}},
				{Name: "count", Container: "Panel", Kind: KindField, Signature: "private count", Path: "x", Line: 3, EndLine: 3, NameCol: 11},
				{Name: "title", Container: "Panel", Kind: KindField, Signature: "title: string", Path: "x", Line: 4, EndLine: 4, NameCol: 12, Exported: true},
				{Name: "label", Container: "Panel", Kind: KindMethod, Signature: "get label(): string", Path: "x", Line: 5, EndLine: 5, NameCol: 7, Exported: true},
				{Name: "#secret", Container: "Panel", Kind: KindMethod, Signature: "#secret()", Path: "x", Line: 6, EndLine: 6, NameCol: 3},
				{Name: "handle", Container: "Panel", Kind: KindMethod, Signature: "handle = (e: Event): void =>", Path: "x", Line: 7, EndLine: 9, NameCol: 3, Exported: true},
				{Name: "render", Container: "Panel", Kind: KindMethod, Signature: "render()", Path: "x", Line: 10, EndLine: 12, NameCol: 3, Exported: true},
			},
		},
		{
			name: "javascript function expression, skipped require and destructuring",
			lang: review.LangJavaScript,
			src:  "const fs = require('fs');\nconst { a } = b;\nvar onLoad = function load(ev) {\n  return `${ev}`;\n};\n",
			want: []Symbol{
				{Name: "onLoad", Kind: KindFunction, Signature: "var onLoad = function load(ev)", Path: "x", Line: 3, EndLine: 5, NameCol: 5},
			},
		},
		{
			name: "java annotated method with javadoc, constructor and interface method",
			lang: review.LangJava,
			src: `class Box<T> {
    /** The value. */
    @Nullable
    private T value;

    Box(T value) { this.value = value; }

    /**
     * Maps the value.
     */
    @Override
    public <R> Box<R> map(Function<T, R> f) throws MapException {
        return new Box<>(f.apply(value));
    }

    public interface Visitor { void visit(Box<?> b); }
}
`,
			want: []Symbol{
				{Name: "Box", Kind: KindClass, Signature: "class Box<T>", Path: "x", Line: 1, EndLine: 17, NameCol: 7,
					Fields: []string{"T value"}, Methods: []string{"Box", "map"}},
				{Name: "value", Container: "Box", Kind: KindField, Signature: "private T value", Doc: "The value.", Path: "x", Line: 4, EndLine: 4, NameCol: 15},
				{Name: "Box", Container: "Box", Kind: KindMethod, Signature: "Box(T value)", Path: "x", Line: 6, EndLine: 6, NameCol: 5},
				{Name: "map", Container: "Box", Kind: KindMethod, Signature: "public <R> Box<R> map(Function<T, R> f) throws MapException",
					Doc: "Maps the value.", Path: "x", Line: 12, EndLine: 14, NameCol: 23, Exported: true},
				{Name: "Visitor", Container: "Box", Kind: KindInterface, Signature: "public interface Visitor", Path: "x", Line: 16, EndLine: 16, NameCol: 22,
					Exported: true, Methods: []string{"visit"}},
				{Name: "visit", Container: "Visitor", Kind: KindMethod, Signature: "void visit(Box<?> b)", Path: "x", Line: 16, EndLine: 16, NameCol: 37, Exported: true},
			},
		},
		{
			name: "rust impl of a trait for a generic type, doc before attributes",
			lang: review.LangRust,
			src: `/// A wrapper.
#[derive(Debug)]
pub struct Wrap<T>(pub T);

impl<T: Clone> From<T> for Wrap<T>
where
    T: Send,
{
    /// Wraps.
    #[inline]
    fn from(v: T) -> Self { Wrap(v) }
}

pub(crate) async unsafe fn run<'a>(s: &'a str) -> Option<&'a str> where 'a: 'static { None }
`,
			want: []Symbol{
				{Name: "Wrap", Kind: KindStruct, Signature: "pub struct Wrap<T>(pub T)", Doc: "A wrapper.", Path: "x",
					Line: 3, EndLine: 3, NameCol: 12, Exported: true, Fields: []string{"0: T"}, Methods: []string{"from"}},
				{Name: "from", Container: "Wrap", Kind: KindMethod, Signature: "fn from(v: T) -> Self", Doc: "Wraps.",
					Path: "x", Line: 11, EndLine: 11, NameCol: 8, Exported: true},
				{Name: "run", Kind: KindFunction, Signature: "pub(crate) async unsafe fn run<'a>(s: &'a str) -> Option<&'a str> where 'a: 'static",
					Path: "x", Line: 14, EndLine: 14, NameCol: 28},
			},
		},
		{
			name: "unknown language",
			lang: review.LangMarkdown,
			src:  "# Title\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Extract("x", []byte(tt.src), tt.lang)
			if diff := cmp.Diff(tt.want, got, ignoreHash); diff != "" {
				t.Errorf("Extract (-want +got):\n%s", diff)
			}
		})
	}
}

func TestQualifiedNameAndFind(t *testing.T) {
	syms := []Symbol{
		{Name: "Store", Kind: KindStruct},
		{Name: "Get", Container: "Store", Kind: KindMethod},
		{Name: "Get", Kind: KindFunction},
	}
	if got := syms[1].QualifiedName(); got != "Store.Get" {
		t.Errorf("QualifiedName = %q, want Store.Get", got)
	}
	if got := syms[2].QualifiedName(); got != "Get" {
		t.Errorf("QualifiedName = %q, want Get", got)
	}
	tests := []struct {
		name string
		want []Symbol
	}{
		{"Get", syms[1:]},
		{"Store.Get", syms[1:2]},
		{"Store", syms[:1]},
		{"Put", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Find(syms, tt.name)); diff != "" {
			t.Errorf("Find(%q) (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestEnclosing(t *testing.T) {
	src := []byte(`package p

type S struct {
	a int
}

// M is a method.
func (s S) M() {
	_ = 1
}
`)
	syms := Extract("p.go", src, review.LangGo)
	tests := []struct {
		line int
		want string // qualified name, "" for none
	}{
		{1, ""},
		{3, "S"},
		{4, "S.a"},
		{5, "S"},
		{7, ""}, // the doc comment is outside the range
		{8, "S.M"},
		{9, "S.M"},
		{10, "S.M"},
		{11, ""},
	}
	for _, tt := range tests {
		got := ""
		if s := Enclosing(syms, tt.line); s != nil {
			got = s.QualifiedName()
		}
		if got != tt.want {
			t.Errorf("Enclosing(line %d) = %q, want %q", tt.line, got, tt.want)
		}
	}
	// The result points into the slice, so callers can tell which one.
	if s := Enclosing(syms, 9); s != &syms[len(syms)-1] {
		t.Errorf("Enclosing does not point into syms")
	}
	if Enclosing(nil, 1) != nil {
		t.Errorf("Enclosing(nil) != nil")
	}
}

func TestIdentAt(t *testing.T) {
	src := []byte("func (s *Store) Get(key string) {\n\tnaïve := größe + x1\n\treturn 42\n}")
	tests := []struct {
		line, col int
		want      string
	}{
		{1, 1, "func"},
		{1, 10, "Store"}, // the start
		{1, 12, "Store"}, // the middle
		{1, 14, "Store"}, // the end
		{1, 15, ""},      // ")"
		{1, 9, ""},       // "*"
		{1, 5, ""},       // a space
		{1, 19, "Get"},
		{2, 2, "naïve"},
		{2, 5, "naïve"}, // the second byte of ï
		{2, 4, "naïve"}, // the first byte of ï
		{2, 12, "größe"},
		{2, 23, "x1"},
		{2, 20, ""}, // "+"
		{3, 9, ""},  // a number is not an identifier
		{2, 100, ""},
		{9, 1, ""},
		{0, 1, ""},
		{1, 0, ""},
	}
	for _, tt := range tests {
		if got := IdentAt(src, tt.line, tt.col); got != tt.want {
			t.Errorf("IdentAt(%d, %d) = %q, want %q", tt.line, tt.col, got, tt.want)
		}
	}
}

// TestIdentAtStrings checks that words inside string literals are not
// identifiers, while code after a closed string, a character literal or a
// Rust lifetime still is.
func TestIdentAtStrings(t *testing.T) {
	tests := []struct {
		line string
		col  int
		want string
	}{
		{`const Key = "AKIAZ7Q2R5T6W3X4Y6B2"`, 15, ""},
		{`const Key = "AKIAZ7Q2R5T6W3X4Y6B2"`, 7, "Key"},
		{"x := `raw word` + y", 8, ""},
		{"x := `raw word` + y", 19, "y"},
		{`s = 'it\'s word' + z`, 12, ""},
		{`s = 'it\'s word' + z`, 20, "z"},
		{`f("a\"b", next)`, 11, "next"},
		{`c := 'a'; d := b`, 16, "b"},
		{`fn longest<'a>(x: &'a str, y: &'a str) -> &'a str {`, 28, "y"},
		{`fn keep<T: 'static>(v: T) {}`, 21, "v"},
		{`x = {'a': 'b c'}`, 14, ""},
	}
	for _, tt := range tests {
		if got := IdentAt([]byte(tt.line), 1, tt.col); got != tt.want {
			t.Errorf("IdentAt(%q, %d) = %q, want %q", tt.line, tt.col, got, tt.want)
		}
	}
}

// TestExtractGoUnterminatedComment: a block comment left open at the end
// of a Go file, as while one is being typed, is no doc comment; it used to
// panic in go/ast's CommentGroup.Text (found by fuzzing), which cost the
// file all its symbols.
func TestExtractGoUnterminatedComment(t *testing.T) {
	for _, src := range []string{
		"package p\n\ntype T struct{} /*",
		"package p\n\nvar V = 1 /*/",
		"package p\n\ntype S struct {\n\tA int /*x",
	} {
		syms := Extract("p.go", []byte(src), review.LangGo)
		if len(syms) == 0 || syms[0].Doc != "" {
			t.Errorf("%q: symbols %+v, want the declaration without a doc", src, syms)
		}
	}
}

// TestPublic checks which exported symbols are part of the public surface:
// not the members of an unexported Go type, nor anything of a private
// Python class, module or package.
func TestPublic(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      map[string]string // qualified name -> "public" or the reason it is not
	}{
		{"store/store.go", "package store\n\ntype Store struct{ Name string }\n\nfunc (s *Store) Get() {}\n\ntype cache struct{ Size int }\n\nfunc (c *cache) Get() {}\n\nfunc helper() {}\n",
			map[string]string{"Store": "public", "Store.Name": "public", "Store.Get": "public", "cache": "-", "cache.Size": "it belongs to the unexported type cache",
				"cache.Get": "it belongs to the unexported type cache", "helper": "-"}},
		{"src/click/_telemetry.py", "KEY = 1\n\n\ndef report(event):\n    pass\n",
			map[string]string{"KEY": "its module _telemetry is private (a leading underscore)", "report": "its module _telemetry is private (a leading underscore)"}},
		{"src/click/_internal/io.py", "def read():\n    pass\n",
			map[string]string{"read": "its package _internal is private (a leading underscore)"}},
		{"src/click/utils.py", "def echo():\n    pass\n\n\ndef _report_open():\n    pass\n\n\nclass _Buf:\n    def write(self):\n        pass\n\n\nclass Out:\n    def __init__(self):\n        pass\n",
			map[string]string{"echo": "public", "_report_open": "-", "_Buf": "-", "_Buf.write": "it belongs to the private class _Buf", "Out": "public", "Out.__init__": "public"}},
		{"src/click/__init__.py", "def main():\n    pass\n", map[string]string{"main": "public"}},
		{"web/app.ts", "export function run() {}\nfunction local() {}\n", map[string]string{"run": "public", "local": "-"}},
	} {
		got := map[string]string{}
		for _, s := range Extract(tc.path, []byte(tc.src), review.DetectLanguage(tc.path, nil)) {
			public, why := s.Public()
			switch {
			case public:
				got[s.QualifiedName()] = "public"
			case why == "":
				got[s.QualifiedName()] = "-"
			default:
				got[s.QualifiedName()] = why
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: Public (-want +got):\n%s", tc.path, diff)
		}
	}
}

// TestGoResults checks the result types read from Go signatures.
func TestGoResults(t *testing.T) {
	src := "package p\n\nfunc (c *Command) WriteUsageFile(path string) {}\n\nfunc Load(p string) (cfg *Config, n int, err error) { return }\n\nfunc Open() (io.ReadCloser, error) { return nil, nil }\n\ntype Config struct{}\n"
	got := map[string]string{}
	for _, s := range Extract("cmd.go", []byte(src), review.LangGo) {
		if res, ok := s.GoResults(); ok {
			got[s.QualifiedName()] = strings.Join(res, ", ") + ";"
		}
	}
	want := map[string]string{"Command.WriteUsageFile": ";", "Load": "*Config, int, error;", "Open": "io.ReadCloser, error;"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GoResults (-want +got):\n%s", diff)
	}
	if _, ok := (Symbol{Name: "f", Kind: KindFunction, Path: "f.py", Signature: "def f()"}).GoResults(); ok {
		t.Error("GoResults of a Python function: ok")
	}
}
