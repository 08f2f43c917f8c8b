package gitdiff

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// numbered returns n lines "<prefix> line i".
func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s line %d\n", prefix, i)
	}
	return b.String()
}

// gitRenames returns git's renames of the staged changes, "old -> new" to
// their similarity.
func gitRenames(t *testing.T, dir string, args ...string) map[string]int {
	t.Helper()
	out := runGit(t, dir, append([]string{"diff", "--cached", "-M", "-z", "--name-status"}, args...)...)
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	got := map[string]int{}
	for i := 0; i < len(fields); i++ {
		if strings.HasPrefix(fields[i], "R") && i+2 < len(fields) {
			score, _ := strconv.Atoi(fields[i][1:])
			got[fields[i+1]+" -> "+fields[i+2]] = score
			i += 2
		}
	}
	return got
}

// statusRenames returns the renames Status reports, as gitRenames does.
func statusRenames(t *testing.T, dir string) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, c := range statusOf(t, dir, Options{}) {
		if c.Status == review.StatusRenamed {
			got[c.OldPath+" -> "+c.Path] = c.Similarity
		}
	}
	return got
}

// TestRenameScoresMatchGit stages pairs of a deleted and an added file and
// checks that the renames and their similarity are git's.
func TestRenameScoresMatchGit(t *testing.T) {
	long := strings.Repeat("x", 200) + "\n"
	pairs := []struct{ name, old, new string }{
		{"one line of twenty", numbered("a", 20), strings.Replace(numbered("a", 20), "a line 7\n", "a line seven\n", 1)},
		{"appended", numbered("b", 10), numbered("b", 10) + "more\nand more\n"},
		{"half rewritten", numbered("c", 10), numbered("c", 5) + numbered("z", 5)},
		{"mostly rewritten", numbered("d", 10), numbered("d", 4) + numbered("y", 6)},
		{"crlf", strings.ReplaceAll(numbered("e", 10), "\n", "\r\n"), numbered("e", 9) + "new\n"},
		{"no final newline", numbered("f", 8) + "last", numbered("f", 8) + "last but changed"},
		{"long lines", long + long + numbered("g", 3), long + strings.Repeat("y", 200) + "\n" + numbered("g", 3)},
		{"binary", "\x00" + strings.Repeat("bin\x01", 100), "\x00" + strings.Repeat("bin\x01", 90) + "tail"},
		{"shrunk", numbered("h", 30), numbered("h", 14)},
		{"reordered", numbered("i", 6), "i line 5\ni line 4\ni line 3\ni line 2\ni line 1\ni line 0\n"},
	}
	dir := initRepo(t)
	files := map[string]string{}
	for i, p := range pairs {
		files[fmt.Sprintf("old/f%d.txt", i)] = p.old
	}
	write(t, dir, files)
	commitAll(t, dir, "init")
	remove(t, dir, "old")
	files = map[string]string{}
	for i, p := range pairs {
		files[fmt.Sprintf("new/g%d.dat", i)] = p.new
	}
	write(t, dir, files)
	runGit(t, dir, "add", "-A")
	want := gitRenames(t, dir)
	if len(want) < 5 {
		t.Fatalf("git found only %d renames: %v", len(want), want)
	}
	if diff := cmp.Diff(want, statusRenames(t, dir)); diff != "" {
		t.Errorf("renames (-git +Status):\n%s", diff)
	}
	// The similarity of each pair on its own, as the diff of a review
	// shows it.
	for i, p := range pairs {
		key := fmt.Sprintf("old/f%d.txt -> new/g%d.dat", i, i)
		if score, ok := want[key]; ok {
			if got := similarity([]byte(p.old), []byte(p.new), attrUnspecified); got != score {
				t.Errorf("%s: similarity %d, git %d", p.name, got, score)
			}
		}
	}
}

