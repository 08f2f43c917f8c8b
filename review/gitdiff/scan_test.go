package gitdiff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// lines builds the Lines map of a file from "n:state" pairs.
func lines(pairs ...any) map[int]review.LineState {
	m := map[int]review.LineState{}
	for i := 0; i < len(pairs); i += 2 {
		m[pairs[i].(int)] = pairs[i+1].(review.LineState)
	}
	return m
}

const (
	staged    = review.LineStaged
	unstaged  = review.LineUnstaged
	untracked = review.LineUntracked
	committed = review.LineCommitted
)

func TestScanLocalLineStates(t *testing.T) {
	f := reviewtest.Repo(t, "../../testdata/repos/mixed.txtar")
	r := open(t, f.Dir, Options{})
	tg := resolve(t, r, false, "")
	cs := scan(t, r, tg, nil)

	if cs.Root != f.Dir {
		t.Errorf("Root = %s, want %s", cs.Root, f.Dir)
	}
	want := []*review.File{
		{
			Path: "app/main.go", Status: review.StatusModified, Staged: true, Unstaged: true, Language: review.LangGo,
			Hunks: []review.Hunk{{OldStart: 4, OldLines: 4, NewStart: 4, NewLines: 6, Lines: []string{
				" ", " func main() {", "\tfmt.Println(\"hello\")", "+\tfmt.Println(\"staged\")", "+\tfmt.Println(\"unstaged\")", " }",
			}}},
			Added: 2, Lines: lines(7, staged, 8, unstaged),
			Content: []byte("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n\tfmt.Println(\"staged\")\n\tfmt.Println(\"unstaged\")\n}\n"),
		},
		{
			Path: "app/new.go", Status: review.StatusAdded, Staged: true, Language: review.LangGo,
			Hunks: []review.Hunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 3, Lines: []string{
				"+package main", "+", "+func sub(a, b int) int { return a - b }",
			}}},
			Added: 3, Lines: lines(1, staged, 2, staged, 3, staged),
			Content: []byte("package main\n\nfunc sub(a, b int) int { return a - b }\n"),
		},
		{
			Path: "keep.log", Status: review.StatusUntracked, Unstaged: true,
			Hunks: []review.Hunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 1, Lines: []string{"+kept"}}},
			Added: 1, Lines: lines(1, untracked), Content: []byte("kept\n"),
		},
		{
			Path: "notes.txt", Status: review.StatusDeleted, Unstaged: true, Language: review.LangText,
			Hunks:   []review.Hunk{{OldStart: 1, OldLines: 1, NewStart: 0, NewLines: 0, Lines: []string{"-to be deleted in the work tree"}}},
			Deleted: 1,
		},
		{
			Path: "old.txt", Status: review.StatusDeleted, Staged: true, Language: review.LangText,
			Hunks:   []review.Hunk{{OldStart: 1, OldLines: 1, NewStart: 0, NewLines: 0, Lines: []string{"-to be removed"}}},
			Deleted: 1,
		},
		{
			Path: "scratch.go", Status: review.StatusUntracked, Unstaged: true, Language: review.LangGo,
			Hunks: []review.Hunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 1, Lines: []string{"+package main"}}},
			Added: 1, Lines: lines(1, untracked), Content: []byte("package main\n"),
		},
	}
	// The hunk of app/main.go keeps git's context lines as they are.
	want[0].Hunks[0].Lines[2] = " \tfmt.Println(\"hello\")"
	if diff := cmp.Diff(want, cs.Files, fileOpts); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if tg.Kind != review.LocalChanges || tg.BaseRef != "HEAD" || tg.Branch != "feat/mixed" || tg.BaseSHA != tg.HeadSHA {
		t.Errorf("target = %+v", tg)
	}
}

