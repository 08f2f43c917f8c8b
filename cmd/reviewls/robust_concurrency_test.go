package main

import (
	"flag"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/lsp"
	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// writerRounds is 20 by default: without the writers' lock 11 of 40
// rounds failed here, so 20 rounds catch that almost surely (0.73^20 <
// 0.2%) at a fifth of the cost of the 100, which
// `go test ./cmd/reviewls -run TestConcurrentWriters -writer-rounds 100`
// runs.
var writerRounds = flag.Int("writer-rounds", 20, "rounds of TestConcurrentWriters")

// TestConcurrentWriters runs two `reviewls review` processes (the built
// binary) and a language server's review command at once on one branch,
// round after round: every run succeeds, the artifact folder validates
// after each round, and no temporary file is left. Before the writers
// took turns, one writer's stale-file cleanup deleted another's temporary
// file in flight about one round in six (`rename …tmp-…: no such file`).
func TestConcurrentWriters(t *testing.T) {
	bin := buildBinary(t)
	// A memory file system where there is one: the rounds then cost the
	// writers' work, not the disk's fsyncs (a second a round on a busy
	// disk). The rename and remove semantics under test are the same.
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() && fi.Mode().Perm()&0o002 != 0 {
		t.Setenv("TMPDIR", "/dev/shm")
	}
	dir := reviewtest.RepoFromArchive(t, &txtar.Archive{Files: []txtar.File{
		{Name: "base/a.go", Data: []byte("package a\n\nfunc F() int { return 1 }\n")},
		{Name: "work/a.go", Data: []byte("package a\n\n// F returns two.\nfunc F() int { return 2 }\n")},
		{Name: "work/b.go", Data: []byte("package a\n\n// G returns three.\nfunc G() int { return 3 }\n")},
	}}).Dir
	var logs lockedBuffer
	env := lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}})
	tracking := filepath.Join(dir, artifacts.TrackingDir)

	for round := range *writerRounds {
		var wg sync.WaitGroup
		errs := make([]string, 3)
		for i := range 2 {
			wg.Go(func() {
				cmd := exec.Command(bin, "review", "--fail-on", "never")
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					errs[i] = "reviewls review: " + err.Error() + "\n" + string(out)
				}
			})
		}
		wg.Go(func() {
			if err := env.ExecuteCommand("reviewls.review", nil); err != nil {
				errs[2] = "server reviewls.review: " + err.Error()
			}
		})
		wg.Wait()
		if log := logs.take(); log != "" {
			errs = append(errs, "server log: "+log)
		}
		for _, e := range errs {
			if e != "" {
				t.Errorf("round %d: %s", round, e)
			}
		}
		folders, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(artifacts.ReviewsDir), "*"))
		if len(folders) != 1 {
			t.Fatalf("round %d: review folders %q, want one", round, folders)
		}
		if err := artifacts.Validate(folders[0]); err != nil {
			t.Errorf("round %d: %v", round, err)
		}
		_ = filepath.WalkDir(tracking, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.Contains(d.Name(), ".tmp-") {
				t.Errorf("round %d: temporary file %s left behind", round, p)
			}
			return err
		})
		if t.Failed() {
			t.FailNow()
		}
	}
	env.Shutdown()
}

// take returns what was written since the last take.
func (b *lockedBuffer) take() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.b.String()
	b.b.Reset()
	return s
}
