package gitdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// eolContents are work tree contents that exercise end-of-line conversion.
var eolContents = map[string]string{
	"lf":        "a\nb\n",
	"crlf":      "a\r\nb\r\n",
	"mixed":     "a\r\nb\nc\r\n",
	"lonecr":    "a\rb\r\n",
	"crateof":   "a\r\nb\r",
	"nul":       "a\x00\r\nb\r\n",
	"ctrlz":     "a\r\nb\r\n\x1a",
	"nonprint":  "\x01\x02\x03\r\n",
	"noeol":     "a\r\nb",
	"empty":     "",
	"ident":     "x $Id: 1234 $ y\r\n$Id$\n$Id: broken\n$ z\n",
	"identonly": "$Id: abc $\n",
}

// TestCleanMatchesGit checks the clean conversion against `git
// hash-object`, which applies it, under each end-of-line configuration.
func TestCleanMatchesGit(t *testing.T) {
	configs := []struct {
		name, autocrlf, eol, attrs string
	}{
		{"defaults", "", "", ""},
		{"autocrlf true", "true", "", ""},
		{"autocrlf input", "input", "", ""},
		{"autocrlf false with eol crlf", "false", "crlf", ""},
		{"text", "", "", "* text\n"},
		{"text auto", "", "", "* text=auto\n"},
		{"text auto eol crlf", "", "crlf", "* text=auto eol=crlf\n"},
		{"eol lf only", "", "", "* eol=lf\n"},
		{"binary under autocrlf", "true", "", "* binary\n"},
		{"-text under autocrlf", "true", "", "* -text\n"},
		{"crlf attribute", "", "", "* crlf\n"},
		{"-crlf under autocrlf", "true", "", "* -crlf\n"},
		{"crlf=input", "", "", "* crlf=input\n"},
		{"text wins over crlf", "true", "", "* -crlf text\n"},
		{"ident", "", "", "* ident\n"},
		{"ident and autocrlf", "true", "", "* ident\n"},
	}
	for _, cfg := range configs {
		t.Run(cfg.name, func(t *testing.T) {
			t.Parallel()
			dir := initRepo(t)
			if cfg.autocrlf != "" {
				runGit(t, dir, "config", "core.autocrlf", cfg.autocrlf)
			}
			if cfg.eol != "" {
				runGit(t, dir, "config", "core.eol", cfg.eol)
			}
			files := map[string]string{}
			for name, c := range eolContents {
				files[name+".txt"] = c
			}
			if cfg.attrs != "" {
				files[".gitattributes"] = cfg.attrs
			}
			write(t, dir, files)
			checkCleanHashes(t, dir, files)
		})
	}
}

// checkCleanHashes compares cleanHash with git hash-object for the files.
func checkCleanHashes(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	r := open(t, dir, Options{})
	st, err := r.newState(resolve(t, r, false, ""))
	if err != nil {
		t.Fatal(err)
	}
	for p, content := range files {
		if p == ".gitattributes" {
			continue
		}
		want := strings.TrimSpace(gitOwnConfig(t, dir, "hash-object", p))
		if got := st.cleanHash(p, []byte(content), st.conv.of(p)).String(); got != want {
			t.Errorf("%s %q: clean hash %s, git hash-object %s", p, content, got, want)
		}
	}
}

// TestCleanKeepsCRLFCommittedAsSuch checks git's "safer autocrlf": under
// text=auto a file whose index version has CRLF is not converted. git
// hash-object does not read the index, so git add is the reference.
func TestCleanKeepsCRLFCommittedAsSuch(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"win.txt": "a\r\nb\r\n", "unix.txt": "a\nb\n", "bin.txt": "\x00\r\n"})
	commitAll(t, dir, "init")
	runGit(t, dir, "config", "core.autocrlf", "true")
	edited := map[string]string{"win.txt": "a\r\nB\r\n", "unix.txt": "a\r\nB\r\n", "bin.txt": "\x00\r\nx\r\n"}
	write(t, dir, edited)
	r := open(t, dir, Options{})
	st, err := r.newState(resolve(t, r, false, ""))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for p, content := range edited {
		got[p] = st.cleanHash(p, []byte(content), st.conv.of(p)).String()
	}
	gitOwnConfig(t, dir, "add", "-A")
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(runGit(t, dir, "ls-files", "-s")), "\n") {
		f := strings.Fields(l)
		want[f[3]] = f[1]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("clean hashes differ from git add's (-git +ours):\n%s", diff)
	}
}

