// Package llmtest is a test OpenAI-compatible server for the model
// reviewer: a real HTTP server on loopback (httptest) that speaks the
// chat-completions protocol, streaming and not, and the context-size
// endpoints of llama.cpp, Ollama, vLLM and LM Studio. A test scripts its
// answers per request (an answer, 429 with Retry-After, 500, a hang,
// truncated or invalid JSON, a context-length error in llama.cpp's or
// vLLM's words, a refused json_schema) and reads back every request body
// it received. Start one with [New] ([Start] outside a test) and point the
// code, or a binary, at [Server.URL].
//
// It also builds changed files from annotated text ([File]), so a test
// needs no git repository for a change.
package llmtest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Flavor is the server whose context-size endpoint the test server
// imitates.
type Flavor string

// The flavours. None answers no discovery endpoint.
const (
	None     Flavor = ""
	LlamaCpp Flavor = "llama.cpp" // GET /props
	Ollama   Flavor = "ollama"    // POST /api/show
	VLLM     Flavor = "vllm"      // GET /v1/models with max_model_len
	LMStudio Flavor = "lmstudio"  // GET /api/v0/models
)

// Config configures a [Server].
type Config struct {
	// Flavor and Context: the discovery endpoint the server answers and
	// the context size it reports.
	Flavor  Flavor
	Context int
	// Model is the model id the listings report; "test-model" when
	// empty.
	Model string
	// RefuseSchema answers 400 to a request whose response_format is
	// json_schema, as a server without structured output does.
	RefuseSchema bool
	// Handler answers chat completions; nil answers no findings.
	Handler Handler
	// Notify, when set, is told each chat request's number as it is
	// received, answered, or ended by the client before its answer
	// ("received", "answered", "cancelled"): a test waits on it.
	Notify func(n int, event string)
}

// Handler answers one chat-completions request.
type Handler func(c *Chat) Reply

