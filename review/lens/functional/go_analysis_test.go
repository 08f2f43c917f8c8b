package functional

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/internal/treetest"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// goModule writes files (path -> content) into a temporary module and
// returns a change set in which every file is changed.
func goModule(t testing.TB, root string, files map[string]string) *review.ChangeSet {
	t.Helper()
	cs := &review.ChangeSet{Root: root}
	treetest.Write(t, root, files)
	for p, content := range files {
		cs.Files = append(cs.Files, lenstest.NewFile(p, []byte(content)))
	}
	cs.Sort()
	return cs
}

func checkGoAnalysis(t testing.TB, cs *review.ChangeSet) []*review.Finding {
	t.Helper()
	got, err := lens.New(review.Functional, GoAnalysis).Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthComprehensive})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestGoAnalysis(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/bugs\n\ngo 1.22\n"}
	entries, err := os.ReadDir("testdata/go-analysis")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata/go-analysis", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files["bugs/"+e.Name()] = string(b)
	}
	cs := goModule(t, t.TempDir(), files)
	got := checkGoAnalysis(t, cs)
	for _, f := range cs.Files {
		if f.Language != review.LangGo {
			continue
		}
		var mine []*review.Finding
		for _, fd := range got {
			if fd.Span.Path == f.Path {
				mine = append(mine, fd)
			}
		}
		lenstest.Expect(t, GoAnalysis, f, mine)
	}
	for _, fd := range got {
		if fd.Category == "" || !fd.Severity.Valid() {
			t.Errorf("%s:%d: category %q, severity %v", fd.Span.Path, fd.Span.StartLine, fd.Category, fd.Severity)
		}
	}
}

// TestGoAnalysisOverlay checks that the reviewed content, not the disk,
// is analysed, and that only changed lines are reported.
func TestGoAnalysisOverlay(t *testing.T) {
	root := t.TempDir()
	cs := goModule(t, root, map[string]string{
		"go.mod": "module example.com/x\n\ngo 1.22\n",
		"x.go":   "package x\n\nimport \"fmt\"\n\nfunc F(s string) { fmt.Printf(\"%s\\n\", s) }\n",
	})
	f := cs.File("x.go")
	f.Content = []byte("package x\n\nimport \"fmt\"\n\nfunc F(s string) { fmt.Printf(\"%d\\n\", s) }\n\nfunc G(n int) { fmt.Printf(\"%s\\n\", n) }\n")
	f.Lines = map[int]review.LineState{5: review.LineUnstaged}
	got := checkGoAnalysis(t, cs)
	if len(got) != 1 || got[0].Span.StartLine != 5 || !strings.Contains(got[0].Title, "printf") {
		t.Fatalf("got %+v, want one printf finding on line 5", got)
	}
}

// TestGoAnalysisDegrades checks that what cannot be loaded yields no
// findings and no error: no go.mod, a syntax error, a missing dependency.
func TestGoAnalysisDegrades(t *testing.T) {
	bad := "package x\n\nimport \"fmt\"\n\nfunc F(s string) { fmt.Printf(\"%d\\n\", s) }\n"
	for name, files := range map[string]map[string]string{
		"no go.mod":    {"x.go": bad},
		"syntax error": {"go.mod": "module example.com/x\n\ngo 1.22\n", "x.go": bad + "func (\n"},
		"missing dependency": {"go.mod": "module example.com/x\n\ngo 1.22\n\nrequire example.com/absent v1.0.0\n",
			"x.go": strings.Replace(bad, "import \"fmt\"", "import (\n\t\"fmt\"\n\n\t\"example.com/absent\"\n)\n\nvar _ = absent.X", 1)},
	} {
		if got := checkGoAnalysis(t, goModule(t, t.TempDir(), files)); len(got) != 0 {
			t.Errorf("%s: got %d findings, want 0", name, len(got))
		}
	}
	// Below depth comprehensive the rule does not run at all.
	cs := goModule(t, t.TempDir(), map[string]string{"go.mod": "module example.com/x\n\ngo 1.22\n", "x.go": bad})
	got, err := lens.New(review.Functional, GoAnalysis).Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthStandard})
	if err != nil || len(got) != 0 {
		t.Errorf("depth standard: got %d findings, err %v", len(got), err)
	}
}

// BenchmarkGoAnalysis measures one comprehensive run of the rule on a
// small module of four 100-line files (a fresh change set each time, as
// every review brings one; the build cache is warm after the first).
func BenchmarkGoAnalysis(b *testing.B) {
	root := b.TempDir()
	files := map[string]string{"go.mod": "module example.com/bench\n\ngo 1.22\n"}
	for i := range 4 {
		var sb strings.Builder
		sb.WriteString("package bench\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\t\"sync\"\n)\n\n")
		for j := 0; strings.Count(sb.String(), "\n") < 100; j++ {
			sb.WriteString(strings.NewReplacer("N", string(rune('a'+i)), "M", string(rune('a'+j%26))+strings.Repeat("x", j/26)).Replace(
				"// FNM joins parts.\nfunc FNM(mu *sync.Mutex, parts []string) string {\n\tmu.Lock()\n\tdefer mu.Unlock()\n\treturn fmt.Sprintf(\"%s\", strings.Join(parts, \",\"))\n}\n\n"))
		}
		files["bench/f"+string(rune('a'+i))+".go"] = sb.String()
	}
	goModule(b, root, files)
	b.ReportAllocs()
	for b.Loop() {
		cs := goModule(b, root, files)
		if got := checkGoAnalysis(b, cs); len(got) != 0 {
			b.Fatalf("got %d findings on clean code: %s", len(got), got[0].Message)
		}
	}
}

