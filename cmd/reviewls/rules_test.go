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
	const path = "../../docs/rules.md"
	want := rulesMarkdown(engine.Rules())
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
		t.Errorf("docs/rules.md is out of date (run go test ./cmd/reviewls -run RulesDoc -update):\n%s", diff)
	}
}
