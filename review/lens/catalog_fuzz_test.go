package lens_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// fuzzFiles are the file a fuzz input of FuzzCatalog is reviewed as, one
// per language of the catalog; the input's first value picks one.
var fuzzFiles = []struct {
	path string
	lang review.Language
}{
	{"store/store.go", review.LangGo},
	{"app/jobs.py", review.LangPython},
	{"server/index.js", review.LangJavaScript},
	{"ui/Menu.jsx", review.LangJSX},
	{"lib/client.ts", review.LangTypeScript},
	{"ui/Cart.tsx", review.LangTSX},
	{"scripts/deploy.sh", review.LangShell},
	{"Dockerfile", review.LangDockerfile},
	{".github/workflows/ci.yml", review.LangActions},
	{"deploy/values.yaml", review.LangYAML},
	{"site/index.html", review.LangHTML},
	{"web/App.vue", review.LangVue},
	{"web/Nav.svelte", review.LangSvelte},
	{"README.md", review.LangMarkdown},
	{"config/app.json", review.LangJSON},
	{"src/Inventory.java", review.LangJava},
	{"src/parser.rs", review.LangRust},
	{"lib/tasks.rb", review.LangRuby},
	{"src/buf.c", review.LangC},
	{"src/buf.cpp", review.LangCPP},
	{"src/Cache.cs", review.LangCSharp},
	{"db/migrations/0002_users.sql", review.LangSQL},
	{"pyproject.toml", review.LangTOML},
	{"Makefile", review.LangMakefile},
	{"go.mod", review.LangGoMod},
	{"notes.txt", review.LangText},
}

// FuzzCatalog runs the whole catalog, at depth comprehensive, on one
// changed file of fuzzed content in each language: no rule panics (a panic
// comes back as an error naming the rule), every finding cites lines and
// columns of the file, and every fix applies to it. The seeds are the
// rules' own test inputs. functional/go-analysis is left out: it loads
// packages with the go command, which is its own tests' business.
func FuzzCatalog(f *testing.F) {
	for _, dir := range []string{"functional", "standards", "accessibility", "security", "readiness"} {
		root := filepath.Join(dir, "testdata")
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "fuzz" { // corpora of the perspectives' own fuzz targets
					return filepath.SkipDir
				}
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			lang := review.DetectLanguage(lenstest.InputName(p), data)
			if i := slices.IndexFunc(fuzzFiles, func(ff struct {
				path string
				lang review.Language
			}) bool {
				return ff.lang == lang
			}); i >= 0 {
				f.Add(uint8(i), data)
			}
			return nil
		})
		if err != nil {
			f.Fatal(err)
		}
	}
	lenses := catalog()
	opts := review.CheckOptions{Depth: review.DepthComprehensive, Skip: func(id string) bool { return id == "functional/go-analysis" }}
	f.Fuzz(func(t *testing.T, which uint8, content []byte) {
		ff := fuzzFiles[int(which)%len(fuzzFiles)]
		file := lenstest.NewFile(ff.path, content)
		file.Language = ff.lang
		lines := lens.Lines(file)
		cs := &review.ChangeSet{Files: []*review.File{file}}
		for _, l := range lenses {
			findings, err := l.Check(t.Context(), cs, nil, opts)
			if err != nil {
				t.Fatalf("%s: %v", ff.path, err)
			}
			for _, fd := range findings {
				checkSpan(t, fd.RuleID, fd.Span, ff.path, lines)
				if fd.Fix == nil {
					continue
				}
				if _, err := review.ApplyEdits(content, fd.Fix.Edits); err != nil {
					t.Fatalf("%s: %s: fix %q: %v", ff.path, fd.RuleID, fd.Fix.Title, err)
				}
			}
		}
	})
}

// checkSpan checks that a finding's span cites lines of the file, and
// columns (1-based, 0 for the whole line) on them.
func checkSpan(t *testing.T, rule string, s review.Span, path string, lines []string) {
	t.Helper()
	if s.Path != path || s.StartLine < 1 || s.EndLine < s.StartLine || s.EndLine > len(lines) {
		t.Fatalf("%s: span %+v outside %s's %d lines", rule, s, path, len(lines))
	}
	if s.StartCol < 0 || s.StartCol > len(lines[s.StartLine-1])+1 || s.EndCol < 0 || s.EndCol > len(lines[s.EndLine-1])+1 ||
		s.StartLine == s.EndLine && s.StartCol > 0 && s.EndCol > 0 && s.EndCol < s.StartCol {
		t.Fatalf("%s: span %+v: columns outside lines %q .. %q", rule, s, lines[s.StartLine-1], lines[s.EndLine-1])
	}
}

// TestCatalogMultiLineSpans: a finding on an expression written over
// several lines ends on the expression's last line, not at that line's
// column on the first (found by FuzzCatalog in functional/context-background;
// the rules that cite calls, key-value pairs and assertions the same way
// are checked here too).
func TestCatalogMultiLineSpans(t *testing.T) {
	for _, tt := range []struct {
		rule, src string
		want      review.Span // path left out
	}{
		{"security/weak-crypto", "package p\n\nimport \"crypto/md5\"\n\nfunc Hash(password, salt string) [16]byte {\n\treturn md5.Sum([]byte(password +\n\t\tsalt))\n}\n",
			review.Span{StartLine: 6, StartCol: 9, EndLine: 7, EndCol: 9}},
		{"security/weak-crypto", "package p\n\nimport \"crypto/rc4\"\n\nfunc Enc(key []byte) {\n\tc, _ := rc4.NewCipher(\n\t\tkey)\n\t_ = c\n}\n",
			review.Span{StartLine: 6, StartCol: 10, EndLine: 7, EndCol: 7}},
		{"security/insecure-random", "package p\n\nimport \"math/rand\"\n\nfunc ResetCode() int {\n\tresetCode := rand.Intn(\n\t\t900000)\n\treturn resetCode\n}\n",
			review.Span{StartLine: 6, StartCol: 15, EndLine: 7, EndCol: 10}},
		{"security/tls-verify-disabled", "package p\n\nimport \"crypto/tls\"\n\nvar cfg = &tls.Config{\n\tInsecureSkipVerify:\n\ttrue,\n}\n",
			review.Span{StartLine: 6, StartCol: 2, EndLine: 7, EndCol: 6}},
		{"functional/unchecked-type-assertion", "package p\n\nimport \"context\"\n\ntype key struct{}\n\nfunc User(ctx context.Context) string {\n\treturn ctx.Value(key{}).(\n\t\tstring)\n}\n",
			review.Span{StartLine: 8, StartCol: 25, EndLine: 9, EndCol: 10}},
		{"functional/mutable-default", "def add(item, into=[\n]):\n    into.append(item)\n    return into\n",
			review.Span{StartLine: 1, StartCol: 20, EndLine: 2, EndCol: 2}},
	} {
		path := "p.go"
		if strings.HasPrefix(tt.src, "def ") {
			path = "p.py"
		}
		file := lenstest.NewFile(path, []byte(tt.src))
		cs := &review.ChangeSet{Files: []*review.File{file}}
		var got []review.Span
		for _, l := range catalog() {
			findings, err := l.Check(t.Context(), cs, nil, review.CheckOptions{Depth: review.DepthStandard})
			if err != nil {
				t.Fatal(err)
			}
			for _, fd := range findings {
				if fd.RuleID == tt.rule {
					fd.Span.Path = ""
					got = append(got, fd.Span)
				}
			}
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s on\n%s\ngot spans %+v, want %+v", tt.rule, tt.src, got, tt.want)
		}
	}
}