func TestScanStagedReadsIndex(t *testing.T) {
	f := reviewtest.Repo(t, "../../testdata/repos/mixed.txtar")
	r := open(t, f.Dir, Options{})
	tg := resolve(t, r, true, "")
	// An editor buffer never counts in a staged review.
	cs := scan(t, r, tg, map[string][]byte{"app/new.go": []byte("package main // edited\n")})

	if got, want := cs.Paths(), []string{"app/main.go", "app/new.go", "old.txt"}; !cmp.Equal(got, want) {
		t.Fatalf("paths = %v, want %v", got, want)
	}
	main := cs.File("app/main.go")
	wantContent := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n\tfmt.Println(\"staged\")\n}\n"
	if string(main.Content) != wantContent {
		t.Errorf("staged content is not the index blob:\n%s", main.Content)
	}
	if diff := cmp.Diff(lines(7, staged), main.Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if !main.Staged || main.Unstaged {
		t.Errorf("areas: staged %v unstaged %v", main.Staged, main.Unstaged)
	}
	if got := string(cs.File("app/new.go").Content); got != "package main\n\nfunc sub(a, b int) int { return a - b }\n" {
		t.Errorf("new.go content = %q", got)
	}

	// Even when the work tree file is deleted, the index blob is reviewed.
	remove(t, f.Dir, "app/main.go")
	cs = scan(t, r, tg, nil)
	if got := cs.File("app/main.go"); got == nil || string(got.Content) != wantContent {
		t.Errorf("after deleting the work tree file: %+v", got)
	}
}

func TestScanBranchDiff(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.go": "package a\n\nfunc A() {}\n", "b.go": "package a\n", "c.go": "package a\n"})
	commitAll(t, dir, "base")
	runGit(t, dir, "checkout", "-q", "-b", "feat/x")
	write(t, dir, map[string]string{"a.go": "package a\n\nfunc A() {}\n\nfunc Committed() {}\n", "new.go": "package a\n\nvar X = 1\n"})
	remove(t, dir, "c.go")
	commitAll(t, dir, "feature")
	mergeBase := strings.TrimSpace(runGit(t, dir, "rev-parse", "main"))

	// main moves on after the branch point: its changes are not part of
	// the branch diff.
	runGit(t, dir, "checkout", "-q", "main")
	write(t, dir, map[string]string{"b.go": "package a\n\n// on main only\n", "main-only.go": "package a\n"})
	commitAll(t, dir, "main moves")
	runGit(t, dir, "checkout", "-q", "feat/x")

	write(t, dir, map[string]string{"a.go": "package a\n\nfunc A() {}\n\nfunc Committed() {}\n\nfunc Staged() {}\n"})
	runGit(t, dir, "add", "a.go")
	write(t, dir, map[string]string{
		"a.go":   "package a\n\nfunc A() {}\n\nfunc Committed() {}\n\nfunc Staged() {}\n\nfunc Unstaged() {}\n",
		"u.go":   "package a\n",
		"b.go":   "package a\n\n// work tree\n",
		"new.go": "package a\n\nvar X = 2\n",
	})

	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "main")
	if tg.Kind != review.BranchDiff || tg.BaseRef != "main" || tg.BaseSHA != mergeBase || tg.Branch != "feat/x" {
		t.Fatalf("target = %+v, want merge-base %s", tg, mergeBase)
	}
	cs := scan(t, r, tg, nil)
	if got, want := cs.Paths(), []string{"a.go", "b.go", "new.go", "u.go"}; !cmp.Equal(got, want) {
		t.Fatalf("paths = %v, want %v", got, want)
	}
	a := cs.File("a.go")
	if diff := cmp.Diff(lines(4, committed, 5, committed, 6, staged, 7, staged, 8, unstaged, 9, unstaged), a.Lines); diff != "" {
		t.Errorf("a.go lines (-want +got):\n%s", diff)
	}
	if !a.Staged || !a.Unstaged || a.Status != review.StatusModified {
		t.Errorf("a.go = %+v", a)
	}
	if b := cs.File("b.go"); b.Staged || !b.Unstaged || !cmp.Equal(b.Lines, lines(2, unstaged, 3, unstaged)) {
		t.Errorf("b.go = %+v (lines %v)", b, b.Lines)
	}
	n := cs.File("new.go")
	if n.Status != review.StatusAdded || !cmp.Equal(n.Lines, lines(1, committed, 2, committed, 3, unstaged)) {
		t.Errorf("new.go = %+v (lines %v)", n, n.Lines)
	}
	// c.go, deleted by a commit, lives on in the untracked u.go: a rename
	// with no changed line.
	if u := cs.File("u.go"); u.Status != review.StatusRenamed || u.OldPath != "c.go" || u.Similarity != 100 || len(u.Lines) != 0 || u.Added+u.Deleted != 0 {
		t.Errorf("u.go = %+v", u)
	}

	// The hunks are the diff from the merge-base, as git diff shows it.
	for _, p := range cs.Paths() {
		if p == "u.go" {
			continue
		}
		want := gitHunkHeaders(t, dir, "diff", mergeBase, "--", p)
		if got := hunkHeaders(cs.File(p).Hunks); !cmp.Equal(got, want) {
			t.Errorf("%s hunks %v, git %v", p, got, want)
		}
	}
}

func TestScanBranchRename(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"old.txt": "content\nline 2\n"})
	commitAll(t, dir, "base")
	runGit(t, dir, "checkout", "-q", "-b", "topic")
	runGit(t, dir, "mv", "old.txt", "new.txt")
	commitAll(t, dir, "rename")
	r := open(t, dir, Options{})
	cs := scan(t, r, resolve(t, r, false, "main"), nil)
	want := []*review.File{{Path: "new.txt", OldPath: "old.txt", Similarity: 100, Status: review.StatusRenamed, Language: review.LangText, Content: []byte("content\nline 2\n"), Lines: map[int]review.LineState{}}}
	if diff := cmp.Diff(want, cs.Files, fileOpts); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestScanSkips(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{
		"vendor/x/lib.go":       "package lib\n",
		"node_modules/a.js":     "a\n",
		"dist/app.js":           "a\n",
		"cmd/bin/tool.sh":       "#!/bin/sh\n",
		"gone.bin":              "\x00\x01",
		"gone.txt":              "one\ntwo\n",
		"web/package-lock.json": "{}\n",
	})
	commitAll(t, dir, "init")
	big := strings.Repeat("x", 2400)
	write(t, dir, map[string]string{
		"vendor/x/lib.go":       "package lib\n\nfunc F() {}\n",
		"node_modules/a.js":     "b\n",
		"dist/app.js":           "b\n",
		"cmd/bin/tool.sh":       "#!/bin/sh\necho\n",
		"web/package-lock.json": "{\"a\": 1}\n",
		"go.sum":                "x v1 h1:abc\n",
		"app.min.js":            "a()\n",
		"style.min.css":         "a{}\n",
		"app.js.map":            "{}\n",
		"zz_generated.go":       "// Copyright 2025.\n\n// Code generated by stringer; DO NOT EDIT.\n\npackage x\n",
		"not_generated.go":      "package x\n\n// Code generated by hand. DO NOT EDIT.\n",
		"img.png":               "\x89PNG\x00\x00",
		"big.txt":               big,
		"ok.go":                 "package ok\n",
	})
	remove(t, dir, "gone.bin", "gone.txt")
	symlink(t, dir, "ok.go", "link.go")
	r := open(t, dir, Options{SizeCap: 2048})
	cs := scan(t, r, resolve(t, r, false, ""), nil)

	skips := map[string]review.SkipReason{}
	for _, f := range cs.Files {
		skips[f.Path] = f.Skip
		if f.Skip != "" && f.Content != nil {
			t.Errorf("%s skipped (%s) but has content", f.Path, f.Skip)
		}
		if f.Skip != "" && f.Lines != nil {
			t.Errorf("%s skipped (%s) but has lines", f.Path, f.Skip)
		}
	}
	want := map[string]review.SkipReason{
		"vendor/x/lib.go":       review.SkipVendored,
		"node_modules/a.js":     review.SkipVendored,
		"dist/app.js":           review.SkipBuildOutput,
		"cmd/bin/tool.sh":       review.SkipBuildOutput,
		"web/package-lock.json": review.SkipLockFile,
		"go.sum":                review.SkipLockFile,
		"app.min.js":            review.SkipMinified,
		"style.min.css":         review.SkipMinified,
		"app.js.map":            review.SkipSourceMap,
		"zz_generated.go":       review.SkipGenerated,
		"not_generated.go":      "",
		"img.png":               review.SkipBinary,
		"big.txt":               "size 2.3 KiB exceeds the 2 KiB cap",
		"gone.bin":              review.SkipBinary,
		"gone.txt":              "",
		"link.go":               review.SkipSymlink,
		"ok.go":                 "",
	}
	if diff := cmp.Diff(want, skips); diff != "" {
		t.Errorf("skip reasons (-want +got):\n%s", diff)
	}

	gone := cs.File("gone.txt")
	wantGone := []review.Hunk{{OldStart: 1, OldLines: 2, NewStart: 0, NewLines: 0, Lines: []string{"-one", "-two"}}}
	if gone.Status != review.StatusDeleted || gone.Content != nil || !cmp.Equal(gone.Hunks, wantGone) || gone.Reviewed() {
		t.Errorf("deleted file = %+v", gone)
	}
	// Skipped text files still carry their hunks and counts.
	if lock := cs.File("web/package-lock.json"); lock.Added != 1 || lock.Deleted != 1 {
		t.Errorf("lock file counts +%d -%d", lock.Added, lock.Deleted)
	}
	if link := cs.File("link.go"); !cmp.Equal(link.Hunks, []review.Hunk{{NewStart: 1, NewLines: 1, Lines: []string{"+ok.go"}}}) {
		t.Errorf("symlink hunks = %v", link.Hunks)
	}
	if got := cs.File("ok.go"); !got.Reviewed() {
		t.Errorf("ok.go not reviewed: %+v", got)
	}
}

