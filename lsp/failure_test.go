package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/lsp/lsptest"
)

// TestReviewFailureReported checks that reviewls.review reports a failed
// review as an error, never the last successful result, and that
// reviewls/didReview says it failed; a review that succeeds again clears
// the failure.
func TestReviewFailureReported(t *testing.T) {
	for _, tt := range []struct {
		name        string
		spoil, mend func(t *testing.T, dir string)
		want        string
	}{
		{"invalid configuration", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, ".reviewls.yaml"), []byte("depth: deep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, ".reviewls.yaml")); err != nil {
				t.Fatal(err)
			}
		}, `unknown depth "deep"`},
		{"repository gone", func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, ".git"), filepath.Join(dir, "git.bak")); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "git.bak"), filepath.Join(dir, ".git")); err != nil {
				t.Fatal(err)
			}
		}, "failed: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := repo(t, map[string]string{"a.go": "package a\n"})
			env := lsptest.New(t, dir, lsptest.Config{})
			env.WriteFile("a.go", "package a\n\n// TODO: first\n")
			var sum struct{ Findings int }
			if err := env.ExecuteCommand("reviewls.review", &sum); err != nil || sum.Findings != 1 {
				t.Fatalf("first review: %+v, %v; want 1 finding", sum, err)
			}

			tt.spoil(t, dir)
			err := env.ExecuteCommand("reviewls.review", &sum)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("review after the failure: %v (result %+v), want an error containing %q", err, sum, tt.want)
			}
			env.Await(didReviewFailed(tt.want))
			if !strings.Contains(err.Error(), "review of "+dir+" failed: ") {
				t.Errorf("error %q does not name the repository", err)
			}

			tt.mend(t, dir)
			if err := env.ExecuteCommand("reviewls.review", &sum); err != nil || sum.Findings != 1 {
				t.Fatalf("review once mended: %+v, %v; want 1 finding", sum, err)
			}
			env.Shutdown()
		})
	}
}

// didReviewFailed holds when the last reviewls/didReview says the review
// failed with an error containing text.
func didReviewFailed(text string) lsptest.Expectation {
	return func(s *lsptest.State) (bool, string) {
		if n := len(s.Reviews); n > 0 {
			var last struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(s.Reviews[n-1], &last) == nil && strings.Contains(last.Error, text) {
				return true, ""
			}
		}
		return false, fmt.Sprintf("a last reviewls/didReview with an error containing %q", text)
	}
}
