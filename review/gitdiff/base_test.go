package gitdiff

import (
	"strings"
	"testing"
)

// TestFileBase checks that each reviewed file names the blob of the old
// side of its diff: HEAD's for local and staged reviews (a staged review
// compares the index with HEAD), the merge-base's for a branch diff, the
// old path's for a rename, none for an untracked file. The rules run over
// that blob to tell pre-existing findings from new ones.
func TestFileBase(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.go": "package a\n// v1\n", "old.go": "package a\n// moved\n"})
	commitAll(t, dir, "v1")
	runGit(t, dir, "checkout", "-q", "-b", "feat")
	write(t, dir, map[string]string{"a.go": "package a\n// v2\n"})
	commitAll(t, dir, "v2 on the branch")
	runGit(t, dir, "mv", "old.go", "new.go")
	write(t, dir, map[string]string{"a.go": "package a\n// v3 staged\n", "new.go": "package a\n// moved and edited\n"})
	runGit(t, dir, "add", "a.go")
	write(t, dir, map[string]string{"a.go": "package a\n// v4 work tree\n", "u.go": "package a\n"})
	blob := func(rev string) string { return strings.TrimSpace(runGit(t, dir, "rev-parse", rev)) }

	r := open(t, dir, Options{})
	for _, tc := range []struct {
		name   string
		staged bool
		base   string
		want   map[string]string
	}{
		{"local", false, "", map[string]string{"a.go": blob("HEAD:a.go"), "new.go": blob("HEAD:old.go"), "u.go": ""}},
		{"staged", true, "", map[string]string{"a.go": blob("HEAD:a.go"), "new.go": blob("HEAD:old.go")}},
		{"branch", false, "main", map[string]string{"a.go": blob("main:a.go"), "new.go": blob("main:old.go"), "u.go": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := scan(t, r, resolve(t, r, tc.staged, tc.base), nil)
			for p, want := range tc.want {
				f := cs.File(p)
				if f == nil {
					t.Fatalf("%s is not in the change set %v", p, cs.Paths())
				}
				if f.Base != want {
					t.Errorf("%s: Base = %q, want %q", p, f.Base, want)
				}
				if want == "" {
					continue
				}
				got, err := r.ReadBlob(f.Base)
				if err != nil {
					t.Fatal(err)
				}
				if wantData := runGit(t, dir, "cat-file", "blob", want); string(got) != wantData {
					t.Errorf("%s: ReadBlob = %q, want %q", p, got, wantData)
				}
			}
		})
	}
	if _, err := r.ReadBlob("not-a-hash"); err == nil || !strings.Contains(err.Error(), "not an object id") {
		t.Errorf("ReadBlob(bad id) error = %v, want one naming the bad id", err)
	}
}
