package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/llm/llmtest"
	"github.com/reviewls/reviewls/review/secret"
)

func newTestReviewer(t *testing.T, s *llmtest.Server, o Options) *Reviewer {
	t.Helper()
	o.Endpoint = s.URL
	if o.Model == "" {
		o.Model = "test-model"
	}
	switch {
	case o.Context == 0:
		o.Context = 8192
	case o.Context < 0:
		o.Context = 0 // discover it
	}
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func dispositions(l *Ledger) []string {
	var out []string
	for _, e := range l.Entries {
		out = append(out, strings.TrimSpace(e.ID+" "+string(e.Disposition)+" "+string(e.Reason)))
	}
	return out
}

// TestReviewHallucinations is the hallucination suite: a model answers
// with a candidate on a file outside the change, one on an unchanged line,
// one whose quote is not in the file, one repeating a rule finding, one a
// line off whose quote is on the next changed line, and a correct one.
// Each gets exactly its disposition, and only the correct and the
// relocated ones become findings.
func TestReviewHallucinations(t *testing.T) {
	for _, stream := range []bool{false, true} {
		s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Answer(
			llmtest.Finding{File: "app/ghost.go", Line: 5, Quote: "for i := 0; i <= len(xs); i++ {", Title: "unknown file"},
			llmtest.Finding{File: "app/calc.go", Line: 8, Quote: "return total", Title: "unchanged line"},
			llmtest.Finding{File: "app/calc.go", Line: 5, Quote: "for i := range xs {", Title: "invented quote"},
			llmtest.Finding{File: "app/calc.go", Line: 16, Quote: "return x * factor", Title: "factor undefined"},
			llmtest.Finding{File: "app/calc.go", Line: 15, Quote: "return x * factor", Perspective: "security", Severity: "critical", Title: "overflow"},
			llmtest.Finding{File: "app/calc.go", Line: 5, Quote: "for i := 0; i <= len(xs); i++ {", Title: "off by one"},
		))})
		r := newTestReviewer(t, s, Options{Stream: stream})
		l := r.Review(t.Context(), calcChange(), review.NewRedactor(nil))
		want := []string{"c1 refuted unknown-file", "c2 refuted unchanged-line", "c3 refuted quote-not-found",
			"c4 refuted duplicate", "c5 confirmed", "c6 confirmed"}
		if diff := cmp.Diff(want, dispositions(l)); diff != "" {
			t.Errorf("stream %v: dispositions (-want +got):\n%s", stream, diff)
		}
		if got := l.Entries[4].Relocated; got == nil || *got != (Relocation{From: 15, To: 16}) {
			t.Errorf("stream %v: c5 relocation %+v, want 15 -> 16", stream, got)
		}
		var titles []string
		for _, f := range l.Findings() {
			titles = append(titles, f.Title+" @"+f.Span.Lines())
		}
		if diff := cmp.Diff([]string{"overflow @16", "off by one @5"}, titles); diff != "" {
			t.Errorf("stream %v: findings (-want +got):\n%s", stream, diff)
		}
		wantCounts := Counts{Candidates: 6, Confirmed: 2, Relocated: 1,
			Refuted:    map[Reason]int{ReasonUnknownFile: 1, ReasonUnchangedLine: 1, ReasonQuoteNotFound: 1, ReasonDuplicate: 1},
			Unverified: map[Reason]int{}}
		if diff := cmp.Diff(wantCounts, l.Counts); diff != "" {
			t.Errorf("stream %v: counts (-want +got):\n%s", stream, diff)
		}
		if l.Usage != (Usage{100, 20}) || len(l.Requests) != 1 || !l.Requests[0].Answered || l.Requests[0].Candidates != 6 {
			t.Errorf("stream %v: usage %+v, requests %+v", stream, l.Usage, l.Requests)
		}
		wantSummary := "model review (test-model): 6 candidates, 2 confirmed (1 relocated), 4 refuted (duplicate 1, quote-not-found 1, unchanged-line 1, unknown-file 1); "
		if !strings.HasPrefix(l.Summary(), wantSummary) || !strings.HasSuffix(l.Summary(), ", 120 tokens") {
			t.Errorf("summary %q", l.Summary())
		}
	}
}

