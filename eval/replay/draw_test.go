package main

import (
	"slices"
	"strings"
	"testing"
)

func TestEligible(t *testing.T) {
	src := func(lines int) []fileChange { return []fileChange{{Path: "pkg/a.go", Lines: lines}} }
	for _, tt := range []struct {
		name string
		c    fixCommit
		want bool
	}{
		{"a fix", fixCommit{Subject: "Fix panic on nil map", Message: "Fix panic on nil map\n", Files: src(10)}, true},
		{"said in the body", fixCommit{Subject: "pkg: check the length", Message: "pkg: check the length\n\nFixes #12\n", Files: src(10)}, true},
		{"no fix word", fixCommit{Subject: "Add a flag", Message: "Add a flag\n\nprefix, fixture and debug say nothing\n", Files: src(10)}, false},
		{"a bump", fixCommit{Subject: "Bump x from 1 to 2", Message: "Bump x from 1 to 2\n\nfixes CVE\n", Files: src(2)}, false},
		{"too many lines", fixCommit{Subject: "fix", Message: "fix", Files: src(81)}, false},
		{"80 lines over two files", fixCommit{Subject: "fix", Message: "fix", Files: []fileChange{{"a.py", 40}, {"tests/test_a.py", 40}}}, true},
		{"tests only", fixCommit{Subject: "fix", Message: "fix", Files: []fileChange{{"a_test.go", 3}, {"src/__tests__/b.ts", 3}}}, false},
		{"docs do not count", fixCommit{Subject: "fix", Message: "fix", Files: []fileChange{{"README.md", 300}, {"a.js", 3}}}, true},
		{"no source", fixCommit{Subject: "fix", Message: "fix", Files: []fileChange{{"README.md", 3}}}, false},
		{"vendored", fixCommit{Subject: "fix", Message: "fix", Files: []fileChange{{"vendor/x/a.go", 3}}}, false},
		{"six files", fixCommit{Subject: "fix", Message: "fix", Files: []fileChange{{"a.go", 1}, {"b.go", 1}, {"c.go", 1}, {"d.go", 1}, {"e.go", 1}, {"f.go", 1}}}, false},
		{"binary source", fixCommit{Subject: "fix", Message: "fix", Files: []fileChange{{"a.go", -1}}}, false},
	} {
		if got := eligible(tt.c); got != tt.want {
			t.Errorf("%s: eligible = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"a_test.go": true, "tests/test_x.py": true, "src/x.spec.ts": true, "lib/__tests__/y.js": true,
		"integration-cli/docker_cli_run_test.go": true, "pkg/testdata/a.go": true, "conftest.py": true,
		"src/flask/testing.py": false, "latest.go": false, "contest.py": false, "src/attest/x.go": false,
	} {
		if got := isTestPath(p); got != want {
			t.Errorf("isTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestDrawOrder(t *testing.T) {
	var cs []fixCommit
	for _, s := range []string{"a1", "b2", "c3", "d4", "e5", "f6"} {
		cs = append(cs, fixCommit{SHA: s})
	}
	shas := func(cs []fixCommit) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.SHA)
		}
		return out
	}
	first := shas(drawOrder(27, cs))
	reversed := slices.Clone(cs)
	slices.Reverse(reversed)
	if got := shas(drawOrder(27, reversed)); !slices.Equal(got, first) {
		t.Errorf("the draw depends on the order of the history: %v, %v", got, first)
	}
	if got := shas(drawOrder(27, cs[:4])); !slices.Equal(got, slices.DeleteFunc(slices.Clone(first), func(s string) bool { return s == "e5" || s == "f6" })) {
		t.Errorf("commits added to the history reorder the others: %v in %v", got, first)
	}
	if slices.Equal(shas(drawOrder(28, cs)), first) && slices.Equal(shas(drawOrder(29, cs)), first) {
		t.Errorf("the seed changes nothing: %v", first)
	}
	if !slices.Equal(shas(cs), []string{"a1", "b2", "c3", "d4", "e5", "f6"}) {
		t.Error("drawOrder reordered its argument")
	}
}

func TestParseLog(t *testing.T) {
	out := "\x1eabc\x1fFix x\x1fFix x\n\nbody\n\x1f\n\n3\t1\ta.go\n-\t-\timg.png\n" +
		"\x1edef\x1fDocs\x1fDocs\n\x1f\n"
	cs := parseLog([]byte(out))
	if len(cs) != 2 {
		t.Fatalf("parseLog = %+v", cs)
	}
	if c := cs[0]; c.SHA != "abc" || c.Subject != "Fix x" || !strings.Contains(c.Message, "body") ||
		!slices.Equal(c.Files, []fileChange{{"a.go", 4}, {"img.png", -1}}) {
		t.Errorf("first = %+v", c)
	}
	if c := cs[1]; c.SHA != "def" || len(c.Files) != 0 {
		t.Errorf("second = %+v", c)
	}
}

func TestLanguage(t *testing.T) {
	for p, want := range map[string]string{"a.go": "Go", "b.py": "Python", "c.tsx": "JS/TS", "d.mjs": "JS/TS", "e.md": ""} {
		if got := language(p); got != want {
			t.Errorf("language(%q) = %q, want %q", p, got, want)
		}
	}
}