func TestScanNestedRepository(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n"})
	commitAll(t, dir, "init")
	nested := filepath.Join(dir, "third_party", "x")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, nested, "init", "-q")
	write(t, nested, map[string]string{"x.go": "package x\n"})
	r := open(t, dir, Options{})
	cs := scan(t, r, resolve(t, r, false, ""), nil)
	want := []*review.File{{Path: "third_party/x", Status: review.StatusUntracked, Unstaged: true, Skip: review.SkipNested}}
	if diff := cmp.Diff(want, cs.Files, fileOpts); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestScanCRLFAndNonUTF8(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{
		"win.txt":    "one\r\ntwo\r\nthree\r\n",
		"latin1.txt": "caf\xe9\nd\xe9j\xe0\n",
		"nonl.txt":   "a\nb",
	})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{
		"win.txt":    "one\r\nTWO\r\nthree\r\nfour\r\n",
		"latin1.txt": "caf\xe9\nna\xefve\nd\xe9j\xe0\n",
		"nonl.txt":   "a\nb\n",
	})
	r := open(t, dir, Options{})
	cs := scan(t, r, resolve(t, r, false, ""), nil)

	win := cs.File("win.txt")
	wantWin := []review.Hunk{{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 4, Lines: []string{
		" one\r", "-two\r", "+TWO\r", " three\r", "+four\r",
	}}}
	if diff := cmp.Diff(wantWin, win.Hunks); diff != "" {
		t.Errorf("CRLF hunks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(lines(2, unstaged, 4, unstaged), win.Lines); diff != "" {
		t.Errorf("CRLF lines (-want +got):\n%s", diff)
	}
	if l := cs.File("latin1.txt"); l.Skip != "" || !cmp.Equal(l.Lines, lines(2, unstaged)) || !strings.Contains(string(l.Content), "na\xefve") {
		t.Errorf("latin1 = %+v", l)
	}
	// Adding the final newline changes the last line, as in git.
	if n := cs.File("nonl.txt"); !cmp.Equal(n.Lines, lines(2, unstaged)) || n.Added != 1 || n.Deleted != 1 {
		t.Errorf("nonl = %+v", n)
	}
	for _, p := range cs.Paths() {
		want := gitHunkHeaders(t, dir, "diff", "HEAD", "--", p)
		if got := hunkHeaders(cs.File(p).Hunks); !cmp.Equal(got, want) {
			t.Errorf("%s hunks %v, git %v", p, got, want)
		}
	}
}