// canarySecrets holds one realistic secret of every format the detector
// knows, each in the code shape it is found in.
var canarySecrets = []struct{ kind, line, value string }{
	{"AWS access key ID", `awsKey := "AKIA5XRILAV5FVCYK43K"`, "AKIA5XRILAV5FVCYK43K"},
	{"GitHub token", `token := "ghp_WLm52mva5fiI6bGfKFI6mAezmOWfSLjl8MU9"`, "ghp_WLm52mva5fiI6bGfKFI6mAezmOWfSLjl8MU9"},
	{"GitHub fine-grained token", `pat := "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"`, "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"},
	{"Slack token", `slack := "xoxb-867539163168-585242400242-hMjaddCnYysNa9ZwsjEJri9f"`, "xoxb-867539163168-585242400242-hMjaddCnYysNa9ZwsjEJri9f"},
	{"Slack webhook URL", `hook := "https://hooks.slack.com/services/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"`, "https://hooks.slack.com/services/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"},
	{"Stripe live secret key", `stripe := "sk_live_VJsSheACjTJWYyL4ZkQTrXM4"`, "sk_live_VJsSheACjTJWYyL4ZkQTrXM4"},
	{"GitLab personal access token", `gitlab := "glpat-MFwg7drHilZO0fkXYo2a"`, "glpat-MFwg7drHilZO0fkXYo2a"},
	{"npm access token", `npm := "npm_mlEDLJIyflJEL8qIe8PbLL4BItHHIP6Ye4PK"`, "npm_mlEDLJIyflJEL8qIe8PbLL4BItHHIP6Ye4PK"},
	{"OpenAI API key", `openai := "sk-Zq8vN3xR7tK2mW9pT3BlbkFJLb5dVc1HqWe4Rt6Y"`, "sk-Zq8vN3xR7tK2mW9pT3BlbkFJLb5dVc1HqWe4Rt6Y"},
	{"OpenAI project key", `project := "sk-proj-Zq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6YuI8oP0aS2dF4gH6jK"`, "sk-proj-Zq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6YuI8oP0aS2dF4gH6jK"},
	{"Anthropic API key", `anthropic := "sk-ant-api03-Zq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6YuI8oP0aS2dF4gH6jK8lZ0xC2vB4nM6qW8eR0tY2uI4oP6aS8dF0gH2jK4lZ6xC8vB"`, "sk-ant-api03-Zq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6YuI8oP0aS2dF4gH6jK8lZ0xC2vB4nM6qW8eR0tY2uI4oP6aS8dF0gH2jK4lZ6xC8vB"},
	{"SendGrid API key", `sendgrid := "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"`, "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"},
	{"Twilio API key", `twilio := "SK3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e"`, "SK3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e"},
	{"Azure storage account key", `azure := "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=575yx8xm5MslfY5ubiheyEd7P4zDL/ak6J0kGODKdinZnLXicaBAg8WY1jzIRlNQb0prFmbh7+wy5yq1XoY1Ba=="`, "575yx8xm5MslfY5ubiheyEd7P4zDL/ak6J0kGODKdinZnLXicaBAg8WY1jzIRlNQb0prFmbh7+wy5yq1XoY1Ba=="},
	{"Google API key", `google := "AIzaSyD4rT7uI0oP3aS6dF9gH2jK5lZ8xC1vB4n"`, "AIzaSyD4rT7uI0oP3aS6dF9gH2jK5lZ8xC1vB4n"},
	{"PyPI API token", `pypi := "pypi-AgEIcHlwaS5vcmcCJDZxOHZOM3hSN3RLMm1XOXBMYjVkVmMxSHFXZTRSdDZZdUk4b1Aw"`, "pypi-AgEIcHlwaS5vcmcCJDZxOHZOM3hSN3RLMm1XOXBMYjVkVmMxSHFXZTRSdDZZdUk4b1Aw"},
	{"Shopify access token", `shopify := "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"`, "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"},
	{"DigitalOcean token", `do := "dop_v1_3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e"`, "dop_v1_3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e"},
	{"Databricks access token", `databricks := "dapi3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e"`, "dapi3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e"},
	{"HashiCorp Vault token", `vault := "hvs.CAESIZq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6YuI8oP0aS2dF4gH6jK8lZ0xC2vB4nM6qW8eR0tY2uI4oP6aS8dF0gH2jK4lZ6xC8vB4nM6qW8eR0t"`, "hvs.CAESIZq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6YuI8oP0aS2dF4gH6jK8lZ0xC2vB4nM6qW8eR0tY2uI4oP6aS8dF0gH2jK4lZ6xC8vB4nM6qW8eR0t"},
	{"Mailgun API key", `mailgun := "key-3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e"`, "key-3f9a1c7e5b2d8f4a6c0e9b7d5f3a1c8e"},
	{"JSON web token", `authToken := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhY21lLWFkbWluIn0.Zq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6Y"`, "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhY21lLWFkbWluIn0.Zq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6Y"},
	{"URL password", `dsn := "postgres://app:Vq7pL2mxR9KzW4@db.acme-corp.net:5432/app"`, "Vq7pL2mxR9KzW4"},
	{"secret-named key", `apiSecret := "f3Jk9QzL2mXw8RtV5nBc7HyD4pGs"`, "f3Jk9QzL2mXw8RtV5nBc7HyD4pGs"},
	{"password key", `password := "Vq7#pL2m!xR9Kz"`, "Vq7#pL2m!xR9Kz"},
	{"private key", `-----BEGIN RSA PRIVATE KEY-----
MIIEowIBAAKCAQEAzq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6YuI8oP0aS2dF4gH6j
-----END RSA PRIVATE KEY-----`, "MIIEowIBAAKCAQEAzq8vN3xR7tK2mW9pLb5dVc1HqWe4Rt6YuI8oP0aS2dF4gH6j"},
}