// TestRenamePairingMatchesGit checks the choice among several candidates:
// exact before inexact, a unique base name first, the best score, each
// file used once.
func TestRenamePairingMatchesGit(t *testing.T) {
	dir := initRepo(t)
	base := numbered("shared", 20)
	write(t, dir, map[string]string{
		"a/util.go":    base,
		"b/util.go":    base + "b\n",
		"c/helper.go":  numbered("helper", 12),
		"d/empty.txt":  "",
		"e/empty.txt":  "",
		"f/same.txt":   "same\ncontent\n",
		"g/same.txt":   "same\ncontent\n",
		"h/config.yml": numbered("config", 8),
		"i/config.yml": numbered("other", 8),
		"j/lonely.txt": numbered("lonely", 6),
		"k/moved.go":   numbered("moved", 40),
	})
	commitAll(t, dir, "init")
	remove(t, dir, "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k")
	write(t, dir, map[string]string{
		"x/util.go":        base + "x\n",                                                      // two sources share the base name
		"x/helper_new.go":  strings.Replace(numbered("helper", 12), "helper line 3", "h3", 1), // inexact, other name
		"x/empty.txt":      "",                                                                // exact, base name
		"y/blank":          "",                                                                // exact, no base name
		"x/same.txt":       "same\ncontent\n",                                                 // exact, first source wins
		"x/config.yml":     numbered("config", 7),                                             // base name not unique among sources
		"x/unrelated.txt":  numbered("unrelated", 6),                                          // below the threshold
		"deep/er/moved.go": numbered("moved", 38) + "changed\n",                               // unique base name
	})
	runGit(t, dir, "add", "-A")
	want := gitRenames(t, dir)
	if diff := cmp.Diff(want, statusRenames(t, dir)); diff != "" {
		t.Errorf("renames (-git +Status):\n%s", diff)
	}
	checkStatus(t, dir)
}

// TestRenameLimit checks that past the rename limit only exact renames and
// those keeping their base name are found, as git does.
func TestRenameLimit(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": numbered("a", 10), "b.txt": numbered("b", 10), "c.txt": numbered("c", 10), "d/keep.txt": numbered("k", 10)})
	commitAll(t, dir, "init")
	remove(t, dir, "a.txt", "b.txt", "c.txt", "d")
	write(t, dir, map[string]string{"a2.txt": numbered("a", 9), "b2.txt": numbered("b", 9), "c2.txt": numbered("c", 10), "e/keep.txt": numbered("k", 9)})
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "config", "diff.renameLimit", "1")
	want := gitRenames(t, dir)
	if _, ok := want["a.txt -> a2.txt"]; ok {
		t.Fatalf("git paired a.txt inexactly past the limit: %v", want)
	}
	if diff := cmp.Diff(want, statusRenames(t, dir)); diff != "" {
		t.Errorf("renames past the limit (-git +Status):\n%s", diff)
	}
	checkStatus(t, dir)

	runGit(t, dir, "config", "diff.renames", "false")
	if got := statusRenames(t, dir); len(got) != 0 {
		t.Errorf("diff.renames=false: renames %v", got)
	}
	checkStatus(t, dir)
}

