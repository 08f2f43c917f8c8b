package gitdiff

import (
	"strconv"
	"strings"
	"testing"
)

// TestIgnoreMatchesGit checks every pattern against every path with `git
// check-ignore`, one pattern at a time, so that the parser and wildmatch
// agree with git on globs, classes, escapes, "**" and anchoring. A path is
// ignored when it or one of its parent directories matches, as during a
// walk.
func TestIgnoreMatchesGit(t *testing.T) {
	patterns := []string{
		"foo", "/foo", "foo/", "*.go", "f*", "*f", "*foo*", "???", "f?o",
		"foo/bar", "/foo/bar", "foo/*", "foo/*/baz", "foo/**", "**/foo", "**/foo/bar",
		"foo/**/bar", "foo/**/**/bar", "a/**/b/**/c", "**", "*/bar", "**/bar/*", "**/bar/**",
		"foo*bar", "foo**bar", "foo?bar", "foo[/]bar", "foo[^a-z]bar", "f[^eiu][^eiu]",
		"[abc]", "[!abc]*", "t[a-g]n", "t[!a-g]n", "t[^a-g]n", "a[]]b", "a[]-]b", "a[]a-]b",
		"[[:alpha:]]*", "[[:digit:]][[:digit:]]", "[[:upper:]]*", "[[:space:]]*", "x[[:punct:]]y",
		"[a-", "[[:nope:]]", "\\*", "foo\\*", "\\#hash", "\\!bang", "trailing\\ ", "back\\\\slash",
		"*.txt/", "deep/**/*.txt", "**/*.min.js", "*~", ".*", "a.b", "a?b", "ü*",
	}
	paths := []string{
		"foo", "bar", "foo/bar", "foo/baz/bar", "foo/b/a/z/bar", "foobar", "foobazbar", "foo-bar",
		"bar/foo", "bar/baz/foo", "deep/foo/bar", "deep/foo/bar/baz", "deep/foo/bar/baz/x",
		"a", "b", "c", "ab", "a]b", "a-b", "aab", "ten", "ton", "tan", "abc", "12", "1a",
		"Upper", " space", "x.y", "x_y", "*", "foo*", "#hash", "!bang", "trailing ", "back\\slash",
		"x.txt", "dir.txt/inner", "deep/x.txt", "deep/a/b/x.txt", "lib/app.min.js", "app.min.js",
		"file~", ".hidden", ".hidden/x", "a.b", "a/b", "axb", "a/x/b/y/c", "a/b/c", "ünï", "f.o",
		"foo/baz", "x/foo/baz", "foo/x/baz",
	}
	dirs := []string{"dir.txt", "foo", "deep", "deep/foo", "deep/foo/bar", "bar", "bar/baz", "a", "a/x", "a/x/b", "a/x/b/y", "a/b", ".hidden", "foo/b", "foo/b/a", "foo/b/a/z", "foo/baz", "lib", "x", "x/foo", "deep/a", "deep/a/b", "foo/x", "deep/foo/bar/baz"}

	dir := initRepo(t)
	for _, d := range dirs {
		write(t, dir, map[string]string{d + "/.keep": ""})
	}
	for _, pat := range patterns {
		write(t, dir, map[string]string{".gitignore": pat + "\n"})
		want := checkIgnore(t, dir, paths)
		frame := (*ignoreFrame)(nil).push([]byte(pat+"\n"), "")
		for _, p := range paths {
			got := ignoredWithParents(frame, p, isDirIn(dirs, p))
			if got != want[p] {
				t.Errorf("pattern %q, path %q: ignored %v, git %v", pat, p, got, want[p])
			}
		}
	}
}

// ignoredWithParents applies frame to p and its parent directories.
func ignoredWithParents(f *ignoreFrame, p string, isDir bool) bool {
	for i := strings.IndexByte(p, '/'); i >= 0; {
		if f.excluded(p[:i], true) {
			return true
		}
		j := strings.IndexByte(p[i+1:], '/')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return f.excluded(p, isDir)
}

func isDirIn(dirs []string, p string) bool {
	for _, d := range dirs {
		if d == p {
			return true
		}
	}
	return false
}

// checkIgnore returns which of paths git ignores.
func checkIgnore(t *testing.T, dir string, paths []string) map[string]bool {
	t.Helper()
	args := append([]string{"-c", "core.quotePath=false", "check-ignore", "--no-index", "-v", "-n", "--"}, paths...)
	out := runGitAllowDiff(t, dir, args...)
	// Each line is "source:line:pattern<TAB>path", with empty fields for a
	// path no pattern matches; unusual paths are C-quoted.
	got := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		info, p, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		if strings.HasPrefix(p, "\"") {
			var err error
			if p, err = strconv.Unquote(p); err != nil {
				t.Fatalf("unquote %s: %v", line, err)
			}
		}
		_, pattern, _ := strings.Cut(strings.SplitN(info, ":", 2)[1], ":")
		got[p] = pattern != "" && !strings.HasPrefix(pattern, "!")
	}
	if len(got) != len(paths) {
		t.Fatalf("check-ignore reported %d paths of %d:\n%s", len(got), len(paths), out)
	}
	return got
}

func TestParseIgnore(t *testing.T) {
	ps := parseIgnore([]byte("\xef\xbb\xbf# c\n\n!neg/\n  \nesc\\ \ntrail  \r\n/anch*\n"), "sub/")
	var got []string
	for _, p := range ps {
		got = append(got, p.text+"|"+boolStr(p.negative, "!")+boolStr(p.mustBeDir, "/")+boolStr(p.noDir, "n")+boolStr(p.endsWith, "e")+"|"+p.base)
	}
	want := []string{"neg|!/n|sub/", "esc\\ |n|sub/", "trail|n|sub/", "/anch*||sub/"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("patterns = %q, want %q", got, want)
	}
}

func boolStr(b bool, s string) string {
	if b {
		return s
	}
	return ""
}

// TestMatcher checks the watcher's matcher against git check-ignore.
func TestMatcher(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{
		".gitignore":        "build/\n*.log\n!keep.log\n/node_modules\n",
		"src/.gitignore":    "gen/\n!gen/keep/\n",
		"src/a.go":          "package a\n",
		"docs/x.md":         "x\n",
		".git/info/exclude": "secret-dir/\n",
	})
	r := open(t, dir, Options{Ignore: []string{"vendor/**"}})
	m, err := r.Matcher()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"src", true, false},
		{"build", true, true},
		{"src/build", true, true},
		{"src/build/x", true, true},
		{"node_modules", true, true},
		{"src/node_modules", true, false},
		{"src/gen", true, true},
		{"docs", true, false},
		{"a.log", false, true},
		{"keep.log", false, false},
		{"secret-dir", true, true},
		{"vendor", true, true},
		{".git", true, true},
		{".copilot-tracking", true, true},
	} {
		if got := m.Ignored(tt.path, tt.isDir); got != tt.want {
			t.Errorf("Ignored(%q, %v) = %v, want %v", tt.path, tt.isDir, got, tt.want)
		}
	}
}