// Chat is a chat-completions request as the server received it.
type Chat struct {
	// N is the request's number among the server's chat requests, from 1.
	N        int
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	Stream      bool     `json:"stream"`
	Temperature *float64 `json:"temperature"`
	MaxTokens   int      `json:"max_tokens"`
	// ResponseFormat is the requested format: its type, and the schema
	// in json_schema mode.
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
			Strict bool            `json:"strict"`
		} `json:"json_schema"`
	} `json:"response_format"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// Format returns the requested response format type ("" for none).
func (c *Chat) Format() string {
	if c.ResponseFormat == nil {
		return ""
	}
	return c.ResponseFormat.Type
}

// Reply is the server's answer to one chat request.
type Reply struct {
	// Content is the assistant message.
	Content string
	// FinishReason is "stop" when empty.
	FinishReason string
	// PromptTokens and CompletionTokens are the usage reported.
	PromptTokens, CompletionTokens int
	// Refusal is a refusal message instead of content.
	Refusal string
	// Status, when not 0 or 200, makes the reply an error: Body if set,
	// else the OpenAI error envelope with Error and ErrorType.
	Status    int
	Error     string
	ErrorType string
	// Header is set on the response (Retry-After, ...).
	Header map[string]string
	// Body, when set, is written as the whole body with Status (200 when
	// 0), instead of a completion: invalid JSON, say.
	Body string
	// Hang makes the server never answer: it waits until the client gives
	// up or the test ends.
	Hang bool
	// Delay makes the server wait this long before it answers, as a model
	// thinking does, unless the client gives up first.
	Delay time.Duration
	// Cut ends a streamed answer after this many content chunks, without
	// a finish reason or [DONE]; 0 streams it whole.
	Cut int
}

// Received is one HTTP request the server received.
type Received struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// Server is the test server. It is safe for concurrent use.
type Server struct {
	// URL is the base URL of the API, ending in /v1: what an endpoint
	// option takes.
	URL string
	// Root is the server's root URL, where the discovery endpoints of
	// llama.cpp, Ollama and LM Studio live.
	Root string

	cfg       Config
	srv       *httptest.Server
	done      chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex // guards received and chats
	received []Received
	chats    int
}

// New starts a server for the test; it stops when the test ends, ending
// any hung request.
func New(t testing.TB, cfg Config) *Server {
	t.Helper()
	s := Start(cfg)
	t.Cleanup(s.Close)
	return s
}

// Start starts a server outside a test (a command serving the scripted
// answers to a real client); Close stops it.
func Start(cfg Config) *Server {
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	s := &Server{cfg: cfg, done: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.Root = s.srv.URL
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server, ending any hung request. A second Close does
// nothing.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.srv.Close()
	})
}

// notify tells Config.Notify about chat request n.
func (s *Server) notify(n int, event string) {
	if s.cfg.Notify != nil {
		s.cfg.Notify(n, event)
	}
}

// Received returns every request the server received, in order.
func (s *Server) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Chats returns the chat-completions requests received, decoded.
func (s *Server) Chats() []*Chat {
	var out []*Chat
	n := 0
	for _, r := range s.Received() {
		if r.Path != "/v1/chat/completions" {
			continue
		}
		n++
		c := &Chat{N: n}
		if json.Unmarshal(r.Body, c) == nil {
			out = append(out, c)
		}
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.received = append(s.received, Received{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()
	switch {
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		s.chat(w, r, body)
	case r.URL.Path == "/props" && s.cfg.Flavor == LlamaCpp:
		writeJSON(w, http.StatusOK, map[string]any{"default_generation_settings": map[string]any{"n_ctx": s.cfg.Context}, "total_slots": 1})
	case r.URL.Path == "/api/show" && s.cfg.Flavor == Ollama && r.Method == http.MethodPost:
		writeJSON(w, http.StatusOK, map[string]any{
			"parameters": fmt.Sprintf("num_ctx                        %d\nstop                           \"<|im_end|>\"", s.cfg.Context),
			"model_info": map[string]any{"general.architecture": "qwen2", "qwen2.context_length": 32768},
		})
	case r.URL.Path == "/v1/models":
		m := map[string]any{"id": s.cfg.Model, "object": "model", "owned_by": "llmtest"}
		if s.cfg.Flavor == VLLM {
			m["max_model_len"] = s.cfg.Context
		}
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{m}})
	case r.URL.Path == "/api/v0/models" && s.cfg.Flavor == LMStudio:
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{map[string]any{
			"id": s.cfg.Model, "object": "model", "type": "llm", "state": "loaded",
			"max_context_length": 4 * s.cfg.Context, "loaded_context_length": s.cfg.Context,
		}}})
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"message": "not found: " + r.URL.Path, "type": "not_found_error"}})
	}
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request, body []byte) {
	s.mu.Lock()
	s.chats++
	n := s.chats
	s.mu.Unlock()
	s.notify(n, "received")
	c := &Chat{N: n}
	if err := json.Unmarshal(body, c); err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody("invalid JSON body: "+err.Error(), "invalid_request_error"))
		return
	}
	if s.cfg.RefuseSchema && c.Format() == "json_schema" {
		writeJSON(w, http.StatusBadRequest, errorBody("response_format type json_schema is not supported by this server", "invalid_request_error"))
		return
	}
	reply := Reply{Content: `{"findings": []}`}
	if s.cfg.Handler != nil {
		reply = s.cfg.Handler(c)
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	if reply.Delay > 0 {
		t := time.NewTimer(reply.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			s.notify(n, "cancelled")
			return
		case <-s.done:
			return
		}
	}
	switch {
	case reply.Hang:
		select {
		case <-r.Context().Done():
			s.notify(n, "cancelled")
		case <-s.done:
		}
		return
	}
	defer s.notify(n, "answered")
	switch {
	case reply.Body != "":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(cmp.Or(reply.Status, http.StatusOK))
		_, _ = w.Write([]byte(reply.Body))
		return
	case reply.Status != 0 && reply.Status != http.StatusOK:
		writeJSON(w, reply.Status, errorBody(reply.Error, reply.ErrorType))
		return
	case c.Stream:
		s.stream(w, c, reply)
		return
	}
	msg := map[string]any{"role": "assistant", "content": reply.Content}
	if reply.Refusal != "" {
		msg = map[string]any{"role": "assistant", "content": nil, "refusal": reply.Refusal}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": 1, "model": c.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": cmp.Or(reply.FinishReason, "stop")}},
		"usage":   usage(reply),
	})
}

// stream writes the reply as server-sent events: the content in three
// chunks, a finish reason, the usage when asked for, and [DONE].
func (s *Server) stream(w http.ResponseWriter, c *Chat, reply Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	event := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": fmt.Sprintf("chatcmpl-%d", c.N), "object": "chat.completion.chunk", "created": 1, "model": c.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	event(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	if reply.Refusal != "" {
		event(chunk(map[string]any{"refusal": reply.Refusal}, nil))
	}
	for i, part := range split3(reply.Content) {
		if reply.Cut > 0 && i >= reply.Cut {
			return // the connection ends mid-answer
		}
		event(chunk(map[string]any{"content": part}, nil))
	}
	event(chunk(map[string]any{}, cmp.Or(reply.FinishReason, "stop")))
	if c.StreamOptions != nil && c.StreamOptions.IncludeUsage {
		event(map[string]any{"id": fmt.Sprintf("chatcmpl-%d", c.N), "object": "chat.completion.chunk", "created": 1, "model": c.Model,
			"choices": []any{}, "usage": usage(reply)})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// split3 cuts s into three pieces at byte boundaries of runes.
func split3(s string) []string {
	r := []rune(s)
	a, b := len(r)/3, 2*len(r)/3
	return []string{string(r[:a]), string(r[a:b]), string(r[b:])}
}

func usage(r Reply) map[string]any {
	return map[string]any{"prompt_tokens": r.PromptTokens, "completion_tokens": r.CompletionTokens, "total_tokens": r.PromptTokens + r.CompletionTokens}
}

func errorBody(msg, typ string) map[string]any {
	return map[string]any{"error": map[string]any{"message": msg, "type": cmp.Or(typ, "server_error")}}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Replies answers the nth chat request with the nth reply, and every
// later one with the last.
func Replies(rs ...Reply) Handler {
	return func(c *Chat) Reply {
		if len(rs) == 0 {
			return Reply{Content: `{"findings": []}`}
		}
		return rs[min(c.N, len(rs))-1]
	}
}

// Finding is a candidate a test server proposes, as the answer schema
// spells it. Zero optional fields are sent as null.
type Finding struct {
	File         string
	Line         int
	EndLine      int
	Quote        string
	Perspective  string
	Severity     string
	Title        string
	Rationale    string
	SuggestedFix string
	Confidence   string
}

// Answer is a reply whose content is an answer holding fs; empty
// perspective, severity, title, rationale and confidence get plausible
// values.
func Answer(fs ...Finding) Reply {
	items := make([]map[string]any, 0, len(fs))
	for _, f := range fs {
		m := map[string]any{
			"file": f.File, "line": f.Line, "end_line": nil, "quote": f.Quote,
			"perspective": cmp.Or(f.Perspective, "functional"), "severity": cmp.Or(f.Severity, "high"),
			"title": cmp.Or(f.Title, "Defect"), "rationale": cmp.Or(f.Rationale, "It is wrong."),
			"suggested_fix": nil, "confidence": cmp.Or(f.Confidence, "high"),
		}
		if f.EndLine != 0 {
			m["end_line"] = f.EndLine
		}
		if f.SuggestedFix != "" {
			m["suggested_fix"] = f.SuggestedFix
		}
		items = append(items, m)
	}
	b, _ := json.Marshal(map[string]any{"findings": items})
	return Reply{Content: string(b), PromptTokens: 100, CompletionTokens: 20}
}

// LlamaCppContextExceeded is llama-server's answer to a prompt over its
// context.
func LlamaCppContextExceeded(prompt, ctx int) Reply {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": 400,
		"message": "the request exceeds the available context size, try increasing it",
		"type":    "exceed_context_size_error", "n_prompt_tokens": prompt, "n_ctx": ctx}})
	return Reply{Status: http.StatusBadRequest, Body: string(b)}
}

// VLLMContextExceeded is vLLM's answer to a prompt over the model's
// context: a top-level error object, not OpenAI's envelope.
func VLLMContextExceeded(prompt, ctx int) Reply {
	b, _ := json.Marshal(map[string]any{"object": "error",
		"message": fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, 1024 in the completion). Please reduce the length of the messages or completion.", ctx, prompt+1024, prompt),
		"type":    "BadRequestError", "param": nil, "code": 400})
	return Reply{Status: http.StatusBadRequest, Body: string(b)}
}