func TestScanRenames(t *testing.T) {
	body := "package a\n\n" + numbered("// x", 30)
	t.Run("git mv", func(t *testing.T) {
		dir := initRepo(t)
		write(t, dir, map[string]string{"old.go": body})
		commitAll(t, dir, "init")
		runGit(t, dir, "mv", "old.go", "new.go")
		f := onlyFile(t, dir, "")
		if f.Status != review.StatusRenamed || f.OldPath != "old.go" || f.Similarity != 100 || len(f.Hunks) != 0 || len(f.Lines) != 0 {
			t.Errorf("new.go = %+v", f)
		}
	})
	t.Run("rename with an edit", func(t *testing.T) {
		dir := initRepo(t)
		write(t, dir, map[string]string{"old.go": body})
		commitAll(t, dir, "init")
		runGit(t, dir, "mv", "old.go", "new.go")
		edited := strings.Replace(body, "x line 12\n", "x line twelve\n", 1)
		write(t, dir, map[string]string{"new.go": edited})
		f := onlyFile(t, dir, "")
		if f.Status != review.StatusRenamed || f.OldPath != "old.go" || f.Added != 1 || f.Deleted != 1 {
			t.Fatalf("new.go = %+v", f)
		}
		runGit(t, dir, "add", "new.go")
		if want := gitRenames(t, dir)["old.go -> new.go"]; f.Similarity != want {
			t.Errorf("similarity %d, git %d", f.Similarity, want)
		}
		if want := map[int]review.LineState{15: review.LineUnstaged}; !cmp.Equal(f.Lines, want) {
			t.Errorf("lines %v, want %v", f.Lines, want)
		}
	})
	t.Run("past the threshold", func(t *testing.T) {
		dir := initRepo(t)
		write(t, dir, map[string]string{"old.go": body})
		commitAll(t, dir, "init")
		remove(t, dir, "old.go")
		write(t, dir, map[string]string{"new.go": numbered("package b\n\n// y", 30)})
		runGit(t, dir, "add", "-A")
		r := open(t, dir, Options{})
		cs := scan(t, r, resolve(t, r, false, ""), nil)
		if old, nw := cs.File("old.go"), cs.File("new.go"); old == nil || nw == nil || old.Status != review.StatusDeleted || nw.Status != review.StatusAdded {
			t.Errorf("files %v, want old.go deleted and new.go added", cs.Paths())
		}
	})
	t.Run("branch diff", func(t *testing.T) {
		dir := initRepo(t)
		write(t, dir, map[string]string{"pkg/old.go": body})
		commitAll(t, dir, "base")
		runGit(t, dir, "checkout", "-q", "-b", "topic")
		remove(t, dir, "pkg/old.go")
		write(t, dir, map[string]string{"lib/old.go": strings.Replace(body, "x line 3\n", "x line three\n", 1)})
		commitAll(t, dir, "move and edit")
		f := onlyFile(t, dir, "main")
		want := gitRenames(t, dir, "main")
		if f.Status != review.StatusRenamed || f.OldPath != "pkg/old.go" || want["pkg/old.go -> lib/old.go"] != f.Similarity {
			t.Errorf("lib/old.go = %+v, git %v", f, want)
		}
		if wantLines := map[int]review.LineState{6: review.LineCommitted}; !cmp.Equal(f.Lines, wantLines) {
			t.Errorf("lines %v, want %v", f.Lines, wantLines)
		}
	})
	t.Run("editor buffer", func(t *testing.T) {
		// A file saved under a new name only in the editor so far.
		dir := initRepo(t)
		write(t, dir, map[string]string{"old.go": body})
		commitAll(t, dir, "init")
		remove(t, dir, "old.go")
		r := open(t, dir, Options{})
		cs := scan(t, r, resolve(t, r, false, ""), map[string][]byte{"new.go": []byte(body)})
		if f := cs.File("new.go"); len(cs.Files) != 1 || f == nil || f.Status != review.StatusRenamed || f.OldPath != "old.go" || len(f.Lines) != 0 {
			t.Errorf("files %v, want new.go renamed from old.go", cs.Paths())
		}
	})
	t.Run("deleted and untracked", func(t *testing.T) {
		dir := initRepo(t)
		write(t, dir, map[string]string{"old.go": body, "keep.go": "package a\n"})
		commitAll(t, dir, "init")
		remove(t, dir, "old.go")
		write(t, dir, map[string]string{"moved/new.go": strings.Replace(body, "x line 20\n", "x line 20 changed\n", 1)})
		f := onlyFile(t, dir, "")
		if f.Path != "moved/new.go" || f.Status != review.StatusRenamed || f.OldPath != "old.go" || !f.Unstaged || f.Staged {
			t.Fatalf("file = %+v", f)
		}
		if want := map[int]review.LineState{23: review.LineUntracked}; !cmp.Equal(f.Lines, want) {
			t.Errorf("lines %v, want %v", f.Lines, want)
		}
		checkStatus(t, dir)
	})
}

