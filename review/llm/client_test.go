package llm

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review/llm/llmtest"
)

func testRequest() *Request {
	return &Request{Key: "k", Model: "test-model", Files: []string{"a.go"}, MaxTokens: 512,
		Messages: []Message{{Role: "system", Content: "SYSTEM"}, {Role: "user", Content: "USER"}}}
}

func newTestClient(t *testing.T, s *llmtest.Server, o ClientOptions) *Client {
	t.Helper()
	o.Endpoint = s.URL
	c, err := NewClient(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestClientSchemaMode checks the request on the wire: the model, the
// messages, max_tokens, temperature 0 (which the library alone would
// drop) and the answer schema as a strict json_schema response format;
// and the answer and its usage read back.
func TestClientSchemaMode(t *testing.T) {
	for _, stream := range []bool{false, true} {
		s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Answer(llmtest.Finding{File: "a.go", Line: 3, Quote: "x"}))})
		c := newTestClient(t, s, ClientOptions{APIKey: "sk-test-key", Stream: stream})
		resp := c.Complete(t.Context(), testRequest())
		if resp.Failure != nil {
			t.Fatalf("stream %v: %v", stream, resp.Failure)
		}
		if resp.Mode != ModeSchema || resp.FinishReason != "stop" || resp.Usage != (Usage{100, 20}) {
			t.Errorf("stream %v: mode %s, finish %q, usage %+v", stream, resp.Mode, resp.FinishReason, resp.Usage)
		}
		if want := llmtest.Answer(llmtest.Finding{File: "a.go", Line: 3, Quote: "x"}).Content; resp.Content != want {
			t.Errorf("stream %v: content %q, want %q", stream, resp.Content, want)
		}
		chats := s.Chats()
		if len(chats) != 1 {
			t.Fatalf("stream %v: %d chat requests", stream, len(chats))
		}
		ch := chats[0]
		if ch.Temperature == nil || *ch.Temperature != 0 {
			t.Errorf("stream %v: temperature %v, want 0", stream, ch.Temperature)
		}
		if ch.Model != "test-model" || ch.MaxTokens != 512 || ch.Stream != stream || len(ch.Messages) != 2 ||
			ch.Messages[0].Content != "SYSTEM" || ch.Messages[1].Content != "USER" {
			t.Errorf("stream %v: request %+v", stream, ch)
		}
		if ch.Format() != "json_schema" || !ch.ResponseFormat.JSONSchema.Strict || string(ch.ResponseFormat.JSONSchema.Schema) != string(compactSchema) {
			t.Errorf("stream %v: response format %+v", stream, ch.ResponseFormat)
		}
		if stream && (ch.StreamOptions == nil || !ch.StreamOptions.IncludeUsage) {
			t.Errorf("streaming without asking for usage")
		}
		if got := s.Received()[0].Header.Get("Authorization"); got != "Bearer sk-test-key" {
			t.Errorf("authorization %q", got)
		}
	}
}

// TestClientNoKey checks that no Authorization header goes out without a
// key.
func TestClientNoKey(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{})
	c := newTestClient(t, s, ClientOptions{})
	if resp := c.Complete(t.Context(), testRequest()); resp.Failure != nil {
		t.Fatal(resp.Failure)
	}
	if h := s.Received()[0].Header; h.Get("Authorization") != "" {
		t.Errorf("authorization %q sent without a key", h.Get("Authorization"))
	}
}

// TestClientJSONModeFallback checks that a server refusing json_schema is
// asked again in JSON mode with the schema in the system prompt, and that
// the client remembers it for the next request.
func TestClientJSONModeFallback(t *testing.T) {
	for _, stream := range []bool{false, true} {
		s := llmtest.New(t, llmtest.Config{RefuseSchema: true})
		c := newTestClient(t, s, ClientOptions{Stream: stream})
		for i := range 2 {
			resp := c.Complete(t.Context(), testRequest())
			if resp.Failure != nil || resp.Mode != ModeJSON || resp.Content != `{"findings": []}` {
				t.Fatalf("stream %v, request %d: %+v", stream, i, resp)
			}
		}
		var formats []string
		for _, ch := range s.Chats() {
			formats = append(formats, ch.Format())
			if ch.Format() == "json_object" && !strings.HasPrefix(ch.Messages[0].Content, "SYSTEM\n\nThe answer must be a JSON object valid against this JSON Schema:") {
				t.Errorf("JSON mode system prompt: %q", ch.Messages[0].Content)
			}
			if ch.Format() == "json_object" && !strings.Contains(ch.Messages[0].Content, `"perspective"`) {
				t.Errorf("JSON mode system prompt lacks the schema")
			}
		}
		if diff := cmp.Diff([]string{"json_schema", "json_object", "json_object"}, formats); diff != "" {
			t.Errorf("stream %v: formats (-want +got):\n%s", stream, diff)
		}
	}
}

