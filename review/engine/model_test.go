package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/llm/llmtest"
)

// calcRepo returns a repository whose change makes Sum's loop read one
// element past the end (a defect no rule sees), in a function that calls
// a helper of another file and is called from another package.
func calcRepo(t *testing.T, loopLine string) string {
	t.Helper()
	dir := repo(t, map[string]string{
		"go.mod":                  "module example.com/m\n\ngo 1.22\n",
		"calc/calc.go":            "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n",
		"calc/clamp.go":           "package calc\n\n// clamp bounds n to a byte.\nfunc clamp(n int) int {\n\treturn min(max(n, 0), 255)\n}\n",
		"cmd/report/report.go":    "package main\n\nimport \"example.com/m/calc\"\n\nfunc report(xs []int) int {\n\treturn calc.Sum(xs) * 2\n}\n",
		"cmd/report/report2.go":   "package main\n",
		"docs/notes/unrelated.md": "# Notes\n",
	})
	write(t, dir, "calc/calc.go", []byte("package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ttotal := 0\n"+loopLine+"\n\t\ttotal += clamp(xs[i])\n\t}\n\treturn total\n}\n"))
	return dir
}

const offByOne = "\tfor i := 0; i <= len(xs); i++ {"

// offByOneAnswer is a model's answer naming the defect of calcRepo.
var offByOneAnswer = llmtest.Answer(llmtest.Finding{File: "calc/calc.go", Line: 6, Quote: "for i := 0; i <= len(xs); i++ {",
	Severity: "high", Title: "The loop reads one element past the end of xs"})

// modelEngine opens dir with a model reviewer on s.
func modelEngine(t *testing.T, dir string, s *llmtest.Server, mc review.ModelConfig) *Engine {
	t.Helper()
	mc.Endpoint, mc.Name = s.URL, "test-model"
	if mc.Context == 0 {
		mc.Context = 16384
	}
	eng, err := Open(dir, Options{Model: &mc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}

// reviewWithModel runs req, asking for the model, and the model review:
// it returns the result of the rules and the one with the model's.
func reviewWithModel(t *testing.T, eng *Engine, req review.Request) (rules, out *review.Result) {
	t.Helper()
	req.Model = review.ModelAsk
	rules, err := eng.Run(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if out, err = eng.ModelReview(t.Context(), rules); err != nil {
		t.Fatal(err)
	}
	return rules, out
}

func modelFindings(res *review.Result) []string {
	var out []string
	for _, f := range res.Findings {
		if f.Model != "" {
			out = append(out, f.RuleID+"@"+f.Span.Path+":"+f.Span.Lines()+" by "+f.Model)
		}
	}
	return out
}

// TestModelReview checks the second wave end to end in the engine: the
// run leaves the model review pending with no model finding, and
// ModelReview asks the model with the enclosing function, its callee in
// another file and its caller in another package, confirms the candidate
// and merges it as functional/model, naming the model; advisory, it
// leaves the verdict as the rules made it, unless the model is blocking.
func TestModelReview(t *testing.T) {
	for _, blocking := range []bool{false, true} {
		s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(offByOneAnswer)})
		eng := modelEngine(t, calcRepo(t, offByOne), s, review.ModelConfig{Blocking: blocking})
		res, err := eng.Run(t.Context(), review.Request{Model: review.ModelAsk})
		if err != nil {
			t.Fatal(err)
		}
		if res.Model.State != review.ModelPending || len(modelFindings(res)) != 0 || len(s.Chats()) != 0 {
			t.Fatalf("after the rules: model %+v, findings %q, %d requests; want it pending and nothing asked", res.Model, modelFindings(res), len(s.Chats()))
		}
		out, err := eng.ModelReview(t.Context(), res)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := modelFindings(out), []string{"functional/model@calc/calc.go:6 by test-model"}; !slices.Equal(got, want) {
			t.Errorf("model findings %q, want %q", got, want)
		}
		if out.Model.State != review.ModelRan || out.Model.Counts.Confirmed != 1 || !strings.Contains(string(out.Model.Ledger), `"disposition":"confirmed"`) {
			t.Errorf("model review %+v, want ran with one confirmed candidate in the ledger", out.Model)
		}
		chats := s.Chats()
		if len(chats) != 1 {
			t.Fatalf("%d requests, want 1", len(chats))
		}
		prompt := chats[0].Messages[1].Content
		for _, want := range []string{"func Sum(xs []int) int", "`clamp`, called by the change, at calc/clamp.go:4", "`report`, a caller of changed code, at cmd/report/report.go:5"} {
			if !strings.Contains(prompt, want) {
				t.Errorf("the request lacks %q:\n%s", want, prompt)
			}
		}
		wantVerdict := review.VerdictApprove
		if blocking {
			wantVerdict = review.VerdictRequestChanges
		}
		if out.Verdict != wantVerdict || res.Verdict != review.VerdictApprove || out.Counts.High != 1 {
			t.Errorf("blocking %v: verdict %s (rules alone: %s), counts %+v; want %s and the finding counted", blocking, out.Verdict, res.Verdict, out.Counts, wantVerdict)
		}
	}
}

// TestModelReviewSuppressed checks that a model finding passes the same
// suppression and baseline steps as a rule's: an inline ignore silences
// it, and a baseline that records its fingerprint makes it pre-existing.
func TestModelReviewSuppressed(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(offByOneAnswer)})
	eng := modelEngine(t, calcRepo(t, offByOne+" // reviewls:ignore functional/model xs always ends with a sentinel here"), s, review.ModelConfig{})
	_, out := reviewWithModel(t, eng, review.Request{})
	if len(modelFindings(out)) != 0 || len(out.Suppressed) != 1 || out.Suppressed[0].Finding.RuleID != "functional/model" {
		t.Errorf("ignored: findings %q, suppressed %+v; want the model finding suppressed", modelFindings(out), out.Suppressed)
	}

	s = llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(offByOneAnswer)})
	dir := calcRepo(t, offByOne)
	eng = modelEngine(t, dir, s, review.ModelConfig{})
	_, first := reviewWithModel(t, eng, review.Request{})
	_, out = reviewWithModel(t, eng, review.Request{Baseline: review.NewBaseline(first.Findings)})
	if len(modelFindings(out)) != 0 || !slices.ContainsFunc(out.PreExisting, func(p review.PreExisting) bool { return p.Finding.RuleID == "functional/model" }) {
		t.Errorf("baselined: findings %q, pre-existing %d; want the model finding pre-existing", modelFindings(out), len(out.PreExisting))
	}
	if n := len(s.Chats()); n != 1 {
		t.Errorf("%d requests for two reviews of the same change, want 1 (the answer is cached)", n)
	}
}