func TestScanOverlay(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"clean.go": "package a\n", "dirty.go": "package a\n", ".gitignore": "*.tmp\n"})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{"dirty.go": "package a\n\nvar X = 1\n"})
	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "")
	cs := scan(t, r, tg, map[string][]byte{
		"clean.go":  []byte("package a\n\nvar Unsaved = 1\n"), // an unsaved edit of a clean file
		"dirty.go":  []byte("package a\n"),                    // an unsaved revert
		"new.go":    []byte("package a\n"),                    // a buffer never saved
		"x.tmp":     []byte("ignored\n"),
		"../out.go": []byte("outside\n"),
		".git/HEAD": []byte("no\n"),
	})
	want := []*review.File{
		{
			Path: "clean.go", Status: review.StatusModified, Unstaged: true, Language: review.LangGo,
			Hunks:   []review.Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 3, Lines: []string{" package a", "+", "+var Unsaved = 1"}}},
			Added:   2,
			Lines:   lines(2, unstaged, 3, unstaged),
			Content: []byte("package a\n\nvar Unsaved = 1\n"),
		},
		{
			Path: "new.go", Status: review.StatusUntracked, Unstaged: true, Language: review.LangGo,
			Hunks: []review.Hunk{{NewStart: 1, NewLines: 1, Lines: []string{"+package a"}}},
			Added: 1, Lines: lines(1, untracked), Content: []byte("package a\n"),
		},
	}
	if diff := cmp.Diff(want, cs.Files, fileOpts); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestScanUnbornAndDetached(t *testing.T) {
	u := reviewtest.Repo(t, "../../testdata/repos/unborn.txtar")
	r := open(t, u.Dir, Options{})
	tg := resolve(t, r, false, "")
	if !tg.Unborn || tg.HeadSHA != "" || tg.BaseSHA != "" || tg.Branch != "main" || tg.HeadRef != "refs/heads/main" {
		t.Errorf("unborn target = %+v", tg)
	}
	cs := scan(t, r, tg, nil)
	for _, f := range cs.Files {
		if f.Status != review.StatusAdded && f.Status != review.StatusUntracked {
			t.Errorf("%s: status %s in an unborn repository", f.Path, f.Status)
		}
	}
	if got := cs.File("main.go").Lines; !cmp.Equal(got, lines(1, staged, 2, staged, 3, unstaged, 4, unstaged, 5, unstaged)) {
		t.Errorf("main.go lines = %v", got)
	}

	d := reviewtest.Repo(t, "../../testdata/repos/detached.txtar")
	r = open(t, d.Dir, Options{})
	tg = resolve(t, r, false, "")
	head := strings.TrimSpace(runGit(t, d.Dir, "rev-parse", "HEAD"))
	if !tg.Detached || tg.HeadRef != "HEAD" || tg.Branch != "" || tg.HeadSHA != head || tg.BranchLabel() != "detached-"+head[:7] {
		t.Errorf("detached target = %+v", tg)
	}
	cs = scan(t, r, tg, nil)
	if got := cs.File("lib/calc.py").Lines; !cmp.Equal(got, lines(7, unstaged, 8, unstaged, 9, unstaged, 10, unstaged)) {
		t.Errorf("calc.py lines = %v", got)
	}
}

