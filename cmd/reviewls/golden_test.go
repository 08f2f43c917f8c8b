package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
	"github.com/reviewls/reviewls/review/reviewtest"
	"github.com/reviewls/reviewls/schemas"
)

// fixtureConfig is the config.json section of a review fixture.
type fixtureConfig struct {
	Staged bool        `json:"staged"`
	Base   string      `json:"base"`
	Mode   review.Mode `json:"mode"`
}

// reviewedAt is the fixed clock of golden runs.
var reviewedAt = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// TestGoldenArtifacts turns each testdata/repos/review-*.txtar fixture
// into a real repository, reviews it through the engine, writes the
// artifact folder, and compares every artifact with the fixture's
// @golden sections. Every golden JSON document is also validated against
// its schema, so the format and its schema cannot drift apart.
func TestGoldenArtifacts(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/repos/review-*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no review fixtures: %v", err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			fx := reviewtest.Repo(t, path)
			var cfg fixtureConfig
			if len(fx.Config) > 0 {
				if err := json.Unmarshal(fx.Config, &cfg); err != nil {
					t.Fatalf("config.json: %v", err)
				}
			}
			eng, err := engine.Open(fx.Dir, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := eng.Run(t.Context(), review.Request{
				Dir: fx.Dir, Staged: cfg.Staged, Base: cfg.Base, Mode: cfg.Mode,
				Now: func() time.Time { return reviewedAt },
			})
			if err != nil {
				t.Fatal(err)
			}
			written, err := artifacts.Write(fx.Dir, res, artifactOptions())
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]byte{}
			err = filepath.WalkDir(written.Dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(written.Dir, p)
				got[filepath.ToSlash(rel)], err = os.ReadFile(p)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			got["pr-reference.xml"], err = os.ReadFile(filepath.Join(fx.Dir, artifacts.DiffPatchPath))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for n := range got {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				data := got[n]
				if schema, ok := schemas.ForFile(n); ok {
					if err := schemas.Validate(schema, data); err != nil {
						t.Errorf("%s: %v", n, err)
					}
				}
				if *update {
					fx.UpdateGolden(t, n, data)
					continue
				}
				want, ok := fx.Golden[n]
				if !ok {
					t.Errorf("%s: no @golden/%s section (run with -update)", n, n)
					continue
				}
				if diff := cmp.Diff(string(want), string(data)); diff != "" {
					t.Errorf("%s mismatch (-want +got):\n%s", n, diff)
				}
			}
			for n := range fx.Golden {
				if _, ok := got[n]; !ok {
					t.Errorf("@golden/%s: artifact not written", n)
				}
			}
			// No artifact may carry a raw secret.
			for _, secret := range []string{"AKIAZ7Q2R5T6W3X4Y6B2", "ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123"} {
				for n, data := range got {
					if strings.Contains(string(data), secret) {
						t.Errorf("%s carries a secret", n)
					}
				}
			}
		})
	}
}
