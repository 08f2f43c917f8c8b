package gitdiff

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite testdata/fuzz/FuzzIndex from indexes git writes")

// FuzzIndex feeds the index parser an index and, for a split index, a
// shared index, then uses what it accepted as the scan does: every index
// accepted must pass its own check, and walking it (children, the
// computed cache-tree, lookups, the tracked files) must not fail. The
// seeds in testdata/fuzz/FuzzIndex are indexes git wrote: versions 2 to 4,
// extended flags, unmerged stages, the cache-tree, resolve-undo, untracked
// cache, end-of-index and offset-table extensions, a split index with its
// shared index, and a sparse index.
//
//	go test -run XXX -fuzz FuzzIndex -fuzztime 10m -parallel 1 ./review/gitdiff
func FuzzIndex(f *testing.F) {
	f.Fuzz(func(t *testing.T, data, shared []byte) {
		// The link extension directly: reaching it through a whole index
		// takes the fuzzer a consistent extension header first.
		if l, err := parseLink(data); err == nil {
			for _, bm := range []ewah{l.del, l.repl} {
				bm.each(len(shared), func(pos int) error {
					if pos < 0 || pos >= len(shared) {
						t.Fatalf("bit %d outside [0, %d)", pos, len(shared))
					}
					return nil
				})
			}
		}

		idx, err := parseIndex(data)
		if err != nil {
			return
		}
		if idx.link != nil {
			l := idx.link
			idx.link = nil
			base, err := parseIndex(shared)
			if err != nil || base.link != nil {
				return
			}
			if err := idx.merge(base, l); err != nil {
				return
			}
			if err := idx.check(); err != nil {
				return
			}
		}
		if err := idx.expandSparse(fakeTrees); err != nil {
			return
		}
		if err := idx.check(); err != nil {
			t.Fatalf("accepted index fails its check: %v", err)
		}
		exerciseIndex(t, idx)
	})
}

// fakeTrees stands for the object store when a sparse index is expanded:
// every tree holds a file and, until the depth its hash's second byte
// counts down to, a subtree; a hash starting with 0 is missing.
func fakeTrees(h plumbing.Hash) ([]treeEntry, error) {
	if h[0] == 0 {
		return nil, plumbing.ErrObjectNotFound
	}
	ents := []treeEntry{{name: "f", mode: modeRegular, hash: h}}
	if h[1] > 0 {
		sub := h
		sub[1]--
		ents = append(ents, treeEntry{name: "t", mode: modeTree, hash: sub})
	}
	return ents, nil
}

// exerciseIndex uses idx as a scan would and checks the answers.
func exerciseIndex(t *testing.T, idx *index) {
	for i, e := range idx.entries {
		j, ok := idx.find(e.name)
		if !ok || j > i || idx.entries[j].name != e.name {
			t.Fatalf("find(%q) = %d, %v; entry %d", e.name, j, ok, i)
		}
		if d, _, found := strings.Cut(e.name, "/"); found {
			if lo, hi := idx.dirRange(d); lo > i || hi <= i {
				t.Fatalf("dirRange(%q) = [%d, %d) misses entry %d %q", d, lo, hi, i, e.name)
			}
		}
	}
	n := walkChildren(t, idx, 0, len(idx.entries), 0)
	if n != len(idx.entries) {
		t.Fatalf("children cover %d of %d entries", n, len(idx.entries))
	}
	idx.computeCacheTree()
	files := trackedFiles(idx, newGlobFilter(nil))
	if !sort.StringsAreSorted(files) {
		t.Fatalf("tracked files not sorted: %q", files)
	}
}

// walkChildren lists the index as a directory tree, checks that the
// children of each directory partition its range, and returns how many
// entries it saw.
func walkChildren(t *testing.T, idx *index, lo, hi, plen int) int {
	n, at := 0, lo
	for _, c := range idx.children(lo, hi, plen, nil) {
		if c.lo != at || c.hi <= c.lo || c.hi > hi {
			t.Fatalf("child %q [%d, %d) of [%d, %d) at %d", c.name, c.lo, c.hi, lo, hi, at)
		}
		at = c.hi
		if c.dir {
			n += walkChildren(t, idx, c.lo, c.hi, plen+len(c.name)+1)
		} else {
			n += c.hi - c.lo
		}
	}
	if at != hi {
		t.Fatalf("children of [%d, %d) end at %d", lo, hi, at)
	}
	return n
}

// seedDir is where FuzzIndex's seed corpus lives.
var seedDir = filepath.Join("testdata", "fuzz", "FuzzIndex")