func TestScanStagedRenameDeletedInWorkTree(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "content\n"})
	commitAll(t, dir, "init")
	runGit(t, dir, "mv", "a.txt", "b.txt")
	remove(t, dir, "b.txt")
	r := open(t, dir, Options{})
	cs := scan(t, r, resolve(t, r, false, ""), nil)
	want := []*review.File{{
		Path: "b.txt", OldPath: "a.txt", Similarity: 100, Status: review.StatusRenamed, Staged: true, Unstaged: true,
		Skip: review.SkipWorkTreeDeleted, Language: review.LangText,
		Hunks: []review.Hunk{{OldStart: 1, OldLines: 1, Lines: []string{"-content"}}}, Deleted: 1,
	}}
	if diff := cmp.Diff(want, cs.Files, fileOpts); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestReadBase(t *testing.T) {
	f := reviewtest.Repo(t, "../../testdata/repos/mixed.txtar")
	r := open(t, f.Dir, Options{})
	for _, staged := range []bool{false, true} {
		tg := resolve(t, r, staged, "")
		got, err := r.ReadBase(t.Context(), tg, "app/main.go")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(got), "hello") || strings.Contains(string(got), "staged") {
			t.Errorf("staged=%v: base content %q", staged, got)
		}
		for _, missing := range []string{"app/new.go", "app", "nope/x", "../x"} {
			if _, err := r.ReadBase(t.Context(), tg, missing); !errorsIsNotExist(err) {
				t.Errorf("ReadBase(%s) error = %v, want fs.ErrNotExist", missing, err)
			}
		}
	}
	u := reviewtest.Repo(t, "../../testdata/repos/unborn.txtar")
	ru := open(t, u.Dir, Options{})
	if _, err := ru.ReadBase(t.Context(), resolve(t, ru, false, ""), "main.go"); !errorsIsNotExist(err) {
		t.Errorf("unborn ReadBase error = %v", err)
	}
}