// lfsCleanFilter stands in for `git-lfs clean`: it writes the pointer of
// its input (the test's git runs it; reviewls computes the pointer).
const lfsCleanFilter = `sh -c 'f=$(mktemp); cat >"$f"; printf "version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %s\n" "$(sha256sum <"$f" | cut -d" " -f1)" "$(wc -c <"$f" | tr -d " ")"; rm -f "$f"'`

func TestCleanLFSPointer(t *testing.T) {
	dir := initRepo(t)
	runGit(t, dir, "config", "filter.lfs.clean", lfsCleanFilter)
	runGit(t, dir, "config", "filter.lfs.smudge", "cat")
	big := strings.Repeat("binary\x00data", 300)
	files := map[string]string{".gitattributes": "*.bin filter=lfs -text\n", "a.bin": big, "small.bin": "x", "empty.bin": ""}
	write(t, dir, files)
	checkCleanHashes(t, dir, files)

	// A pointer passes through git-lfs's clean filter unchanged.
	r := open(t, dir, Options{})
	st, err := r.newState(resolve(t, r, false, ""))
	if err != nil {
		t.Fatal(err)
	}
	ptr := "version https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat("ab", 32) + "\nsize 12\n"
	if got, want := st.cleanHash("p.bin", []byte(ptr), st.conv.of("p.bin")), hashObjectString(ptr); got != want {
		t.Errorf("pointer cleans to %s, want itself %s", got, want)
	}
}

func hashObjectString(s string) plumbing.Hash {
	return hashObject(plumbing.BlobObject, []byte(s))
}

// gitOwnConfig runs git in dir with the repository's own core.autocrlf,
// which [runGit] overrides on its command line.
func gitOwnConfig(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return reviewtest.GitEnv(t, dir, []string{"GIT_CONFIG_COUNT=0", "HOME=" + os.Getenv("HOME")}, args...)
}

func TestParseLFSPointer(t *testing.T) {
	oid := strings.Repeat("0a", 32)
	tests := []struct {
		data string
		ok   bool
		size int64
	}{
		{"version https://git-lfs.github.com/spec/v1\noid sha256:" + oid + "\nsize 5\n", true, 5},
		{"version https://hawser.github.com/spec/v1\noid sha256:" + oid + "\nsize 0\n", true, 0},
		{"version https://git-lfs.github.com/spec/v1\next-0-foo sha256:" + oid + "\noid sha256:" + oid + "\nsize 7\n", true, 7},
		{"version https://git-lfs.github.com/spec/v1\noid sha256:" + oid + "\n", false, 0},
		{"version https://git-lfs.github.com/spec/v1\noid md5:" + oid + "\nsize 5\n", false, 0},
		{"version https://git-lfs.github.com/spec/v1\noid sha256:xyz\nsize 5\n", false, 0},
		{"version https://git-lfs.github.com/spec/v1\noid sha256:" + oid + "\nsize -1\n", false, 0},
		{"version 2\noid sha256:" + oid + "\nsize 5\n", false, 0},
		{"hello\n", false, 0},
	}
	for _, tc := range tests {
		got, size, ok := parseLFSPointer([]byte(tc.data))
		if ok != tc.ok || ok && (got != oid || size != tc.size) {
			t.Errorf("parseLFSPointer(%q) = %q, %d, %v; want ok=%v size %d", tc.data, got, size, ok, tc.ok, tc.size)
		}
	}
}