// TestLoaderEnv checks that packages are loaded in the user's Go
// environment, whose build cache keys (CGO_ENABLED, -tags) match their
// go build, while -mod is always one that never writes go.mod.
func TestLoaderEnv(t *testing.T) {
	t.Setenv("CGO_ENABLED", "1")
	t.Setenv("GOFLAGS", "-tags=integration -mod=mod --mod=mod")
	env := loaderEnv(t.TempDir())
	get := func(key string) string {
		v := ""
		for _, kv := range env {
			if k, val, ok := strings.Cut(kv, "="); ok && k == key {
				v = val // the last one wins, as for the go command
			}
		}
		return v
	}
	if got := get("CGO_ENABLED"); got != "1" {
		t.Errorf("CGO_ENABLED = %q, want the user's 1: another value compiles net and its importers again", got)
	}
	if got, want := get("GOFLAGS"), "-tags=integration -mod=readonly -buildvcs=false"; got != want {
		t.Errorf("GOFLAGS = %q, want %q", got, want)
	}
	for key, want := range map[string]string{"GOPROXY": "off", "GOSUMDB": "off", "GOVCS": "*:off", "GOWORK": "off", "GOTOOLCHAIN": "local"} {
		if got := get(key); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	// A workspace file the user names is theirs to use; the one a
	// repository holds (GOWORK unset or auto) is not.
	work := filepath.Join(t.TempDir(), "go.work")
	t.Setenv("GOWORK", work)
	if got := get2(loaderEnv(t.TempDir()), "GOWORK"); got != work {
		t.Errorf("GOWORK = %q, want the user's %q", got, work)
	}
	t.Setenv("GOWORK", "auto")
	if got := get2(loaderEnv(t.TempDir()), "GOWORK"); got != "off" {
		t.Errorf("GOWORK = %q with the user's auto, want off", got)
	}
}

// get2 returns the value of key in env, the last one winning as for the
// go command.
func get2(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// TestGoAnalysisLoadFailure checks that an analysis that cannot load the
// changed package says why, never downloading what is missing: a go.mod
// that needs a toolchain that is not installed (GOTOOLCHAIN=local), a
// module that is not in the module cache (GOPROXY=off), a go.sum without
// its entry, a package that does not type-check.
func TestGoAnalysisLoadFailure(t *testing.T) {
	t.Setenv("GOMODCACHE", t.TempDir()) // empty: every dependency is missing
	t.Setenv("GOFLAGS", "")
	const dep = "github.com/example/absent"
	importer := "package m\n\nimport _ \"" + dep + "\"\n"
	requires := "module example.com/m\n\ngo 1.22\n\nrequire " + dep + " v1.2.3\n"
	sums := dep + " v1.2.3 h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n" + dep + " v1.2.3/go.mod h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
	for name, tc := range map[string]struct {
		files map[string]string
		want  string
	}{
		"toolchain": {map[string]string{"go.mod": "module example.com/m\n\ngo 1.99\n", "m.go": "package m\n"},
			"go.mod needs go1.99 (not installed; reviewls never downloads toolchains)"},
		"module cache": {map[string]string{"go.mod": requires, "go.sum": sums, "m.go": importer},
			"the module of " + dep + " is not in the module cache (run 'go mod download'; reviewls never downloads modules)"},
		"go.sum": {map[string]string{"go.mod": requires, "m.go": importer},
			"go.sum has no entry for the module of " + dep + " (run 'go mod download')"},
		"type errors": {map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": "package m\n\nvar x int = \"token-1234\"\n"},
			"example.com/m does not type-check (run 'go vet' to see why)"},
		"no module": {map[string]string{"m.go": "package m\n"},
			"no changed Go file is in a module (no go.mod above it)"},
	} {
		root := t.TempDir()
		cs := goModule(t, root, tc.files)
		checkGoAnalysis(t, cs)
		n, reason, ok := review.AnalysisLoadOf.OfSet(cs, review.NewAnalysisLoad).Get()
		if !ok || n != 0 || reason != tc.want {
			t.Errorf("%s: loaded %d packages (reported %v), reason %q; want none, %q", name, n, ok, reason, tc.want)
		}
		// The go command leaves lock files; nothing else may appear.
		filepath.WalkDir(os.Getenv("GOMODCACHE"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".lock") {
				t.Errorf("%s: %s was downloaded", name, p)
			}
			return nil
		})
	}
	// A package that loads is counted.
	cs := goModule(t, t.TempDir(), map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": "package m\n"})
	checkGoAnalysis(t, cs)
	if n, reason, ok := review.AnalysisLoadOf.OfSet(cs, review.NewAnalysisLoad).Get(); !ok || n != 1 || reason != "" {
		t.Errorf("a clean module: loaded %d packages (reported %v), reason %q; want 1", n, ok, reason)
	}
}