// TestModelReviewOff checks that a run that does not ask for the model,
// or a change with nothing to review, leaves it off and asks nothing, and
// that invalid settings make it unavailable, with the reason, while the
// rules run.
func TestModelReviewOff(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(offByOneAnswer)})
	dir := calcRepo(t, offByOne)
	eng := modelEngine(t, dir, s, review.ModelConfig{})
	res, err := eng.Run(t.Context(), review.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := eng.ModelReview(t.Context(), res); err != nil || out != res || res.Model.State != review.ModelOff {
		t.Errorf("not asked: model %+v, %v", res.Model, err)
	}
	eng, err = Open(dir, Options{Model: &review.ModelConfig{Endpoint: "https://api.example.com/v1", Name: "m"}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err = eng.Run(t.Context(), review.Request{Model: review.ModelAsk})
	if err != nil {
		t.Fatal(err)
	}
	if res.Model.State != review.ModelUnavailable || !strings.Contains(res.Model.Reason, "api.example.com is not on this machine") {
		t.Errorf("remote without allow-remote: model %+v", res.Model)
	}
	if mc, err := eng.ModelSettings(); mc == nil || mc.Endpoint != "https://api.example.com/v1" || err == nil {
		t.Errorf("settings %+v, %v; want them with the reason they cannot be used", mc, err)
	}
	if len(s.Received()) != 0 {
		t.Errorf("%d requests received, want none", len(s.Received()))
	}
}

// TestModelReviewIncremental checks that an edit of another file keeps
// the model findings of the unchanged one in the first wave, and that the
// second wave asks the model nothing new: the request of the unchanged
// file is cached.
func TestModelReviewIncremental(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(offByOneAnswer)})
	dir := calcRepo(t, offByOne)
	// Too large to share a request with calc.go.
	notes := "package m\n\n// Notes are notes.\nvar Notes = []string{\n" + strings.Repeat("\t\"a note that is long enough to fill the request\",\n", 80)
	write(t, dir, "notes.go", []byte(notes+"}\n"))
	eng := modelEngine(t, dir, s, review.ModelConfig{Context: 4096})
	res, err := eng.Run(t.Context(), review.Request{Model: review.ModelAsk})
	if err != nil {
		t.Fatal(err)
	}
	if res, err = eng.ModelReview(t.Context(), res); err != nil {
		t.Fatal(err)
	}
	asked := len(s.Chats())
	write(t, dir, "notes.go", []byte(notes+"\t\"b\",\n}\n"))
	res, err = eng.Run(t.Context(), review.Request{Model: review.ModelCached, Paths: []string{"notes.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := modelFindings(res); len(got) != 1 || res.Model.State != review.ModelPending {
		t.Errorf("first wave after the edit: model findings %q, state %s; want calc.go's carried, pending", got, res.Model.State)
	}
	out, err := eng.ModelReview(t.Context(), res)
	if err != nil {
		t.Fatal(err)
	}
	if got := modelFindings(out); len(got) != 1 || len(s.Chats()) != asked {
		t.Errorf("second wave: model findings %q, %d new requests; want calc.go's, nothing asked", got, len(s.Chats())-asked)
	}
}

// TestModelReviewStale checks that a run replaces a pending model review:
// ModelReview of the older result is stale.
func TestModelReviewStale(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(offByOneAnswer)})
	eng := modelEngine(t, calcRepo(t, offByOne), s, review.ModelConfig{})
	old, err := eng.Run(t.Context(), review.Request{Model: review.ModelAsk})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Run(t.Context(), review.Request{Model: review.ModelAsk}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.ModelReview(t.Context(), old); !errors.Is(err, ErrStale) {
		t.Errorf("model review of a replaced result: %v, want ErrStale", err)
	}
}

// TestModelReviewRulesConfig checks that `rules:` applies to the model's
// findings as to a rule's: off drops them, a severity replaces the
// model's.
func TestModelReviewRulesConfig(t *testing.T) {
	for _, tc := range []struct {
		rc   review.RuleConfig
		want []string
	}{
		{review.RuleConfig{Off: true}, nil},
		{review.RuleConfig{Severity: review.SeverityLow}, []string{"Low"}},
	} {
		s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(offByOneAnswer)})
		cfg := &review.Config{Rules: map[string]review.RuleConfig{"functional/model": tc.rc},
			Model: &review.ModelConfig{Endpoint: s.URL, Name: "test-model", Context: 16384}}
		eng, err := Open(calcRepo(t, offByOne), Options{Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		defer eng.Close()
		_, out := reviewWithModel(t, eng, review.Request{})
		var got []string
		for _, f := range out.Findings {
			if f.Model != "" {
				got = append(got, f.Severity.String())
			}
		}
		if !slices.Equal(got, tc.want) || out.Model.Counts.Confirmed != 1 {
			t.Errorf("rules %+v: model findings of severity %q, want %q (the ledger confirmed %d)", tc.rc, got, tc.want, out.Model.Counts.Confirmed)
		}
	}
}

// TestModelReviewCancelled checks that a model review whose context ends
// first returns its error and asks nothing, and that the context it cut
// short is not kept: the next model review sends the whole of it.
func TestModelReviewCancelled(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(offByOneAnswer)})
	eng := modelEngine(t, calcRepo(t, offByOne), s, review.ModelConfig{})
	res, err := eng.Run(t.Context(), review.Request{Model: review.ModelAsk})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := eng.ModelReview(ctx, res); !errors.Is(err, context.Canceled) || len(s.Received()) != 0 {
		t.Fatalf("cancelled: %v, %d requests received; want context.Canceled and none", err, len(s.Received()))
	}
	if _, err := eng.ModelReview(t.Context(), res); err != nil {
		t.Fatal(err)
	}
	if chats := s.Chats(); len(chats) != 1 || !strings.Contains(chats[0].Messages[1].Content, "`report`, a caller of changed code") {
		t.Errorf("after a cancelled review, %d requests; want one with the whole context", len(chats))
	}
}
