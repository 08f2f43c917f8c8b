package review

import (
	"encoding/json"
	"path"
	"testing"
)

func TestLanguageTable(t *testing.T) {
	seen := map[string]Language{}
	exts := map[string]Language{}
	for _, l := range Languages() {
		info := l.Info()
		if info.ID == "" || info.Name == "" {
			t.Errorf("language %d has no id or name", l)
		}
		if o, dup := seen[info.ID]; dup {
			t.Errorf("id %q is both %d and %d", info.ID, o, l)
		}
		seen[info.ID] = l
		for _, e := range info.Exts {
			if o, dup := exts[e]; dup {
				t.Errorf("extension %s is both %s and %s", e, o, l)
			}
			exts[e] = l
		}
		if got, ok := ParseLanguage(l.String()); !ok || got != l {
			t.Errorf("ParseLanguage(%q) = %v, %v", l, got, ok)
		}
		if f := l.Family(); f.Family() != f {
			t.Errorf("%s: family %s is not its own family's first language", l, f)
		}
		if info.Symbols && !info.Tokens.Known && l != LangGo {
			t.Errorf("%s: symbols extracted from a language the lexer does not know", l)
		}
	}
	if LangUnknown.String() != "" || Language(200).String() != "" {
		t.Error("an unknown language has an id")
	}
	if _, ok := ParseLanguage("cobol"); ok {
		t.Error("ParseLanguage accepted an unknown id")
	}
}

func TestLanguageJSON(t *testing.T) {
	b, err := json.Marshal(struct{ L []Language }{[]Language{LangActions, LangGoMod, LangUnknown}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"L":["github-actions","go.mod",""]}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	var back struct{ L []Language }
	if err := json.Unmarshal(b, &back); err != nil || len(back.L) != 3 || back.L[0] != LangActions || back.L[1] != LangGoMod {
		t.Fatalf("round trip: %v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"L":["cobol"]}`), &back); err == nil {
		t.Fatal("decoded an unknown language id")
	}
}

func TestDetectLanguage(t *testing.T) {
	for _, tt := range []struct {
		path, first string
		want        Language
	}{
		{"a/b.go", "", LangGo},
		{"go.mod", "", LangGoMod},
		{"GO.MOD", "", LangUnknown},
		{"x/Dockerfile", "", LangDockerfile},
		{"Dockerfile.dev", "", LangDockerfile},
		{"dockerfile.yml", "", LangDockerfile},
		{"web.dockerfile", "", LangDockerfile},
		{"Containerfile", "", LangDockerfile},
		{"GNUmakefile", "", LangMakefile},
		{"rules.mk", "", LangMakefile},
		{".github/workflows/ci.yml", "", LangActions},
		{"sub/.github/workflows/ci.yaml", "", LangActions},
		{".github/actions/setup/action.yml", "", LangActions},
		{"action.yaml", "", LangActions},
		{"config/ci.yml", "", LangYAML},
		{"App.TSX", "", LangTSX},
		{"lib.mjs", "", LangJavaScript},
		{"bin/tool", "#!/usr/bin/env python3", LangPython},
		{"bin/tool", "#!/usr/bin/env node", LangJavaScript},
		{"bin/tool", "#!/bin/bash", LangShell},
		{"bin/tool", "#!/usr/bin/perl", LangUnknown},
		{"bin/tool.pl", "#!/bin/sh", LangUnknown},
		{"README", "", LangUnknown},
	} {
		if got := DetectLanguage(tt.path, []byte(tt.first+"\n")); got != tt.want {
			t.Errorf("DetectLanguage(%q, %q) = %q, want %q", tt.path, tt.first, got, tt.want)
		}
	}
}

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"pkg/a_test.go": true, "pkg/a.go": false, "pkg/test.go": false,
		"app/test_views.py": true, "app/views_test.py": true, "app/testing.py": false,
		"web/a.test.ts": true, "web/a.spec.jsx": true, "web/atest.ts": false,
		"src/FooTest.java": true, "src/FooTests.java": true, "src/Foo.java": false,
		"lib/foo_spec.rb": true, "lib/foo_test.rb": true,
		"web/__tests__/a.js": true, "tests/x.py": true, "pkg/testdata/x.go": true,
		"spec/a.rb": true, "contest/a.go": false,
	} {
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestLanguagePredicates(t *testing.T) {
	for _, l := range Languages() {
		js := l == LangJavaScript || l == LangJSX || l == LangTypeScript || l == LangTSX
		if l.IsJS() != js {
			t.Errorf("%s.IsJS() = %v", l, !js)
		}
		markup := js && (l == LangJSX || l == LangTSX) || l == LangHTML || l == LangVue || l == LangSvelte
		if l.IsMarkup() != markup {
			t.Errorf("%s.IsMarkup() = %v", l, !markup)
		}
	}
	if LangVue.Family() != LangJavaScript || LangGo.Family() != LangGo {
		t.Error("families")
	}
}

// TestTestMatchers checks the compiled test-file patterns against
// path.Match, which they stand in for, on names around each pattern.
func TestTestMatchers(t *testing.T) {
	names := []string{"", "a", "test", "a_test.go", "_test.go", "test_.py", "test_a.py", "a.test.", ".test.", "a.test.ts",
		"a.spec.jsx", "atest.ts", "footest.java", "foo_spec.rb", "x_test.rb", "a.test", "test.ts", "spec.", "a_test.go.bak"}
	kinds := map[int]bool{}
	for _, m := range testMatchers() {
		kinds[m.kind] = true
		for _, n := range names {
			want, _ := path.Match(m.pattern, n)
			if got := m.match(n); got != want {
				t.Errorf("pattern %q on %q: %v, path.Match says %v", m.pattern, n, got, want)
			}
		}
	}
	if !kinds[1] || !kinds[2] {
		t.Errorf("matcher kinds used: %v, want the prefix/suffix and the substring forms", kinds)
	}
}