// TestReviewCanarySecrets plants a secret of every format the detector
// knows in every place a request quotes — added, removed and context
// lines, an enclosing function's body, a callee's and a caller's body and
// signature, a rule finding's title — and checks that no request body the
// server received holds any of them raw. It first checks that the
// detector finds each, so the test cannot pass by planting nothing.
func TestReviewCanarySecrets(t *testing.T) {
	for _, c := range canarySecrets {
		if got := secret.Values("keys.go", c.line); !slices.Contains(got, c.value) {
			t.Fatalf("the detector does not find the %s canary in %q (found %q)", c.kind, c.line, got)
		}
	}
	var lines []string
	for _, c := range canarySecrets {
		lines = append(lines, strings.Split(c.line, "\n")...)
	}
	marked := func(mark string, from, to int) string {
		var b strings.Builder
		for _, l := range lines[from:to] {
			b.WriteString(mark + "\t" + l + "\n")
		}
		return b.String()
	}
	all, half := len(lines), len(lines)/2
	base := marked("", 0, all)
	// Three files: the canaries added; removed before an added line; and
	// as context around one (the hunk keeps three lines each side, so
	// the lines further off go as the enclosing function's body).
	files := []*review.File{
		llmtest.File("keys/added.go", "package keys\n\nfunc Added() {\n"+marked("+", 0, all)+"}\n"),
		llmtest.File("keys/removed.go", "package keys\n\nfunc Removed() {\n"+marked("-", 0, all)+"+\tuse()\n}\n"),
		llmtest.File("keys/context.go", "package keys\n\nfunc Context() {\n"+marked(" ", 0, half)+"+\tuse()\n"+marked(" ", half, all)+"}\n"),
	}
	body := "func Helper() {\n" + base + "}\n"
	ctx := &Context{
		Enclosing: []Symbol{{Name: "Added", Relation: RelEnclosing, Path: "keys/added.go", Line: 3, EndLine: 200, Signature: "func Added()", Body: "func Added() {\n" + base + "}\n"}},
		Related: []Symbol{
			{Name: "Helper", Relation: RelCallee, Path: "keys/helper.go", Line: 10, Signature: "func Helper() // " + canarySecrets[0].value, Body: body},
			{Name: "Caller", Relation: RelCaller, Path: "cmd/main.go", Line: 3, Signature: "func Caller()", Body: body},
		},
	}
	var ruleFindings []*review.Finding
	for _, c := range canarySecrets {
		ruleFindings = append(ruleFindings, &review.Finding{RuleID: "functional/x", Perspective: review.Functional, Severity: review.SeverityLow,
			Title: "uses " + c.value, Span: review.Span{Path: "keys/added.go", StartLine: 4}})
	}
	ch := Change{Files: files, Findings: ruleFindings, Context: map[string]*Context{"keys/added.go": ctx, "keys/removed.go": ctx, "keys/context.go": ctx}}
	for _, o := range []Options{{Context: 32768}, {Context: 4096}, {Context: 32768, Stream: true}} {
		s := llmtest.New(t, llmtest.Config{RefuseSchema: o.Stream})
		o.Secrets = secret.Values
		r := newTestReviewer(t, s, o)
		l := r.Review(t.Context(), ch, review.NewRedactor(nil).WithDetector(secret.Find))
		if len(s.Chats()) == 0 || len(l.Requests) == 0 {
			t.Fatalf("context %d: no request was sent: %+v", o.Context, l.Entries)
		}
		for _, rec := range s.Received() {
			for _, c := range canarySecrets {
				if bytes.Contains(rec.Body, []byte(c.value)) || bytes.Contains(rec.Body, []byte(jsonEscaped(c.value))) {
					t.Errorf("context %d: the %s canary went out raw in %s %s", o.Context, c.kind, rec.Method, rec.Path)
				}
			}
		}
	}
}

