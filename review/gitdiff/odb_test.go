package gitdiff

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// historyRepo makes a repository whose files change over many commits,
// so that packing it makes delta chains, and returns it.
func historyRepo(t *testing.T, commits int) string {
	t.Helper()
	dir := initRepo(t)
	var body strings.Builder
	for i := range commits {
		fmt.Fprintf(&body, "line %d of a file that grows by one line per commit\n", i)
		write(t, dir, map[string]string{
			"grow.txt":                    body.String(),
			fmt.Sprintf("d%d/f.txt", i%4): strings.Repeat(fmt.Sprintf("%d\n", i), 50+i),
			"stable/keep.txt":             "unchanged\n",
		})
		commitAll(t, dir, fmt.Sprintf("commit %d", i))
	}
	return dir
}

// gitObjects returns every object git sees in the repository at dir with
// its type and content, read by `git cat-file --batch-all-objects`.
func gitObjects(t *testing.T, dir string) map[plumbing.Hash]struct {
	typ  string
	data []byte
} {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch", "--unordered")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	objs := map[plumbing.Hash]struct {
		typ  string
		data []byte
	}{}
	rd := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := rd.ReadString('\n')
		if err == io.EOF {
			break
		}
		f := strings.Fields(line)
		if err != nil || len(f) != 3 {
			t.Fatalf("git cat-file line %q: %v", line, err)
		}
		n, _ := strconv.Atoi(f[2])
		data := make([]byte, n+1)
		if _, err := io.ReadFull(rd, data); err != nil {
			t.Fatal(err)
		}
		objs[plumbing.NewHash(f[0])] = struct {
			typ  string
			data []byte
		}{f[1], data[:n]}
	}
	return objs
}

// checkAllObjects checks that the object store of dir reads every object
// as git does, and returns the store.
func checkAllObjects(t *testing.T, dir string) *objectStore {
	t.Helper()
	s := newObjectStore([]string{filepath.Join(dir, ".git", "objects")}, slog.New(slog.DiscardHandler))
	t.Cleanup(func() { s.Close() })
	want := gitObjects(t, dir)
	if len(want) == 0 {
		t.Fatal("no objects")
	}
	for h, o := range want {
		typ, data, err := s.read(h)
		if err != nil {
			t.Fatalf("read %s: %v", h, err)
		}
		if typ.String() != o.typ || !bytes.Equal(data, o.data) {
			t.Fatalf("read %s: %s of %d bytes, git has %s of %d", h, typ, len(data), o.typ, len(o.data))
		}
		n, err := s.size(h)
		if err != nil || n != int64(len(o.data)) {
			t.Fatalf("size %s = %d, %v; git has %d", h, n, err, len(o.data))
		}
		if ok, err := s.has(h); !ok || err != nil {
			t.Fatalf("has %s = %v, %v", h, ok, err)
		}
	}
	var missing plumbing.Hash
	missing[0] = 0xff
	if _, _, err := s.read(missing); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Errorf("read of a missing object: %v", err)
	}
	return s
}

// entryKinds counts the entries of every pack of s by their type in the
// pack (OFS_DELTA and REF_DELTA included).
func entryKinds(t *testing.T, s *objectStore) map[plumbing.ObjectType]int {
	t.Helper()
	kinds := map[plumbing.ObjectType]int{}
	for _, d := range s.dirs {
		for _, p := range d.packs {
			for i := range p.idx.n {
				off, err := p.idx.offset(i)
				if err != nil {
					t.Fatal(err)
				}
				hd, err := p.header(off)
				if err != nil {
					t.Fatal(err)
				}
				kinds[hd.typ]++
			}
		}
	}
	return kinds
}

func TestObjectStorePacks(t *testing.T) {
	dir := historyRepo(t, 40)
	// The first pack with REF_DELTA entries, the second (incremental)
	// with OFS_DELTA entries, and loose objects on top.
	runGit(t, dir, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq")
	s := checkAllObjects(t, dir)
	if k := entryKinds(t, s); k[plumbing.REFDeltaObject] == 0 || k[plumbing.OFSDeltaObject] != 0 {
		t.Fatalf("first pack entries %v, want REF_DELTA only", k)
	}
	for i := range 20 {
		write(t, dir, map[string]string{"grow.txt": strings.Repeat("again\n", 100+i), "late.txt": strconv.Itoa(i)})
		commitAll(t, dir, "late")
	}
	runGit(t, dir, "repack", "-dq")
	write(t, dir, map[string]string{"grow.txt": "loose at last\n"})
	commitAll(t, dir, "loose")
	s = checkAllObjects(t, dir)
	if n := len(s.dirs[0].packs); n != 2 {
		t.Fatalf("%d packs, want 2", n)
	}
	if k := entryKinds(t, s); k[plumbing.REFDeltaObject] == 0 || k[plumbing.OFSDeltaObject] == 0 {
		t.Fatalf("pack entries %v, want deltas of both kinds", k)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, ".git", "objects")); len(ents) <= 2 {
		t.Fatal("no loose objects")
	}
	checkStatus(t, dir)
}

