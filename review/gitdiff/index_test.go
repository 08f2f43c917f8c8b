package gitdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseIndexMatchesGit reads indexes of every version and checks the
// entries against `git ls-files --stage`, and the cache-tree (read or
// computed) against `git write-tree`.
func TestParseIndexMatchesGit(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			dir := initRepo(t)
			files := map[string]string{"a.txt": "a\n", "b/c.txt": "c\n", "b/d/e.txt": "e\n", "b.txt": "b\n", "b-c/x": "x\n", strings.Repeat("long/", 30) + "name.txt": "long\n"}
			write(t, dir, files)
			symlink(t, dir, "a.txt", "link")
			runGit(t, dir, "update-index", "--index-version", version)
			commitAll(t, dir, "init")
			write(t, dir, map[string]string{"n.txt": "intent\n"})
			runGit(t, dir, "add", "-N", "n.txt")
			if version == "3" {
				runGit(t, dir, "update-index", "--skip-worktree", "a.txt")
			}

			idx, err := readIndex(filepath.Join(dir, ".git", "index"), filepath.Join(dir, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(lsFilesStage(t, dir), stageLines(idx)); diff != "" {
				t.Errorf("entries (-git +parsed):\n%s", diff)
			}
			for _, e := range idx.entries {
				if (e.name == "n.txt") != e.intentAdd {
					t.Errorf("%s: intent-to-add %v", e.name, e.intentAdd)
				}
				if (version == "3" && e.name == "a.txt") != e.skipWorkTr {
					t.Errorf("%s: skip-worktree %v", e.name, e.skipWorkTr)
				}
			}

			// write-tree leaves a valid cache-tree.
			runGit(t, dir, "rm", "-q", "--cached", "n.txt")
			tree := strings.TrimSpace(runGit(t, dir, "write-tree")) // revalidates the cache-tree
			idx, err = readIndex(filepath.Join(dir, ".git", "index"), filepath.Join(dir, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			if !idx.tree.valid() || idx.tree.hash.String() != tree {
				t.Errorf("cache-tree root %+v, want valid %s", idx.tree, tree)
			}
			if got := idx.computeCacheTree(); got.hash.String() != tree || got.count != idx.tree.count {
				t.Errorf("computed root %s (%d entries), want %s (%d)", got.hash, got.count, tree, idx.tree.count)
			}
		})
	}
}

func TestComputeCacheTreeSkipsIntentToAdd(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n", "new/n.txt": "n\n", "d/x": "x\n"})
	runGit(t, dir, "add", "a.txt", "d/x")
	runGit(t, dir, "add", "-N", "new/n.txt")
	idx, err := readIndex(filepath.Join(dir, ".git", "index"), filepath.Join(dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(runGit(t, dir, "write-tree"))
	if got := idx.computeCacheTree(); got.hash.String() != want {
		t.Errorf("computed tree %s, git write-tree %s", got.hash, want)
	}
}

func TestParseIndexRejectsGarbage(t *testing.T) {
	valid := func() []byte {
		dir := initRepo(t)
		write(t, dir, map[string]string{"a.txt": "a\n"})
		commitAll(t, dir, "init")
		b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}()
	tests := map[string][]byte{
		"empty":             {},
		"bad signature":     append([]byte("XXXX"), valid[4:]...),
		"bad version":       append([]byte("DIRC\x00\x00\x00\x09"), valid[8:]...),
		"too many entries":  append([]byte("DIRC\x00\x00\x00\x02\x00\xff\xff\xff"), valid[12:]...),
		"truncated entries": valid[:40],
		"mandatory ext":     withExtension(valid, "link", []byte("x")),
	}
	for name, data := range tests {
		if _, err := parseIndex(data); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	if _, err := parseIndex(withExtension(valid, "ZZZZ", []byte("optional"))); err != nil {
		t.Errorf("optional extension: %v", err)
	}
	if idx, err := parseIndex(withExtension(valid, "TREE", []byte("broken"))); err != nil || idx.tree != nil {
		t.Errorf("broken cache-tree: %v, tree %v", err, idx)
	}
}

// withExtension appends an extension before the trailing checksum (which
// parseIndex does not verify).
func withExtension(index []byte, sig string, data []byte) []byte {
	body := append([]byte(nil), index[:len(index)-20]...)
	var n [4]byte
	n[0], n[1], n[2], n[3] = byte(len(data)>>24), byte(len(data)>>16), byte(len(data)>>8), byte(len(data))
	body = append(body, sig...)
	body = append(body, n[:]...)
	body = append(body, data...)
	return append(body, make([]byte, 20)...)
}

func TestPrefixRangeAndChildren(t *testing.T) {
	names := []string{"a", "a-b", "a.b/x", "a/b", "a/b/c", "a/c", "a0", "b"}
	idx := &index{}
	for _, n := range names {
		idx.entries = append(idx.entries, entry{name: n})
	}
	for dir, want := range map[string][2]int{"a": {3, 6}, "a/b": {4, 5}, "a.b": {2, 3}, "b": {8, 8}, "zz": {8, 8}} {
		lo, hi := idx.dirRange(dir)
		if lo != want[0] || hi != want[1] {
			t.Errorf("dirRange(%s) = %d, %d; want %v", dir, lo, hi, want)
		}
	}
	var got []string
	for _, c := range idx.children(3, 6, 2, nil) {
		got = append(got, fmt.Sprintf("%s:%d-%d:%v", c.name, c.lo, c.hi, c.dir))
	}
	if want := []string{"b:3-4:false", "b:4-5:true", "c:5-6:false"}; !cmp.Equal(got, want) {
		t.Errorf("children = %v, want %v", got, want)
	}
}

func TestParseCacheTreeClaims(t *testing.T) {
	// A chain of nodes ("\0-1 <subtrees>\n", 10 bytes each), each claiming
	// as many subtrees as bytes follow it: broken, as they are not there,
	// and parsed in memory linear in its size, not quadratic.
	const depth = 4000
	var b []byte
	for i := range depth {
		b = append(b, fmt.Sprintf("\x00-1 %05d\n", 10*(depth-i-1))...)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	root, _, err := parseCacheTree(b)
	runtime.ReadMemStats(&after)
	if err == nil || root != nil {
		t.Errorf("parseCacheTree of a broken chain = %v, %v", root, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Errorf("parsing %d bytes allocated %d", len(b), n)
	}
}