// jsonEscaped is s as a JSON string holds it, without the quotes.
func jsonEscaped(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestReviewReplay records a run and replays it with no server at all:
// the replayed ledger is byte for byte the recorded one. A changed file's
// request, which the transcript lacks, goes to pending/ unverified; once
// answered there, the run repeats with it.
func TestReviewReplay(t *testing.T) {
	dir := t.TempDir()
	s := llmtest.New(t, llmtest.Config{Flavor: llmtest.LlamaCpp, Context: 6000, Handler: func(c *llmtest.Chat) llmtest.Reply {
		switch {
		case strings.Contains(c.Messages[1].Content, "## app/calc.go"):
			return llmtest.Answer(llmtest.Finding{File: "app/calc.go", Line: 5, Quote: "for i := 0; i <= len(xs); i++ {"},
				llmtest.Finding{File: "app/calc.go", Line: 8, Quote: "return total"})
		case strings.Contains(c.Messages[1].Content, "## app/other.go"):
			return llmtest.Reply{Content: `{"findings": [{"file": "app/other.go", "line": 1`, FinishReason: "length"} // cut short
		}
		return llmtest.Reply{Hang: true}
	}})
	ch := calcChange()
	ch.Files[2] = llmtest.File("app/other.go", strings.Repeat("+var x = 1\n", 400)) // its own request
	record := newTestReviewer(t, s, Options{Transcript: dir, Context: -1})
	recorded := record.Review(t.Context(), ch, review.NewRedactor(nil))
	if want := []string{"c1 confirmed", "c2 refuted unchanged-line", "u1 unverified unparseable"}; !slices.Equal(dispositions(recorded), want) {
		t.Fatalf("recorded run: %q, want %q", dispositions(recorded), want)
	}
	if recorded.Context != (ContextSize{6000, "llama.cpp /props"}) {
		t.Errorf("context %+v", recorded.Context)
	}
	// A replay, by a new reviewer (a new process), never reaches the
	// endpoint.
	sent := len(s.Received())
	replay := func() *Ledger {
		r, err := New(Options{Endpoint: s.URL, Model: "test-model", Transcript: dir, Replay: true})
		if err != nil {
			t.Fatal(err)
		}
		l := r.Review(t.Context(), ch, review.NewRedactor(nil))
		if n := len(s.Received()); n != sent {
			t.Errorf("the replay sent %d requests", n-sent)
		}
		return l
	}
	want, got := marshalLedger(t, recorded), marshalLedger(t, replay())
	if !bytes.Equal(want, got) {
		t.Errorf("the replayed ledger differs:\n%s", cmp.Diff(string(want), string(got)))
	}
	for _, r := range recorded.Requests {
		for _, ext := range []string{".request.json", ".response.json"} {
			if _, err := os.Stat(filepath.Join(dir, r.Key+ext)); err != nil {
				t.Error(err)
			}
		}
	}

	// A changed file: its request is new, the other one is replayed.
	ch.Files[0] = llmtest.File("app/calc.go", strings.Replace(calc, "\n\treturn total\n", "\n+\treturn total + 1\n", 1))
	l := replay()
	if got, want := dispositions(l), []string{"u1 unverified not-recorded", "u2 unverified unparseable"}; !slices.Equal(got, want) {
		t.Fatalf("after a change: %q, want %q", got, want)
	}
	key := l.Entries[0].Request
	pending, err := os.ReadFile(filepath.Join(dir, "pending", key+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(pending, []byte(`"## app/calc.go"`)) || !strings.Contains(l.Entries[0].Evidence, "pending/"+key+".json") {
		t.Errorf("pending request %s:\n%s\nevidence %q", key, pending, l.Entries[0].Evidence)
	}
	// Someone answers it offline.
	answer := `{"key": "` + key + `", "answer": {"findings": [{"file": "app/calc.go", "line": 8, "end_line": null, "quote": "return total + 1",
		"perspective": "functional", "severity": "medium", "title": "Off by one", "rationale": "One too many.", "suggested_fix": null, "confidence": "high"}]}}`
	if err := os.WriteFile(filepath.Join(dir, key+".response.json"), []byte(answer), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := dispositions(replay()); !slices.Equal(got, []string{"c1 confirmed", "u1 unverified unparseable"}) {
		t.Errorf("after the offline answer: %q", got)
	}
}

func marshalLedger(t *testing.T, l *Ledger) []byte {
	t.Helper()
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReviewCache checks that a second review of the same change asks
// nothing, and that after one file changes only its request is asked.
func TestReviewCache(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{})
	r := newTestReviewer(t, s, Options{})
	big := func(path, line string) *review.File { return llmtest.File(path, strings.Repeat("+"+line+"\n", 300)) }
	ch := Change{Files: []*review.File{big("a.go", "var a = 1"), big("b.go", "var b = 2")}}
	first := r.Review(t.Context(), ch, nil)
	if len(first.Requests) != 2 || len(s.Chats()) != 2 {
		t.Fatalf("first review: %d requests, %d sent", len(first.Requests), len(s.Chats()))
	}
	second := r.Review(t.Context(), ch, nil)
	if len(s.Chats()) != 2 || !second.Requests[0].Cached || !second.Requests[1].Cached || second.Usage != (Usage{}) {
		t.Errorf("second review sent %d requests, records %+v", len(s.Chats())-2, second.Requests)
	}
	ch.Files[1] = big("b.go", "var b = 3")
	third := r.Review(t.Context(), ch, nil)
	chats := s.Chats()
	if len(chats) != 3 || !third.Requests[0].Cached || third.Requests[1].Cached || !strings.Contains(chats[2].Messages[1].Content, "var b = 3") {
		t.Errorf("after b.go changed: %d requests sent, records %+v", len(chats), third.Requests)
	}
}

// TestReviewCached checks that a review from the cache sends nothing:
// before any request was built every file is unverified (not asked);
// after a review, an unchanged file's answer and findings come back, and
// a changed file's request is unverified, not sent.
func TestReviewCached(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Flavor: llmtest.LlamaCpp, Context: 8192, Handler: llmtest.Replies(llmtest.Answer(
		llmtest.Finding{File: "app/calc.go", Line: 5, Quote: "for i := 0; i <= len(xs); i++ {", Title: "off by one"}))})
	r := newTestReviewer(t, s, Options{Context: -1})
	cold := r.ReviewCached(t.Context(), calcChange(), nil)
	if got := dispositions(cold); !slices.Equal(got, []string{"u1 unverified not-asked", "u2 unverified not-asked"}) || len(s.Received()) != 0 {
		t.Errorf("cold: %q, %d requests received", got, len(s.Received()))
	}
	r.Review(t.Context(), calcChange(), nil)
	sent := len(s.Received())
	warm := r.ReviewCached(t.Context(), calcChange(), nil)
	if got := dispositions(warm); !slices.Equal(got, []string{"c1 confirmed"}) || len(warm.Findings()) != 1 || !warm.Requests[0].Cached {
		t.Errorf("warm: %q, %d findings, records %+v", got, len(warm.Findings()), warm.Requests)
	}
	changed := calcChange()
	changed.Files[2] = llmtest.File("app/other.go", "+package app\n+var other = 2\n")
	l := r.ReviewCached(t.Context(), changed, nil)
	if got := dispositions(l); !slices.Equal(got, []string{"u1 unverified not-asked"}) || len(s.Received()) != sent {
		t.Errorf("changed: %q, %d more requests received", got, len(s.Received())-sent)
	}
}

// TestReviewNeverInTheWay checks that a model that is down, hung or wrong
// gives unverified entries and no findings, and that Review returns.
func TestReviewNeverInTheWay(t *testing.T) {
	for _, tc := range []struct {
		name     string
		reply    llmtest.Reply
		stream   bool
		reason   Reason
		evidence string
	}{
		{"hung", llmtest.Reply{Hang: true}, false, ReasonTimeout, "no answer within 50ms"},
		{"hung while streaming", llmtest.Reply{Hang: true}, true, ReasonTimeout, "no answer within 50ms"},
		{"500", llmtest.Reply{Status: 500, Error: "boom"}, false, ReasonUnavailable, "status 500: boom"},
		{"invalid JSON", llmtest.Reply{Content: "Looks good to me!"}, false, ReasonUnparseable, "invalid character 'L'"},
		{"cut at max_tokens", llmtest.Reply{Content: `{"findings": [{"file": "app/calc.go", "li`, FinishReason: "length"}, false, ReasonUnparseable, "the answer was cut at max_tokens"},
		{"a stream cut short", llmtest.Reply{Content: `{"findings": [{"file": "app/calc.go", "line": 5}]}`, Cut: 2}, true, ReasonUnparseable, "ended without a finish reason"},
		{"over the context", llmtest.LlamaCppContextExceeded(5000, 4096), false, ReasonOverBudget, "exceeds the available context size"},
		{"over the context, in vLLM's words", llmtest.VLLMContextExceeded(5000, 4096), true, ReasonOverBudget, "maximum context length is 4096"},
	} {
		s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(tc.reply)})
		r := newTestReviewer(t, s, Options{Timeout: 50 * time.Millisecond, Stream: tc.stream})
		l := r.Review(t.Context(), calcChange(), nil)
		if got := dispositions(l); !slices.Equal(got, []string{"u1 unverified " + string(tc.reason)}) || len(l.Findings()) != 0 {
			t.Errorf("%s: %q, findings %d", tc.name, got, len(l.Findings()))
		}
		if e := l.Entries[0]; !slices.Equal(e.Files, []string{"app/calc.go", "app/other.go"}) || !strings.Contains(e.Evidence, tc.evidence) {
			t.Errorf("%s: entry %+v", tc.name, e)
		}
	}
}