// TestStatusEOL checks Status and Scan in a work tree checked out with
// CRLF: nothing changed until a line is edited, then only that line.
func TestStatusEOL(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"autocrlf true", func(t *testing.T, dir string) { runGit(t, dir, "config", "core.autocrlf", "true") }},
		{"autocrlf true text=auto", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{".gitattributes": "* text=auto\n"})
			runGit(t, dir, "config", "core.autocrlf", "true")
		}},
		{"text eol=crlf", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{".gitattributes": "*.go text eol=crlf\n"})
		}},
		{"text=auto core.eol=crlf", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{".gitattributes": "* text=auto\n"})
			runGit(t, dir, "config", "core.eol", "crlf")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := initRepo(t)
			var body strings.Builder
			for i := range 20 {
				fmt.Fprintf(&body, "// line %d\n", i+1)
			}
			write(t, dir, map[string]string{"a.go": "package a\n" + body.String(), "b.go": "package b\n"})
			tc.setup(t, dir)
			gitOwnConfig(t, dir, "add", "-A")
			gitOwnConfig(t, dir, "commit", "-q", "-m", "init")
			// Check the files out again, with CRLF.
			remove(t, dir, "a.go", "b.go")
			gitOwnConfig(t, dir, "checkout", "--", ".")
			raw, err := os.ReadFile(filepath.Join(dir, "a.go"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(raw), "\r\n") {
				t.Fatalf("checkout wrote no CRLF: %q", raw[:20])
			}
			r := open(t, dir, Options{})
			if cs := scan(t, r, resolve(t, r, false, ""), nil); len(cs.Files) != 0 {
				t.Fatalf("fresh CRLF checkout: files %v, want none", cs.Paths())
			}

			// Rewriting the files with LF (another size) is no change either.
			write(t, dir, map[string]string{"b.go": "package b\n"})
			if got := gitOwnConfig(t, dir, "diff", "--name-only"); got != "" {
				t.Fatalf("git diff --name-only = %q", got)
			}
			if cs := scan(t, open(t, dir, Options{}), resolve(t, r, false, ""), nil); len(cs.Files) != 0 {
				t.Errorf("LF rewrite: files %v, want none", cs.Paths())
			}

			// One edited line is one changed line, numbered as in the
			// work tree.
			edited := strings.Replace(string(raw), "// line 7\r\n", "// line seven\r\n", 1)
			write(t, dir, map[string]string{"a.go": edited})
			cs := scan(t, open(t, dir, Options{}), resolve(t, r, false, ""), nil)
			f := cs.File("a.go")
			if f == nil || len(cs.Files) != 1 {
				t.Fatalf("files %v, want a.go", cs.Paths())
			}
			if f.Added != 1 || f.Deleted != 1 || !cmp.Equal(f.Lines, map[int]review.LineState{8: review.LineUnstaged}) {
				t.Errorf("a.go: +%d -%d lines %v, want +1 -1 at line 8", f.Added, f.Deleted, f.Lines)
			}
			if want := hunkHeadersOf(gitOwnConfig(t, dir, "diff", "--", "a.go")); !cmp.Equal(hunkHeaders(f.Hunks), want) {
				t.Errorf("hunks %v, git %v", hunkHeaders(f.Hunks), want)
			}
			if string(f.Content) != edited {
				t.Errorf("content is not the work tree's")
			}

			// An editor buffer is compared the same way.
			ov := map[string][]byte{"a.go": raw}
			if cs := scan(t, open(t, dir, Options{}), resolve(t, r, false, ""), ov); len(cs.Files) != 0 {
				t.Errorf("overlay with the committed content: files %v, want none", cs.Paths())
			}

			// And a refresh after the edit is reverted.
			r2 := open(t, dir, Options{})
			cs = scan(t, r2, resolve(t, r2, false, ""), nil)
			write(t, dir, map[string]string{"a.go": string(raw)})
			cs, err = r2.Refresh(t.Context(), cs, nil, "a.go")
			if err != nil {
				t.Fatal(err)
			}
			if len(cs.Files) != 0 {
				t.Errorf("refresh after the revert: files %v, want none", cs.Paths())
			}
		})
	}
}

