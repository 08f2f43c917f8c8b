package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/gitdiff"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// TestSessionLayouts opens sessions on repositories whose work tree is not
// the directory holding .git: core.worktree, and $GIT_DIR given to the
// server. The session reviews the work tree git would, across the full
// rescans that reopen the engine.
func TestSessionLayouts(t *testing.T) {
	base := t.TempDir()
	repo, wt := filepath.Join(base, "repo"), filepath.Join(base, "wt")
	reviewtest.Git(t, base, "init", "-q", "repo")
	if err := os.Mkdir(wt, 0o755); err != nil {
		t.Fatal(err)
	}
	reviewtest.Git(t, repo, "config", "core.worktree", wt)
	if err := os.WriteFile(filepath.Join(wt, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reviewtest.Git(t, repo, "add", "-A")
	reviewtest.Git(t, repo, "commit", "-q", "-m", "init")
	if err := os.WriteFile(filepath.Join(wt, "a.go"), []byte("package a\n\n// TODO: finish\nfunc A() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		folder string
		env    gitdiff.Env
	}{
		{"core.worktree", repo, gitdiff.Env{}},
		{"GIT_DIR", wt, gitdiff.Env{GitDir: filepath.Join(repo, ".git")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{NoWatch: true, GitEnv: tc.env}
			srv := newServer(opts.withDefaults())
			srv.client = &recordingClient{}
			srv.state = stateInitialized
			ss, err := srv.newSession(tc.folder)
			if err != nil {
				t.Fatal(err)
			}
			srv.setSessionsLocked([]*session{ss})
			t.Cleanup(srv.stopAll)
			if ss.root != wt {
				t.Fatalf("session root = %s, want %s", ss.root, wt)
			}
			for range 2 {
				res, err := ss.review(t.Context(), review.Request{})
				if err != nil {
					t.Fatal(err)
				}
				if cs := res.ChangeSet; cs.Root != wt || len(cs.Files) != 1 || cs.Files[0].Path != "a.go" {
					t.Fatalf("change set of %s: %+v", cs.Root, cs.Files)
				}
			}
		})
	}
}