// TestFuzzIndexSeeds checks that every seed is an index (or, for "link*",
// a link extension) the parser accepts, but for the "crash-*" inputs of
// fixed crashes (a corpus of rejected inputs would only test the first bytes);
// with -update-fuzz-seeds it first writes the seeds anew from indexes git
// writes.
func TestFuzzIndexSeeds(t *testing.T) {
	if *updateSeeds {
		writeSeeds(t)
	}
	paths, err := filepath.Glob(filepath.Join(seedDir, "*"))
	if err != nil || len(paths) < 8 {
		t.Fatalf("seeds %v, %v", paths, err)
	}
	for _, p := range paths {
		data, shared := readSeed(t, p)
		switch base := filepath.Base(p); {
		case strings.HasPrefix(base, "crash-"):
			continue // the input of a fixed crash, not a valid index
		case strings.HasPrefix(base, "link"):
			if _, err := parseLink(data); err != nil {
				t.Errorf("%s: %v", p, err)
			}
			continue
		}
		idx, err := parseIndex(data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if idx.link != nil {
			base, err := parseIndex(shared)
			if err != nil {
				t.Fatalf("%s: shared index: %v", p, err)
			}
			if err := idx.merge(base, idx.link); err != nil {
				t.Errorf("%s: merge: %v", p, err)
			}
		}
	}
}

// readSeed reads a seed file in the fuzzing corpus format: a header line,
// then one Go []byte literal per argument.
func readSeed(t *testing.T, path string) (data, shared []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || lines[0] != "go test fuzz v1" {
		t.Fatalf("%s: not a two-argument corpus file", path)
	}
	var args [][]byte
	for _, l := range lines[1:] {
		q, ok := strings.CutPrefix(l, "[]byte(")
		if !ok || !strings.HasSuffix(q, ")") {
			t.Fatalf("%s: bad line %.40q", path, l)
		}
		s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		args = append(args, []byte(s))
	}
	return args[0], args[1]
}

// writeSeed writes one seed of FuzzIndex.
func writeSeed(t *testing.T, name string, data, shared []byte) {
	t.Helper()
	body := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n[]byte(%s)\n", strconv.Quote(string(data)), strconv.Quote(string(shared)))
	if err := os.WriteFile(filepath.Join(seedDir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeSeeds builds repositories whose indexes carry each format and
// extension, and writes them as seeds.
func writeSeeds(t *testing.T) {
	if err := os.RemoveAll(seedDir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(seedDir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"a.txt": "a\n", "b/c.txt": "c\n", "b/d/e.txt": "e\n", "b-c/x": "x\n", "long/name/" + strings.Repeat("n", 40): "n\n"}
	save := func(name, dir string) {
		data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		var shared []byte
		if m, _ := filepath.Glob(filepath.Join(dir, ".git", "sharedindex.*")); len(m) > 0 {
			if shared, err = os.ReadFile(m[len(m)-1]); err != nil {
				t.Fatal(err)
			}
		}
		writeSeed(t, name, data, shared)
		if i := bytes.Index(data, []byte("link")); i >= 0 && name == "split-v2" {
			// The link extension alone, for parseLink.
			n := int(binary.BigEndian.Uint32(data[i+4:]))
			writeSeed(t, "link", data[i+8:i+8+n], shared)
			// Two empty bitmaps, as an index without deletions or
			// replacements has, and the same cut short: it once read past
			// its end.
			empty := append(bytes.Repeat([]byte{0}, 20), make([]byte, 24)...)
			writeSeed(t, "link-empty", empty, nil)
			writeSeed(t, "crash-link-truncated", empty[:28], nil)
		}
	}
	repo := func(setup ...[]string) string {
		dir := initRepo(t)
		write(t, dir, files)
		commitAll(t, dir, "init")
		for _, args := range setup {
			runGit(t, dir, args...)
		}
		return dir
	}
	for _, v := range []string{"2", "3", "4"} {
		dir := repo([]string{"update-index", "--index-version", v})
		write(t, dir, map[string]string{"n.txt": "n\n", "a.txt": "a2\n"})
		runGit(t, dir, "add", "-N", "n.txt")
		runGit(t, dir, "update-index", "--skip-worktree", "b/c.txt")
		save("v"+v, dir)
		runGit(t, dir, "update-index", "--split-index")
		write(t, dir, map[string]string{"b/new.txt": "new\n", "a.txt": "a3\n"})
		runGit(t, dir, "add", "b/new.txt", "a.txt")
		runGit(t, dir, "rm", "-q", "--cached", "b-c/x")
		save("split-v"+v, dir)
	}
	// Unmerged stages and resolve-undo.
	dir := repo([]string{"checkout", "-q", "-b", "side"})
	write(t, dir, map[string]string{"a.txt": "side\n"})
	commitAll(t, dir, "side")
	runGit(t, dir, "checkout", "-q", "main")
	write(t, dir, map[string]string{"a.txt": "main\n"})
	commitAll(t, dir, "main")
	mergeAllowingConflict(t, dir, "side")
	save("unmerged", dir)
	runGit(t, dir, "add", "a.txt")
	save("resolve-undo", dir)
	// Untracked cache, end of index entries and offset table.
	dir = repo([]string{"config", "index.recordEndOfIndexEntries", "true"}, []string{"config", "index.recordOffsetTable", "true"},
		[]string{"update-index", "--untracked-cache"})
	write(t, dir, map[string]string{"u.txt": "u\n"})
	runGit(t, dir, "status", "--porcelain")
	runGit(t, dir, "update-index", "--force-write-index", "--refresh")
	save("extensions", dir)
	// Sparse index.
	dir = repo([]string{"sparse-checkout", "init", "--cone", "--sparse-index"}, []string{"sparse-checkout", "set", "b/d"})
	save("sparse", dir)
}