// TestClientRetryAfter checks that a 429 is retried after the wait its
// Retry-After names (seconds or a date), a bounded number of times, and
// that a wait past the limit ends the request at once.
func TestClientRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	limited := func(after string) llmtest.Reply {
		return llmtest.Reply{Status: http.StatusTooManyRequests, Error: "slow down", ErrorType: "rate_limit_error", Header: map[string]string{"Retry-After": after}}
	}
	for _, tc := range []struct {
		name    string
		replies []llmtest.Reply
		waits   []time.Duration
		reason  Reason // "" for an answer
		chats   int
	}{
		{"seconds", []llmtest.Reply{limited("7"), {Content: `{"findings": []}`}}, []time.Duration{7 * time.Second}, "", 2},
		{"a date", []llmtest.Reply{limited(now.Add(3 * time.Second).Format(http.TimeFormat)), {Content: `{"findings": []}`}}, []time.Duration{3 * time.Second}, "", 2},
		{"no header", []llmtest.Reply{{Status: http.StatusTooManyRequests, Error: "slow down"}, {Status: http.StatusTooManyRequests, Error: "slow down"}, {Content: `{"findings": []}`}},
			[]time.Duration{time.Second, 2 * time.Second}, "", 3},
		{"past the retries", []llmtest.Reply{limited("1")}, []time.Duration{time.Second, time.Second}, ReasonRefused, 3},
		{"past the longest wait", []llmtest.Reply{limited("600")}, nil, ReasonRefused, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(tc.replies...)})
			c := newTestClient(t, s, ClientOptions{MaxRetries: 2})
			var waits []time.Duration
			c.wait = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
			c.now = func() time.Time { return now }
			resp := c.Complete(t.Context(), testRequest())
			if got := reasonOf(resp); got != tc.reason {
				t.Errorf("reason %q (%+v), want %q", got, resp.Failure, tc.reason)
			}
			if diff := cmp.Diff(tc.waits, waits); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			if n := len(s.Chats()); n != tc.chats {
				t.Errorf("%d chat requests, want %d", n, tc.chats)
			}
		})
	}
}

func reasonOf(r *Response) Reason {
	if r.Failure == nil {
		return ""
	}
	return r.Failure.Reason
}

// TestClientFailures checks that every way a server fails becomes a typed
// failure, streaming or not, and never an error.
func TestClientFailures(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reply  llmtest.Reply
		reason Reason
		msg    string // a part of the message
	}{
		{"500", llmtest.Reply{Status: http.StatusInternalServerError, Error: "model crashed"}, ReasonUnavailable, "status 500: model crashed"},
		{"503 without an envelope", llmtest.Reply{Status: http.StatusServiceUnavailable, Body: "loading model"}, ReasonUnavailable, "loading model"},
		{"401", llmtest.Reply{Status: http.StatusUnauthorized, Error: "bad key"}, ReasonRefused, "status 401"},
		{"a refusal", llmtest.Reply{Refusal: "I can't help with that."}, ReasonRefused, "the model refused"},
		{"llama.cpp context exceeded", llmtest.LlamaCppContextExceeded(9000, 4096), ReasonOverBudget, "exceeds the available context size"},
		{"vLLM context exceeded", llmtest.VLLMContextExceeded(9000, 4096), ReasonOverBudget, "maximum context length is 4096 tokens"},
		{"an envelope that is not JSON", llmtest.Reply{Body: `{"choices": [{"message": `}, ReasonUnparseable, "not a chat completion"},
	} {
		for _, stream := range []bool{false, true} {
			if tc.name == "an envelope that is not JSON" && stream {
				continue // a stream has no envelope; its cut is TestClientCutStream
			}
			s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(tc.reply)})
			c := newTestClient(t, s, ClientOptions{Stream: stream})
			resp := c.Complete(t.Context(), testRequest())
			if reasonOf(resp) != tc.reason || !strings.Contains(resp.Failure.Message, tc.msg) || resp.Content != "" {
				t.Errorf("%s (stream %v): %+v %+v, want %s holding %q", tc.name, stream, resp, resp.Failure, tc.reason, tc.msg)
			}
		}
	}
}

// TestClientCutStream checks that a stream cut before its end gives the
// content so far and no finish reason, which the reviewer reports as
// unparseable.
func TestClientCutStream(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Reply{Content: `{"findings": [{"file": "a.go"}]}`, Cut: 2})})
	c := newTestClient(t, s, ClientOptions{Stream: true})
	resp := c.Complete(t.Context(), testRequest())
	if resp.Failure != nil || resp.FinishReason != "" || resp.Content == "" || json.Valid([]byte(resp.Content)) {
		t.Errorf("cut stream: %+v", resp)
	}
}

