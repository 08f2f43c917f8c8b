package gitdiff

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reviewls/reviewls/review"
)

// TestStatusRandomRepos compares Status with git status on repositories
// built and then edited at random (seeded, so failures reproduce): files
// in nested directories, .gitignore files with negations, staged and
// unstaged edits, deletions, moves, mode changes, symbolic links and
// files replaced by directories.
func TestStatusRandomRepos(t *testing.T) {
	for seed := range int64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewSource(seed))
			dir := initRepo(t)
			files := randomTree(r, dir)
			runGit(t, dir, "add", "-A")
			runGit(t, dir, "commit", "-q", "-m", "init")
			randomEdits(t, r, dir, files)
			checkStatus(t, dir)
			checkStagedStatus(t, dir)
		})
	}
}

// checkStagedStatus compares the staged target's Status with `git diff
// --cached`, renames unrolled into a deletion and an addition.
func checkStagedStatus(t *testing.T, dir string) {
	t.Helper()
	repo := open(t, dir, Options{})
	changes, err := repo.Status(t.Context(), resolve(t, repo, true, ""))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		switch c.Status {
		case review.StatusRenamed:
			got = append(got, "D "+c.OldPath, "A "+c.Path)
		case review.StatusAdded:
			got = append(got, "A "+c.Path)
		case review.StatusDeleted:
			got = append(got, "D "+c.Path)
		default:
			got = append(got, "M "+c.Path)
		}
	}
	sort.Strings(got)
	var want []string
	out := runGit(t, dir, "diff", "--cached", "--name-status", "--no-renames", "-z")
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		status := fields[i]
		if status == "T" {
			status = "M"
		}
		want = append(want, status+" "+fields[i+1])
	}
	sort.Strings(want)
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("staged Status differs from git diff --cached (-git +Status):\n%s", diff)
	}
}

var (
	randomDirs     = []string{"", "a", "a/b", "a/b/c", "build", "src", "src/gen", "docs", "x.d", "x"}
	randomNames    = []string{"f.go", "g.txt", "h.log", "i.o", "j.md", "k", "l.min.js", "m.tmp", "n.txt", "keep.log"}
	randomPatterns = []string{"*.log", "!keep.log", "*.o", "build/", "/x", "gen", "*.tmp", "!src/*.tmp", "a/**/k", "docs/*", "!docs/j.md", "[gh].txt", "c/"}
)

// randomTree writes random files and .gitignore files and returns the
// paths written.
func randomTree(r *rand.Rand, dir string) []string {
	var files []string
	for range 40 {
		d := randomDirs[r.Intn(len(randomDirs))]
		p := strings.TrimPrefix(d+"/"+randomNames[r.Intn(len(randomNames))], "/")
		files = append(files, p)
		writeFile(dir, p, fmt.Sprintf("content %d\n", r.Intn(3)))
	}
	for _, d := range []string{"", "a", "src"} {
		if r.Intn(2) == 0 {
			continue
		}
		var lines []string
		for range 1 + r.Intn(4) {
			lines = append(lines, randomPatterns[r.Intn(len(randomPatterns))])
		}
		writeFile(dir, strings.TrimPrefix(d+"/.gitignore", "/"), strings.Join(lines, "\n")+"\n")
	}
	return files
}

func randomEdits(t *testing.T, r *rand.Rand, dir string, files []string) {
	for range 15 {
		p := files[r.Intn(len(files))]
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if _, err := os.Lstat(abs); err != nil {
			continue
		}
		switch r.Intn(9) {
		case 0, 1:
			writeFile(dir, p, fmt.Sprintf("edited %d\n", r.Intn(3)))
		case 2:
			writeFile(dir, p, fmt.Sprintf("staged %d\n", r.Intn(3)))
			runGit(t, dir, "add", "-f", p)
		case 3:
			os.Remove(abs)
		case 4:
			runGit(&failTB{TB: t}, dir, "rm", "-q", "--cached", p)
		case 5:
			os.Chmod(abs, 0o755)
		case 6:
			os.Remove(abs)
			os.Symlink("target", abs)
		case 7:
			os.Remove(abs)
			writeFile(dir, p+"/inner.txt", "now a directory\n")
		default:
			q := randomDirs[r.Intn(len(randomDirs))] + "/moved-" + filepath.Base(p)
			q = strings.TrimPrefix(q, "/")
			os.MkdirAll(filepath.Join(dir, filepath.Dir(filepath.FromSlash(q))), 0o755)
			runGit(&failTB{TB: t}, dir, "mv", "-f", p, q)
		}
	}
	for range 8 {
		d := randomDirs[r.Intn(len(randomDirs))]
		writeFile(dir, strings.TrimPrefix(d+"/new-"+randomNames[r.Intn(len(randomNames))], "/"), "new\n")
	}
}

func writeFile(dir, p, content string) {
	abs := filepath.Join(dir, filepath.FromSlash(p))
	os.MkdirAll(filepath.Dir(abs), 0o755)
	os.WriteFile(abs, []byte(content), 0o644)
}

// TestRefreshRandomEdits edits random repositories in the work tree only
// (so that Refresh takes its fast path) and checks that refreshing the
// touched paths gives what a fresh scan gives.
func TestRefreshRandomEdits(t *testing.T) {
	for seed := range int64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewSource(seed))
			dir := initRepo(t)
			files := randomTree(r, dir)
			runGit(t, dir, "add", "-A")
			runGit(t, dir, "commit", "-q", "-m", "init")
			for _, p := range files[:5] {
				writeFile(dir, p, "staged\n")
				runGit(t, dir, "add", "-f", p)
			}
			repo := open(t, dir, Options{})
			tg := resolve(t, repo, false, "")
			prev := scan(t, repo, tg, nil)

			var touched []string
			overlay := map[string][]byte{}
			for range 12 {
				p := files[r.Intn(len(files))]
				abs := filepath.Join(dir, filepath.FromSlash(p))
				if fi, err := os.Lstat(abs); err == nil && fi.Mode()&os.ModeSymlink != 0 {
					continue // writing through it would create its target
				}
				switch r.Intn(7) {
				case 0:
					writeFile(dir, p, fmt.Sprintf("edited %d\n", r.Intn(3)))
				case 1:
					os.RemoveAll(abs)
				case 2:
					os.Chmod(abs, 0o755)
				case 3:
					os.RemoveAll(abs)
					os.Symlink("target", abs)
				case 4:
					os.RemoveAll(abs)
					writeFile(dir, p+"/inner.txt", "now a directory\n")
				case 5:
					overlay[p] = []byte(fmt.Sprintf("buffer %d\n", r.Intn(3)))
				default:
					p = strings.TrimPrefix(randomDirs[r.Intn(len(randomDirs))]+"/new-"+randomNames[r.Intn(len(randomNames))], "/")
					writeFile(dir, p, "new\n")
				}
				touched = append(touched, p)
			}
			if r.Intn(2) == 0 {
				// A whole directory refreshed at once.
				touched = append(touched, randomDirs[1+r.Intn(len(randomDirs)-1)])
			}
			got, err := repo.Refresh(t.Context(), prev, overlay, touched...)
			if err != nil {
				t.Fatal(err)
			}
			// Paths not refreshed keep prev's files, so compare with a
			// scan whose overlay is limited to the refreshed paths.
			want := scan(t, open(t, dir, Options{}), tg, overlay)
			if diff := cmp.Diff(want, got, fileOpts); diff != "" {
				t.Errorf("Refresh(%q) differs from Scan (-scan +refresh):\n%s", touched, diff)
			}
		})
	}
}
