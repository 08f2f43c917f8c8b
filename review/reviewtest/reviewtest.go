// Package reviewtest builds real git repositories from txtar fixtures for
// tests. Production code must not import it.
//
// A fixture archive holds these sections (see testdata/README.md at the
// root of the module):
//
//	repo.json        optional: {"branch": "feat/x", "detach": true, "unborn": true}
//	base/<path>      commit 1, on main
//	head/<path>      commit 2, on top of commit 1, on the branch of repo.json
//	head/.deleted    paths deleted in commit 2, one per line
//	staged/<path>    written and added to the index
//	staged/.deleted  removed from the index and the work tree
//	work/<path>      written to the work tree only (an unstaged edit, or an
//	                 untracked file)
//	work/.deleted    removed from the work tree only
//	config.json      tool settings, exposed as Fixture.Config
//	@golden/<name>   expected outputs, exposed as Fixture.Golden
//
// Commits are made through go-git with a fixed author and time, so commit
// hashes are stable and may appear in goldens. The archive's comment is
// prose describing the scenario.
package reviewtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"golang.org/x/tools/txtar"
)

// Signature is the author and committer of every fixture commit.
var Signature = object.Signature{Name: "reviewtest", Email: "reviewtest@example.com", When: time.Unix(0, 0).UTC()}

// Fixture is a repository built from a txtar archive.
type Fixture struct {
	// Dir is the root of the work tree, in a temporary directory removed
	// when the test ends.
	Dir string
	// Archive is the parsed fixture.
	Archive *txtar.Archive
	// Config is the config.json section, or nil.
	Config []byte
	// Golden maps the names of the @golden/<name> sections to their data.
	Golden map[string][]byte

	path string // the txtar file, "" when built from an archive
}

// meta is the repo.json section.
type meta struct {
	// Branch is the branch head/ is committed on; main by default.
	Branch string `json:"branch"`
	// Detach detaches HEAD at the last commit.
	Detach bool `json:"detach"`
	// Unborn makes no commit: base/ files are only staged.
	Unborn bool `json:"unborn"`
}

// Repo builds the repository described by the txtar file at txtarPath.
func Repo(t testing.TB, txtarPath string) *Fixture {
	t.Helper()
	ar, err := txtar.ParseFile(txtarPath)
	if err != nil {
		t.Fatalf("read fixture: %v", err)
	}
	f := RepoFromArchive(t, ar)
	f.path = txtarPath
	return f
}

// RepoFromArchive builds the repository described by ar.
func RepoFromArchive(t testing.TB, ar *txtar.Archive) *Fixture {
	t.Helper()
	f := &Fixture{Dir: t.TempDir(), Archive: ar, Golden: map[string][]byte{}}
	var m meta
	files := map[string][]txtar.File{} // by area: base, head, staged, work
	deleted := map[string][]string{}
	for _, af := range ar.Files {
		name := af.Name
		switch {
		case name == "repo.json":
			dec := json.NewDecoder(bytes.NewReader(af.Data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&m); err != nil {
				t.Fatalf("fixture repo.json: %v", err)
			}
		case name == "config.json":
			f.Config = af.Data
		case strings.HasPrefix(name, "@golden/"):
			f.Golden[strings.TrimPrefix(name, "@golden/")] = af.Data
		default:
			area, rel, ok := strings.Cut(name, "/")
			if !ok || !(area == "base" || area == "head" || area == "staged" || area == "work") {
				t.Fatalf("fixture: unknown section %q (want repo.json, config.json, @golden/, base/, head/, staged/ or work/)", name)
			}
			if rel != path.Clean(rel) || strings.HasPrefix(rel, "../") || path.IsAbs(rel) || rel == ".git" || strings.HasPrefix(rel, ".git/") {
				t.Fatalf("fixture: bad path %q", name)
			}
			if rel == ".deleted" {
				deleted[area] = append(deleted[area], strings.Fields(string(af.Data))...)
				continue
			}
			files[area] = append(files[area], txtar.File{Name: rel, Data: af.Data})
		}
	}
	if m.Unborn && (len(files["head"]) > 0 || len(deleted["head"]) > 0 || m.Detach) {
		t.Fatalf("fixture: an unborn repository has no head/ section and cannot be detached")
	}
	if m.Branch == "" {
		m.Branch = "main"
	}

	b := builder{t: t, dir: f.Dir}
	b.init()
	b.write(files["base"], true)
	if !m.Unborn {
		base := b.commit("base\n")
		if m.Branch != "main" {
			b.setRef(plumbing.NewBranchReferenceName(m.Branch), base)
			b.setHead(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(m.Branch)))
		}
		last := base
		if len(files["head"]) > 0 || len(deleted["head"]) > 0 {
			b.write(files["head"], true)
			b.remove(deleted["head"], true)
			last = b.commit("head\n")
		}
		if m.Detach {
			b.setHead(plumbing.NewHashReference(plumbing.HEAD, last))
		}
	}
	b.write(files["staged"], true)
	b.remove(deleted["staged"], true)
	b.write(files["work"], false)
	b.remove(deleted["work"], false)
	return f
}

// builder writes a fixture repository through go-git.
type builder struct {
	t    testing.TB
	dir  string
	repo *git.Repository
	wt   *git.Worktree
}