// TestHashMemoFollowsAttributes checks that a remembered hash of a file is
// not reused once its conversion changed.
func TestHashMemoFollowsAttributes(t *testing.T) {
	dir := initRepo(t)
	// The index records the CRLF file's size, and the LF blob.
	write(t, dir, map[string]string{".gitattributes": "*.txt text\n", "a.txt": "a\r\nb\r\n"})
	commitAll(t, dir, "init")
	// Stat data that no longer matches, same size: the content is hashed.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "a.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir, Options{})
	if cs := scan(t, r, resolve(t, r, false, ""), nil); len(cs.Files) != 0 {
		t.Fatalf("files %v, want none (text converts CRLF)", cs.Paths())
	}
	write(t, dir, map[string]string{".gitattributes": "*.txt -text\n"})
	cs := scan(t, r, resolve(t, r, false, ""), nil)
	if f := cs.File("a.txt"); f == nil || f.Added != 2 || f.Deleted != 2 {
		t.Errorf("after -text: files %v, want a.txt +2 -2", cs.Paths())
	}
}

// TestScanFilters checks that paths with a filter driver, and Git LFS
// pointers, are listed with the filter's name and never diffed raw, and
// that an unchanged LFS file is clean even when its stat data is stale.
func TestScanFilters(t *testing.T) {
	dir := initRepo(t)
	runGit(t, dir, "config", "filter.lfs.clean", lfsCleanFilter)
	runGit(t, dir, "config", "filter.lfs.smudge", "cat")
	runGit(t, dir, "config", "filter.lfs.required", "true")
	runGit(t, dir, "config", "filter.crypt.clean", "cat")
	runGit(t, dir, "config", "filter.crypt.smudge", "cat")
	big := strings.Repeat("binary\x00data\n", 300)
	ptr := "version https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat("ab", 32) + "\nsize 12\n"
	write(t, dir, map[string]string{
		".gitattributes": "*.bin filter=lfs diff=lfs merge=lfs -text\n*.enc filter=crypt\n*.nodrv filter=nodriver\n",
		"a.bin":          big,
		"same.bin":       big + "same\n",
		"secret.enc":     "key = 1\n",
		"plain.nodrv":    "one\n",
		"raw.dat":        ptr,
	})
	commitAll(t, dir, "init")
	if blob := runGit(t, dir, "cat-file", "-p", "HEAD:a.bin"); !strings.HasPrefix(blob, "version https://git-lfs") {
		t.Fatalf("the test's clean filter stored %q", blob[:20])
	}
	write(t, dir, map[string]string{
		"a.bin":       big + "more\n",
		"secret.enc":  "key = 2\n",
		"plain.nodrv": "two\n",
		"raw.dat":     "the real content\n",
	})
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "same.bin"), old, old); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir, Options{})
	cs := scan(t, r, resolve(t, r, false, ""), nil)
	want := map[string]string{
		"a.bin":       "filter lfs: clean/smudge filters are not run",
		"secret.enc":  "filter crypt: clean/smudge filters are not run",
		"plain.nodrv": "",
		"raw.dat":     "filter lfs: clean/smudge filters are not run",
	}
	got := map[string]string{}
	for _, f := range cs.Files {
		got[f.Path] = f.Skip.String()
		if f.Skip != "" && (len(f.Hunks) != 0 || f.Content != nil || f.Added+f.Deleted != 0) {
			t.Errorf("%s (%s) was diffed: +%d -%d", f.Path, f.Skip, f.Added, f.Deleted)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skips (-want +got):\n%s", diff)
	}
	// git status runs the clean filters; Status computes git-lfs's.
	checkStatus(t, dir)
}

// TestRefreshAttributesChange checks that refreshing a .gitattributes file
// scans again: every path's conversion may have changed.
func TestRefreshAttributesChange(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{".gitattributes": "*.txt -text\n", "a.txt": "a\nb\n"})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{"a.txt": "a\r\nb\r\n"})
	r := open(t, dir, Options{})
	prev := scan(t, r, resolve(t, r, false, ""), nil)
	if prev.File("a.txt") == nil {
		t.Fatalf("files %v, want a.txt (-text keeps CRLF)", prev.Paths())
	}
	write(t, dir, map[string]string{".gitattributes": "*.txt text\n"})
	cs, err := r.Refresh(t.Context(), prev, nil, ".gitattributes")
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.Paths(); !cmp.Equal(got, []string{".gitattributes"}) {
		t.Errorf("after *.txt text: files %v, want only .gitattributes", got)
	}
}
