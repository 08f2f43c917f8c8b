package engine

import (
	"slices"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// secretsOf returns the raw values the findings of rule in path cite.
func secretsOf(res *review.Result, path string) []string {
	var out []string
	for _, f := range res.Findings {
		if f.Span.Path == path && f.IsSecret() {
			out = append(out, f.Secrets...)
		}
	}
	return out
}

// TestUnreadScanIsPerFile: the scan of the files a review does not read
// is kept with each file, so an incremental run (a save in the editor)
// scans again only the paths it refreshes: a vendored file the run does
// not name keeps its last scan, and naming it scans it anew.
func TestUnreadScanIsPerFile(t *testing.T) {
	const (
		first  = "glpat-Rk2Wq9Zt4Mx7Lp3Vn6Bc"
		second = "glpat-Hq4zT8wK2mP9vLx7Yt3R"
	)
	vendored := func(token string) []byte {
		return []byte("package client\n\nconst token = \"" + token + "\"\n")
	}
	dir := repo(t, map[string]string{"a.go": "package a\n", "vendor/acme/client/c.go": "package client\n"})
	write(t, dir, "a.go", []byte("package a\n\nvar x = 1\n"))
	write(t, dir, "vendor/acme/client/c.go", vendored(first))
	eng, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	runPaths := func(paths ...string) *review.Result {
		t.Helper()
		res, err := eng.Run(t.Context(), review.Request{Dir: dir, Paths: paths})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	const path = "vendor/acme/client/c.go"
	if got := secretsOf(runPaths(), path); !slices.Equal(got, []string{first}) {
		t.Fatalf("full run: secrets %q, want the vendored token", got)
	}
	write(t, dir, path, vendored(second))
	if got := secretsOf(runPaths("a.go"), path); !slices.Equal(got, []string{first}) {
		t.Errorf("a run that refreshes a.go only: secrets %q, want the vendored file's last scan", got)
	}
	if got := secretsOf(runPaths(path), path); !slices.Equal(got, []string{second}) {
		t.Errorf("a run that refreshes the vendored file: secrets %q, want its new token", got)
	}
}