// TestReviewOverBudget checks a line too long for any request: it is
// refused, unverified over budget, and the rest of the file still sent.
func TestReviewOverBudget(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{})
	r := newTestReviewer(t, s, Options{Context: 4096})
	f := llmtest.File("web/app.js", "+const a = 1;\n+const blob = \""+strings.Repeat("x", 20000)+"\";\n+const b = 2;\n")
	l := r.Review(t.Context(), Change{Files: []*review.File{f}}, nil)
	if got := dispositions(l); !slices.Equal(got, []string{"u1 unverified over-budget"}) {
		t.Fatalf("%q", got)
	}
	if ev := l.Entries[0].Evidence; !strings.Contains(ev, "web/app.js: line 2 alone over the request budget") {
		t.Errorf("evidence %q", ev)
	}
	chats := s.Chats()
	if len(chats) != 1 || !strings.Contains(chats[0].Messages[1].Content, "const b = 2;") || strings.Contains(chats[0].Messages[1].Content, "xxxxxxxx") {
		t.Errorf("%d requests; the rest of the file must go, the long line not", len(chats))
	}
}

// TestReviewCancel checks that cancelling a review ends it: the request
// in flight and the ones after it are unverified (cancelled).
func TestReviewCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	s := llmtest.New(t, llmtest.Config{Handler: func(*llmtest.Chat) llmtest.Reply { cancel(); return llmtest.Reply{Hang: true} }})
	r := newTestReviewer(t, s, Options{})
	big := func(path string) *review.File { return llmtest.File(path, strings.Repeat("+var x = 1\n", 300)) }
	l := r.Review(ctx, Change{Files: []*review.File{big("a.go"), big("b.go")}}, nil)
	if got := dispositions(l); !slices.Equal(got, []string{"u1 unverified cancelled", "u2 unverified cancelled"}) || len(s.Chats()) != 1 {
		t.Errorf("%q after %d requests", got, len(s.Chats()))
	}
}