// onlyFile scans the local target (or the branch diff against base) and
// returns its one file.
func onlyFile(t *testing.T, dir, base string) *review.File {
	t.Helper()
	r := open(t, dir, Options{})
	cs := scan(t, r, resolve(t, r, false, base), nil)
	if len(cs.Files) != 1 {
		t.Fatalf("files %v, want one", cs.Paths())
	}
	return cs.Files[0]
}

// TestRefreshRenames checks that a refresh pairs and unpairs work tree
// renames as a scan does, and keeps the files it need not rebuild.
func TestRefreshRenames(t *testing.T) {
	body := numbered("// x", 20)
	tests := []struct {
		name  string
		edit  func(t *testing.T, dir string)
		paths []string
	}{
		{"move", func(t *testing.T, dir string) {
			remove(t, dir, "a.go")
			write(t, dir, map[string]string{"moved.go": body})
		}, []string{"a.go", "moved.go"}},
		{"moved file edited", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"was-b.go": strings.Replace(body, "x line 2", "x line two", 1)})
		}, []string{"was-b.go"}},
		{"moved file rewritten", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"was-b.go": numbered("other", 20)})
		}, []string{"was-b.go"}},
		{"source restored", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"b.go": body + "b\n"})
		}, []string{"b.go"}},
		{"untracked file now like a deleted one", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"u.txt": numbered("gone", 10) + "u\n"})
		}, []string{"u.txt"}},
		{"untracked file edited", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"u.txt": "still unrelated\n"})
		}, []string{"u.txt"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := initRepo(t)
			write(t, dir, map[string]string{"a.go": body, "b.go": body + "b\n", "gone.txt": numbered("gone", 10), "c.go": "package c\n"})
			commitAll(t, dir, "init")
			remove(t, dir, "b.go", "gone.txt")
			write(t, dir, map[string]string{"was-b.go": body + "b\n", "u.txt": "unrelated\n", "c.go": "package c\n\nvar C = 1\n"})
			r := open(t, dir, Options{})
			tg := resolve(t, r, false, "")
			prev := scan(t, r, tg, nil)
			if f := prev.File("was-b.go"); f == nil || f.OldPath != "b.go" {
				t.Fatalf("was-b.go = %+v, want renamed from b.go", f)
			}
			tc.edit(t, dir)
			got, err := r.Refresh(t.Context(), prev, nil, tc.paths...)
			if err != nil {
				t.Fatal(err)
			}
			want := scan(t, open(t, dir, Options{}), tg, nil)
			if diff := cmp.Diff(want, got, fileOpts); diff != "" {
				t.Errorf("Refresh differs from Scan (-scan +refresh):\n%s", diff)
			}
			if p, f := prev.File("c.go"), got.File("c.go"); p != f {
				t.Errorf("c.go was rebuilt")
			}
			var paths []string
			for _, f := range got.Files {
				paths = append(paths, f.Path+":"+string(f.Status)+":"+f.OldPath)
			}
			sort.Strings(paths)
			t.Logf("files: %v", paths)
		})
	}
}

// TestRenamesOverSizeCap checks that files larger than the size cap pair
// only when exact (hashed as a stream, never read whole).
func TestRenamesOverSizeCap(t *testing.T) {
	dir := initRepo(t)
	big, other := numbered("big", 200), numbered("other", 200)
	write(t, dir, map[string]string{"big.txt": big, "other.txt": other})
	commitAll(t, dir, "init")
	remove(t, dir, "big.txt", "other.txt")
	write(t, dir, map[string]string{"moved/big.txt": big, "moved/other2.txt": other + "one more\n"})
	r := open(t, dir, Options{SizeCap: 1024})
	changes, err := r.Status(t.Context(), resolve(t, r, false, ""))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range changes {
		got[c.Path] = string(c.Status) + " " + c.OldPath
	}
	want := map[string]string{"moved/big.txt": "renamed big.txt", "other.txt": "deleted ", "moved/other2.txt": "untracked "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}