// TestClientHung checks that a server that never answers ends the request
// at the timeout, streaming or not.
func TestClientHung(t *testing.T) {
	for _, stream := range []bool{false, true} {
		s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Reply{Hang: true})})
		c := newTestClient(t, s, ClientOptions{Stream: stream, Timeout: 50 * time.Millisecond})
		if resp := c.Complete(t.Context(), testRequest()); reasonOf(resp) != ReasonTimeout {
			t.Errorf("stream %v: %+v, want a timeout", stream, resp.Failure)
		}
	}
}

// TestClientCancel checks that cancelling the context ends a request that
// is waiting for the server, as cancelled.
func TestClientCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	s := llmtest.New(t, llmtest.Config{Handler: func(*llmtest.Chat) llmtest.Reply {
		cancel() // the next change arrives while the model thinks
		return llmtest.Reply{Hang: true}
	}})
	c := newTestClient(t, s, ClientOptions{})
	if resp := c.Complete(ctx, testRequest()); reasonOf(resp) != ReasonCancelled {
		t.Errorf("%+v, want cancelled", resp.Failure)
	}
}

// TestClientUnreachable checks a server that is not there.
func TestClientUnreachable(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{})
	url := s.URL
	c, err := NewClient(ClientOptions{Endpoint: strings.Replace(url, s.Root, "http://127.0.0.1:1", 1)})
	if err != nil {
		t.Fatal(err)
	}
	if resp := c.Complete(t.Context(), testRequest()); reasonOf(resp) != ReasonUnavailable {
		t.Errorf("%+v, want unavailable", resp.Failure)
	}
}

// TestContextSize checks the discovery of the context size from each
// server's own endpoint, and the default when none answers.
func TestContextSize(t *testing.T) {
	for _, tc := range []struct {
		flavor llmtest.Flavor
		want   int
		source string
	}{
		{llmtest.LlamaCpp, 8192, "llama.cpp /props"},
		{llmtest.VLLM, 32768, "vLLM /v1/models"},
		{llmtest.LMStudio, 16384, "LM Studio /api/v0/models"},
		{llmtest.Ollama, 12288, "Ollama /api/show"},
		{llmtest.None, DefaultContext, "default"},
	} {
		s := llmtest.New(t, llmtest.Config{Flavor: tc.flavor, Context: tc.want})
		c := newTestClient(t, s, ClientOptions{APIKey: "k"})
		n, src := c.ContextSize(t.Context(), "test-model")
		if n != tc.want || src != tc.source {
			t.Errorf("%q: %d from %q, want %d from %q", tc.flavor, n, src, tc.want, tc.source)
		}
		for _, r := range s.Received() {
			if r.Header.Get("Authorization") != "Bearer k" {
				t.Errorf("%q: %s %s without the key", tc.flavor, r.Method, r.Path)
			}
		}
	}
}

func TestParseEndpoint(t *testing.T) {
	for _, tc := range []struct {
		url      string
		host     string
		loopback bool
		err      string
	}{
		{"http://127.0.0.1:8080/v1", "127.0.0.1:8080", true, ""},
		{"http://localhost:11434/v1", "localhost:11434", true, ""},
		{"http://[::1]:1234/v1", "[::1]:1234", true, ""},
		{"http://127.3.4.5/v1", "127.3.4.5", true, ""},
		{"https://api.openai.com/v1", "api.openai.com", false, ""},
		{"http://192.168.1.20:8000/v1", "192.168.1.20:8000", false, ""},
		{"http://localhost.example.com/v1", "localhost.example.com", false, ""},
		{"ftp://127.0.0.1/v1", "", false, `scheme "ftp" is not http or https`},
		{"/v1", "", false, "is not http or https"},
		{"http:///v1", "", false, "has no host"},
		{"http://user:pw@127.0.0.1/v1", "", false, "carries credentials"},
		{"http://user:pw@[::1/v1", "", false, "parse model endpoint: missing ']' in host"},
	} {
		ep, err := ParseEndpoint(tc.url)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.url, err, tc.err)
			}
			if err != nil && strings.Contains(err.Error(), "pw") {
				t.Errorf("%s: the error shows the password: %v", tc.url, err)
			}
			continue
		}
		if err != nil || ep.Host != tc.host || ep.Loopback != tc.loopback {
			t.Errorf("%s: %+v %v, want host %s loopback %v", tc.url, ep, err, tc.host, tc.loopback)
		}
		if notice := ep.Notice("m"); (notice == "") != tc.loopback || !tc.loopback && !strings.Contains(notice, tc.host) {
			t.Errorf("%s: notice %q", tc.url, notice)
		}
	}
}