// TestOptionsValidate checks the trust gate of the endpoint and the
// options' limits.
func TestOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		o   Options
		err string
	}{
		{Options{Endpoint: "http://127.0.0.1:8080/v1", Model: "m"}, ""},
		{Options{Endpoint: "https://api.example.com/v1", Model: "m", AllowRemote: true}, ""},
		{Options{Endpoint: "https://api.example.com/v1", Model: "m"}, "model endpoint api.example.com is not on this machine: set allow-remote: true to send code to it"},
		{Options{Endpoint: "http://127.0.0.1:8080/v1"}, "no model name"},
		{Options{Model: "m"}, "no endpoint"},
		{Options{Endpoint: "http://127.0.0.1:8080/v1", Model: "m", Exclude: []string{"a/[b"}}, `invalid exclude glob "a/[b"`},
		{Options{Endpoint: "http://127.0.0.1:8080/v1", Model: "m", Replay: true}, "replay needs a transcript folder"},
		{Options{Endpoint: "http://127.0.0.1:8080/v1", Model: "m", Timeout: -time.Second}, "timeout -1s is negative"},
	} {
		err := tc.o.Validate()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.err)
		}
	}
	r, err := New(Options{Endpoint: "https://api.example.com/v1", Model: "m", AllowRemote: true})
	if err != nil || r.Notice() != "model review: sending the change's code to api.example.com (model m)" {
		t.Errorf("notice %q, %v", r.Notice(), err)
	}
}

