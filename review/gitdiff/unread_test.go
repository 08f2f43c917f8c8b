package gitdiff

import (
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// ignoredOf returns "path status" for the ignored files of cs.
func ignoredOf(cs *review.ChangeSet) []string {
	var out []string
	for _, f := range cs.Ignored {
		if f.Skip != review.SkipIgnored || f.Content != nil {
			out = append(out, f.Path+" not a bare ignored file")
			continue
		}
		out = append(out, f.Path+" "+string(f.Status))
	}
	return out
}

// TestScanIgnored checks that the paths only the ignore globs leave out
// are listed apart, without content, in a staged and a work tree scan
// and after a refresh, and that OpenNew gives their content as a commit
// would take it: the index blob in a staged review, the work tree file
// otherwise, with its working-tree-encoding named.
func TestScanIgnored(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n", "gen/x.go": "x\n", "vendor/v.txt": "v\n", "gone.txt": "g\n",
		".gitattributes": "*.u16 working-tree-encoding=UTF-16LE\n"})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{"a.txt": "b\n", "gen/x.go": "staged\n", "gen/new.go": "new\n", "docs/w.u16": "w\x00i\x00d\x00e\x00\n\x00"})
	runGit(t, dir, "add", "gen", "docs/w.u16")
	runGit(t, dir, "rm", "-q", "gone.txt")
	write(t, dir, map[string]string{"gen/x.go": "work tree\n", "vendor/v.txt": "w\n"})
	r := open(t, dir, Options{Ignore: []string{"gen/**", "vendor/**", "gone.txt", "docs/*.u16"}})

	read := func(tg review.Target, f *review.File) (string, string) {
		t.Helper()
		rc, enc, err := r.OpenNew(tg, f)
		if err != nil {
			t.Fatalf("OpenNew %s: %v", f.Path, err)
		}
		defer rc.Close()
		data, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		return string(data), enc
	}

	staged := resolve(t, r, true, "")
	cs := scan(t, r, staged, nil)
	if diff := cmp.Diff([]string{"docs/w.u16 added", "gen/new.go added", "gen/x.go modified"}, ignoredOf(cs)); diff != "" {
		t.Errorf("staged: ignored (-want +got):\n%s", diff)
	}
	if got := cs.Paths(); len(got) != 0 {
		t.Errorf("staged: files %v, want none", got)
	}
	if got, enc := read(staged, cs.Ignored[2]); got != "staged\n" || enc != "" {
		t.Errorf("staged gen/x.go = %q (encoding %q), want the index blob", got, enc)
	}

	work := resolve(t, r, false, "")
	cs = scan(t, r, work, nil)
	want := []string{"docs/w.u16 added", "gen/new.go added", "gen/x.go modified", "vendor/v.txt modified"}
	if diff := cmp.Diff(want, ignoredOf(cs)); diff != "" {
		t.Errorf("work tree: ignored (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a.txt"}, cs.Paths()); diff != "" {
		t.Errorf("work tree: files (-want +got):\n%s", diff)
	}
	if got, _ := read(work, cs.Ignored[2]); got != "work tree\n" {
		t.Errorf("work tree gen/x.go = %q, want the work tree file", got)
	}
	if _, enc := read(work, cs.Ignored[0]); enc != "UTF-16LE" {
		t.Errorf("work tree docs/w.u16: encoding %q, want UTF-16LE", enc)
	}

	// A refresh re-classifies the named path and keeps the others' files.
	write(t, dir, map[string]string{"vendor/v.txt": "v\n"})
	next, err := r.Refresh(t.Context(), cs, nil, "vendor/v.txt")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[:3], ignoredOf(next)); diff != "" {
		t.Errorf("refresh: ignored (-want +got):\n%s", diff)
	}
	if next.Ignored[1] != cs.Ignored[1] {
		t.Error("refresh rebuilt the file of a path it did not refresh")
	}
}