// TestObjectStoreIndexVersions reads a pack through indexes that git
// wrote in version 1, and in version 2 with every offset above 64 bytes
// in the 64-bit offset table (which packs over 2 GiB need).
func TestObjectStoreIndexVersions(t *testing.T) {
	for _, version := range []string{"1", "2,64"} {
		t.Run(version, func(t *testing.T) {
			dir := historyRepo(t, 12)
			runGit(t, dir, "repack", "-adfq")
			packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
			if len(packs) != 1 {
				t.Fatalf("packs %v", packs)
			}
			idx := strings.TrimSuffix(packs[0], ".pack") + ".idx"
			os.Remove(idx)
			runGit(t, dir, "index-pack", "--index-version="+version, "-o", idx, packs[0])
			s := checkAllObjects(t, dir)
			x := s.dirs[0].packs[0].idx
			wantVersion, _ := strconv.Atoi(version[:1])
			if x.version != wantVersion {
				t.Errorf("index version %d, want %d", x.version, wantVersion)
			}
			if version != "1" && x.nlarge != x.n-1 {
				// Only the first object lies below 64 bytes.
				t.Errorf("%d large offsets for %d objects", x.nlarge, x.n)
			}
		})
	}
}

// craftIndex writes a version 2 pack index of the objects hashes (sorted)
// at offsets, the ones of 2^31 and above in the large-offset table.
func craftIndex(hashes []plumbing.Hash, offsets []int64) []byte {
	var b bytes.Buffer
	b.Write(idxMagic)
	binary.Write(&b, binary.BigEndian, uint32(2))
	var fan [256]uint32
	for _, h := range hashes {
		for i := int(h[0]); i < 256; i++ {
			fan[i]++
		}
	}
	binary.Write(&b, binary.BigEndian, fan)
	for _, h := range hashes {
		b.Write(h[:])
	}
	b.Write(make([]byte, 4*len(hashes))) // CRCs
	var large []int64
	for _, o := range offsets {
		if o >= 1<<31 {
			binary.Write(&b, binary.BigEndian, uint32(largeOffBit|len(large)))
			large = append(large, o)
			continue
		}
		binary.Write(&b, binary.BigEndian, uint32(o))
	}
	binary.Write(&b, binary.BigEndian, large)
	b.Write(make([]byte, idxTrailer))
	return b.Bytes()
}

// craftedHashes are the sorted hashes of the crafted indexes.
var craftedHashes = []plumbing.Hash{
	plumbing.NewHash("0100000000000000000000000000000000000000"),
	plumbing.NewHash("7f00000000000000000000000000000000000001"),
	plumbing.NewHash("7f00000000000000000000000000000000000002"),
	plumbing.NewHash("ff00000000000000000000000000000000000000"),
}

