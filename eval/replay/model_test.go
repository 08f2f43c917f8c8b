package main

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestModelFlags checks that the model flags pass through to the review,
// the transcript folder made absolute (the reviews run in the clones).
func TestModelFlags(t *testing.T) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	m := addModelFlags(fs)
	if err := fs.Parse([]string{"-model", "qwen", "-model-endpoint", "http://127.0.0.1:11434/v1", "-model-transcript", "eval/t", "-model-replay"}); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("eval/t")
	want := []string{"--model", "qwen", "--model-endpoint", "http://127.0.0.1:11434/v1", "--model-transcript", abs, "--model-replay"}
	if got := m.args(); !slices.Equal(got, want) {
		t.Errorf("args %q, want %q", got, want)
	}
}

// TestLedgerTally checks that the model reviews of the replays add up,
// from the reports' model_review: the states, and the dispositions by
// reason of the reviews that ran.
func TestLedgerTally(t *testing.T) {
	var l ledgerTally
	for _, doc := range []string{
		`{"status": "ran", "counts": {"requests": 2, "candidates": 3, "confirmed": 1, "relocated": 1, "refuted": {"duplicate": 1, "unchanged-line": 1}, "unverified": {}, "prompt_tokens": 900, "completion_tokens": 100, "elapsed_ms": 1500}}`,
		`{"status": "ran", "counts": {"requests": 1, "candidates": 0, "confirmed": 0, "relocated": 0, "refuted": {}, "unverified": {"not-recorded": 1}, "prompt_tokens": 0, "completion_tokens": 0, "elapsed_ms": 0}}`,
		`{"status": "unavailable", "reason": "no endpoint"}`,
	} {
		var m modelReview
		if err := json.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatal(err)
		}
		l.add(&m)
	}
	l.add(nil) // a review without the model
	want := ledgerTally{reviews: 3, ran: 2, requests: 3, candidates: 3, confirmed: 1, relocated: 1, tokens: 1000, elapsedMS: 1500,
		refuted: map[string]int{"duplicate": 1, "unchanged-line": 1}, unverified: map[string]int{"not-recorded": 1},
		states: map[string]int{"ran": 2, "unavailable": 1}}
	if diff := cmp.Diff(want, l, cmp.AllowUnexported(ledgerTally{})); diff != "" {
		t.Errorf("tally (-want +got):\n%s", diff)
	}
}