// TestReviewAPIKey checks that the key comes from the named variable and
// never shows in the ledger, even when the server echoes it.
func TestReviewAPIKey(t *testing.T) {
	key := "sk-local-Zq8vN3xR7tK2mW9pLb5d"
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Reply{Status: 401, Error: "invalid key " + key})})
	r := newTestReviewer(t, s, Options{APIKeyEnv: "REVIEWLS_TEST_KEY", Getenv: func(name string) string {
		if name == "REVIEWLS_TEST_KEY" {
			return key
		}
		return ""
	}})
	l := r.Review(t.Context(), calcChange(), nil)
	if got := s.Received()[0].Header.Get("Authorization"); got != "Bearer "+key {
		t.Errorf("authorization %q", got)
	}
	if b := marshalLedger(t, l); bytes.Contains(b, []byte(key)) || !bytes.Contains(b, []byte("invalid key sk-l")) {
		t.Errorf("ledger:\n%s", b)
	}
}

// TestReviewNothingToSend checks that a change with nothing to send asks
// the endpoint nothing at all, not even its context size.
func TestReviewNothingToSend(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Flavor: llmtest.LlamaCpp, Context: 8192})
	r := newTestReviewer(t, s, Options{Context: -1, Exclude: []string{"**/*.md"}})
	gen := llmtest.File("api/types.pb.go", "+package api\n")
	gen.Skip = review.SkipGenerated
	l := r.Review(t.Context(), Change{Files: []*review.File{gen, llmtest.File("README.md", "+# x\n")}}, nil)
	if n := len(s.Received()); n != 0 || len(l.Entries) != 0 || len(l.NotSent) != 2 {
		t.Errorf("%d requests sent; ledger %+v", n, l)
	}
}