func TestPackIndexLargeOffsets(t *testing.T) {
	hashes := craftedHashes
	offsets := []int64{12, 5 << 32, 1<<31 - 1, 1<<40 + 7}
	x, err := parsePackIndex(craftIndex(hashes, offsets))
	if err != nil {
		t.Fatal(err)
	}
	if x.n != 4 || x.nlarge != 2 {
		t.Fatalf("n %d, large %d", x.n, x.nlarge)
	}
	for i, h := range hashes {
		off, ok, err := x.find(h)
		if !ok || err != nil || off != offsets[i] {
			t.Errorf("find %s = %d, %v, %v; want %d", h, off, ok, err, offsets[i])
		}
	}
	if _, ok, _ := x.find(plumbing.NewHash("7f00000000000000000000000000000000000003")); ok {
		t.Error("found an absent hash")
	}
	if got := x.withPrefix([]byte{0x7f, 0}, nil); len(got) != 2 || got[0] != hashes[1] || got[1] != hashes[2] {
		t.Errorf("withPrefix 7f00 = %v", got)
	}

	// A large-offset slot past the table is an error of the lookup, not
	// a panic or a wrong offset.
	bad := craftIndex(hashes[:1], []int64{5 << 32})
	binary.BigEndian.PutUint32(bad[8+fanoutSize+hashLen+4:], largeOffBit|3)
	x, err = parsePackIndex(bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := x.find(hashes[0]); err == nil {
		t.Error("no error for a large offset outside the table")
	}
}

func TestPackIndexMalformed(t *testing.T) {
	good := craftIndex([]plumbing.Hash{plumbing.NewHash("0100000000000000000000000000000000000000")}, []int64{12})
	decreasing := bytes.Clone(good)
	binary.BigEndian.PutUint32(decreasing[8+4*200:], 0)
	for name, data := range map[string][]byte{
		"empty":               nil,
		"version 3":           append(append([]byte{}, idxMagic...), 0, 0, 0, 3),
		"truncated fan-out":   good[:8+100],
		"truncated table":     good[:len(good)-1],
		"decreasing fan-out":  decreasing,
		"extra bytes":         append(bytes.Clone(good), 1, 2, 3),
		"v1 with a bad count": make([]byte, fanoutSize+idxTrailer+5),
	} {
		if _, err := parsePackIndex(data); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestObjectStoreRepacked checks that a Repo that lives across `git gc`
// (a language server does) finds objects that moved into a new pack, and
// those of commits made after it read the old packs.
func TestObjectStoreRepacked(t *testing.T) {
	dir := historyRepo(t, 5)
	runGit(t, dir, "repack", "-adq")
	r := open(t, dir, Options{})
	write(t, dir, map[string]string{"grow.txt": "edited\n"})
	if cs := scan(t, r, resolve(t, r, false, ""), nil); len(cs.Files) != 1 {
		t.Fatalf("files %+v", cs.Files)
	}
	commitAll(t, dir, "after the first scan")
	runGit(t, dir, "gc", "-q", "--prune=now")
	write(t, dir, map[string]string{"grow.txt": "edited again\n"})
	cs := scan(t, r, resolve(t, r, false, ""), nil)
	if len(cs.Files) != 1 || cs.Files[0].Path != "grow.txt" || cs.Files[0].Skip != "" {
		t.Fatalf("files after gc %+v", cs.Files)
	}
	if n := len(r.store.objs.dirs[0].packs); n != 1 {
		t.Errorf("%d packs open after gc, want the one left", n)
	}
}

func TestApplyDelta(t *testing.T) {
	base := []byte("0123456789abcdef")
	// Sizes 16 -> 9; copy 4 bytes at offset 10 ("abcd"), insert "XYZ",
	// copy 2 bytes at offset 0 ("01").
	delta := []byte{16, 9, 0x80 | 0x01 | 0x10, 10, 4, 3, 'X', 'Y', 'Z', 0x80 | 0x10, 2}
	got, err := applyDelta(base, delta)
	if err != nil || string(got) != "abcdXYZ01" {
		t.Fatalf("applyDelta = %q, %v", got, err)
	}
	for name, d := range map[string][]byte{
		"wrong base size":  {15, 9},
		"copy past base":   {16, 4, 0x80 | 0x01 | 0x10, 14, 4},
		"truncated insert": {16, 4, 5, 'a'},
		"reserved opcode":  {16, 1, 0},
		"result too long":  {16, 1, 2, 'a', 'b'},
		"result too short": {16, 3, 2, 'a', 'b'},
		"no header":        {},
	} {
		if _, err := applyDelta(base, d); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestObjectStoreConcurrentReads reads every object of a repository with
// packed deltas and loose objects from several goroutines at once, the
// first reads racing the first scan of the packs, and checks each against
// git (run with -race).
func TestObjectStoreConcurrentReads(t *testing.T) {
	dir := historyRepo(t, 30)
	runGit(t, dir, "repack", "-adq", "--depth=10")
	write(t, dir, map[string]string{"loose.txt": "a loose blob\n"})
	commitAll(t, dir, "loose objects after the pack")
	want := gitObjects(t, dir)
	s := newObjectStore([]string{filepath.Join(dir, ".git", "objects")}, slog.New(slog.DiscardHandler))
	defer s.Close()
	hashes := slices.Collect(maps.Keys(want))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range hashes {
				h := hashes[(i+g*len(hashes)/8)%len(hashes)]
				typ, data, err := s.read(h)
				if err == nil && (typ.String() != want[h].typ || !bytes.Equal(data, want[h].data)) {
					err = fmt.Errorf("read %s: %s of %d bytes, git has %s of %d", h, typ, len(data), want[h].typ, len(want[h].data))
				}
				if n, serr := s.size(h); err == nil && (serr != nil || n != int64(len(want[h].data))) {
					err = fmt.Errorf("size %s = %d, %v", h, n, serr)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
