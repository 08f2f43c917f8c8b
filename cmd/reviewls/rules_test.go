package main

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review/engine"
)

// TestRulesDocUpToDate fails when docs/rules.md no longer matches the
// registry; run `go test ./cmd/reviewls -run RulesDoc -update` to
// regenerate it.
func TestRulesDocUpToDate(t *testing.T) {
	checkDoc(t, "../../docs/rules.md", rulesMarkdown(engine.Rules()), "go test ./cmd/reviewls -run RulesDoc -update")
}

// checkDoc compares a generated page with the file at path, or rewrites
// the file under -update; regenerate says how.
func checkDoc(t *testing.T, path, want, regenerate string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("%s is out of date (run %s):\n%s", path, regenerate, diff)
	}
}