func (b *builder) init() {
	b.t.Helper()
	repo, err := git.PlainInitWithOptions(b.dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		b.t.Fatalf("fixture: init: %v", err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		b.t.Fatalf("fixture: %v", err)
	}
	b.repo, b.wt = repo, wt
}

// write writes files to the work tree, and adds them to the index when add
// is set.
func (b *builder) write(files []txtar.File, add bool) {
	b.t.Helper()
	for _, f := range files {
		p := filepath.Join(b.dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.t.Fatalf("fixture: %v", err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			b.t.Fatalf("fixture: %v", err)
		}
		if add {
			if err := b.wt.AddWithOptions(&git.AddOptions{Path: f.Name, SkipStatus: true}); err != nil {
				b.t.Fatalf("fixture: add %s: %v", f.Name, err)
			}
		}
	}
}

// remove deletes paths from the work tree, and from the index when index
// is set.
func (b *builder) remove(paths []string, index bool) {
	b.t.Helper()
	for _, p := range paths {
		if index {
			if _, err := b.wt.Remove(p); err != nil {
				b.t.Fatalf("fixture: remove %s: %v", p, err)
			}
			continue
		}
		if err := os.Remove(filepath.Join(b.dir, filepath.FromSlash(p))); err != nil {
			b.t.Fatalf("fixture: %v", err)
		}
	}
}

func (b *builder) commit(msg string) plumbing.Hash {
	b.t.Helper()
	sig := Signature
	h, err := b.wt.Commit(msg, &git.CommitOptions{Author: &sig, Committer: &sig, AllowEmptyCommits: true})
	if err != nil {
		b.t.Fatalf("fixture: commit %s: %v", strings.TrimSpace(msg), err)
	}
	return h
}

func (b *builder) setRef(name plumbing.ReferenceName, h plumbing.Hash) {
	b.t.Helper()
	if err := b.repo.Storer.SetReference(plumbing.NewHashReference(name, h)); err != nil {
		b.t.Fatalf("fixture: %v", err)
	}
}

func (b *builder) setHead(ref *plumbing.Reference) {
	b.t.Helper()
	if err := b.repo.Storer.SetReference(ref); err != nil {
		b.t.Fatalf("fixture: %v", err)
	}
}

// goldenMu serializes rewrites of fixture files, which tests running in
// parallel may share.
var goldenMu sync.Mutex

// UpdateGolden rewrites the @golden/<name> section of the fixture's txtar
// file with data, adding the section when missing. Tests call it under
// their -update flag. txtar keeps sections newline-terminated, so a final
// newline is added to data that lacks one.
func (f *Fixture) UpdateGolden(t testing.TB, name string, data []byte) {
	t.Helper()
	if f.path == "" {
		t.Fatalf("UpdateGolden %s: the fixture was not read from a file", name)
	}
	goldenMu.Lock()
	defer goldenMu.Unlock()
	// Re-read the file: another test may have updated another section.
	ar, err := txtar.ParseFile(f.path)
	if err != nil {
		t.Fatalf("UpdateGolden: %v", err)
	}
	section := "@golden/" + name
	found := false
	for i := range ar.Files {
		if ar.Files[i].Name == section {
			ar.Files[i].Data = data
			found = true
		}
	}
	if !found {
		ar.Files = append(ar.Files, txtar.File{Name: section, Data: data})
	}
	if err := os.WriteFile(f.path, txtar.Format(ar), 0o644); err != nil {
		t.Fatalf("UpdateGolden: %v", err)
	}
	f.Archive = ar
	f.Golden[name] = data
}

// Git runs the git binary in dir with an isolated environment (a temporary
// HOME, no system config, a fixed author, committer and date) and returns
// its standard output. It fails the test, showing standard error, when git
// fails.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return GitEnv(t, dir, nil, args...)
}

// GitEnv is [Git] with extra environment variables ("KEY=value"), which
// override the isolated ones (HOME, say).
func GitEnv(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(isolatedEnv(t), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.String()
}

// homes holds the temporary HOME of each test that ran git.
var homes sync.Map // testing.TB -> string

// isolatedEnv returns the environment git runs in: the process's, without
// anything that points git elsewhere or configures it, plus fixed settings.
func isolatedEnv(t testing.TB) []string {
	t.Helper()
	home, ok := homes.Load(t)
	if !ok {
		home = t.TempDir()
		homes.Store(t, home)
		t.Cleanup(func() { homes.Delete(t) })
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" {
			continue
		}
		env = append(env, kv)
	}
	const date = "1970-01-01T00:00:00Z"
	config := [][2]string{
		{"init.defaultBranch", "main"},
		{"protocol.file.allow", "always"},
		{"commit.gpgSign", "false"},
		{"core.autocrlf", "false"},
		{"advice.detachedHead", "false"},
	}
	env = append(env,
		"HOME="+home.(string),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME="+Signature.Name, "GIT_AUTHOR_EMAIL="+Signature.Email, "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME="+Signature.Name, "GIT_COMMITTER_EMAIL="+Signature.Email, "GIT_COMMITTER_DATE="+date,
		fmt.Sprintf("GIT_CONFIG_COUNT=%d", len(config)),
	)
	for i, kv := range config {
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i, kv[1]))
	}
	return env
}

// BenchRepo returns the real repository a benchmark measures: the work
// tree in $REVIEWLS_BENCH_REPO (a clone with a change in place, as
// bench/scanbench leaves one). It skips the benchmark when that is unset:
// go test and CI have no such clone.
func BenchRepo(b *testing.B) string {
	b.Helper()
	dir := os.Getenv("REVIEWLS_BENCH_REPO")
	if dir == "" {
		b.Skip("set REVIEWLS_BENCH_REPO to a work tree")
	}
	return dir
}
