package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Mode is how a request asks for structured output.
type Mode string

// The structured-output modes, in the order the client tries them.
const (
	// ModeSchema sends the answer schema as response_format json_schema:
	// servers that constrain decoding to it (llama.cpp, vLLM, LM Studio,
	// Ollama, OpenAI) can only answer in shape.
	ModeSchema Mode = "json_schema"
	// ModeJSON sends response_format json_object and the schema inside
	// the system prompt, for servers that refuse json_schema.
	ModeJSON Mode = "json_object"
)

// Usage is the tokens a request used, as the server counted them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Total returns the tokens of the prompt and the answer together.
func (u Usage) Total() int { return u.PromptTokens + u.CompletionTokens }

func (u *Usage) add(o Usage) {
	u.PromptTokens += o.PromptTokens
	u.CompletionTokens += o.CompletionTokens
}

// Failure is why no usable answer came for a request.
type Failure struct {
	Reason  Reason `json:"reason"`
	Message string `json:"message"`
}

func (f *Failure) Error() string { return string(f.Reason) + ": " + f.Message }

// Response is the endpoint's answer to one request, or why none came.
type Response struct {
	// Content is the assistant message, as the server sent it.
	Content      string
	Mode         Mode
	FinishReason string
	Usage        Usage
	Elapsed      time.Duration
	// Failure is set when no answer came; Content is then empty.
	Failure *Failure
}

// ClientOptions configure a [Client].
type ClientOptions struct {
	// Endpoint is the base URL of the OpenAI-compatible API, the one its
	// chat/completions path hangs off ("http://127.0.0.1:8080/v1").
	Endpoint string
	// APIKey is sent as a bearer token when not empty.
	APIKey string
	// Timeout bounds one request, retries and their waits included.
	Timeout time.Duration
	// Stream asks for the answer as server-sent events.
	Stream bool
	// MaxRetries is how often a rate-limited (429) request is retried.
	MaxRetries int
	// MaxRetryWait is the longest Retry-After honoured; a longer one ends
	// the request as refused at once.
	MaxRetryWait time.Duration
	// HTTPClient sends the requests; nil means a client of its own.
	HTTPClient *http.Client
}

// Defaults of [ClientOptions] and [Options].
const (
	// DefaultTimeout: a local model on a laptop CPU takes tens of seconds
	// for a few thousand tokens of prompt; two minutes covers that and
	// still ends a hung server's request well before a user gives up on
	// the second wave.
	DefaultTimeout = 2 * time.Minute
	// DefaultMaxRetries: two retries ride out a short burst of rate
	// limiting without stretching a review.
	DefaultMaxRetries = 2
	// DefaultMaxRetryWait: a server that asks for a longer pause is busy
	// for longer than a review should wait.
	DefaultMaxRetryWait = 30 * time.Second
	// retryBackoff is the wait before a retry when a 429 names none.
	retryBackoff = time.Second
	// discoveryTimeout bounds each context-size probe: they are small
	// GETs that a live server answers at once.
	discoveryTimeout = 10 * time.Second
)

// Client is a thin client of an OpenAI-compatible chat-completions
// endpoint, over github.com/sashabaranov/go-openai: timeouts, retry on 429
// honouring Retry-After, cancellation by context, streaming or not, the
// answer schema as json_schema with a fallback to JSON mode that it
// remembers, token usage, and the discovery of the model's context size.
// It is safe for concurrent use.
type Client struct {
	o ClientOptions
	// jsonMode is set once the endpoint refused json_schema.
	jsonMode atomic.Bool
	// wait pauses before a retry; tests replace it.
	wait func(ctx context.Context, d time.Duration) error
	// now is the clock Retry-After dates are read against.
	now func() time.Time
}

// NewClient returns a client for o. It sends nothing.
func NewClient(o ClientOptions) (*Client, error) {
	if _, err := ParseEndpoint(o.Endpoint); err != nil {
		return nil, err
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRetryWait <= 0 {
		o.MaxRetryWait = DefaultMaxRetryWait
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	o.Endpoint = strings.TrimSuffix(o.Endpoint, "/")
	return &Client{o: o, wait: sleep, now: time.Now}, nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Mode returns the structured-output mode the next request uses.
func (c *Client) Mode() Mode {
	if c.jsonMode.Load() {
		return ModeJSON
	}
	return ModeSchema
}

// Complete sends r and returns the answer. It never returns an error:
// every failure is a [Response] whose Failure says why (timeout,
// unavailable, refused, over budget, cancelled).
func (c *Client) Complete(ctx context.Context, r *Request) *Response {
	start := time.Now()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	resp := c.complete(ctx, r)
	resp.Elapsed = time.Since(start)
	if resp.Failure != nil {
		resp.Content = ""
		switch {
		case parent.Err() != nil:
			resp.Failure = &Failure{Reason: ReasonCancelled, Message: "the review was cancelled"}
		case ctx.Err() != nil:
			resp.Failure = &Failure{Reason: ReasonTimeout, Message: fmt.Sprintf("no answer within %s", c.o.Timeout)}
		}
	}
	return resp
}

func (c *Client) complete(ctx context.Context, r *Request) *Response {
	retries := 0
	for {
		mode := c.Mode()
		resp, header, err := c.once(ctx, r, mode)
		if err == nil {
			return resp
		}
		status, msg := statusOf(err)
		switch {
		case ctx.Err() != nil:
			return failed(ReasonTimeout, msg)
		case status == http.StatusTooManyRequests && retries < c.o.MaxRetries:
			d, named := c.retryAfter(header)
			if d > c.o.MaxRetryWait {
				return failed(ReasonRefused, fmt.Sprintf("rate limited: the endpoint asks to retry after %s, more than the %s the client waits", d, c.o.MaxRetryWait))
			}
			if !named {
				d = retryBackoff << retries
			}
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
				return failed(ReasonTimeout, fmt.Sprintf("rate limited, and the retry after %s would pass the request's timeout", d))
			}
			retries++
			if err := c.wait(ctx, d); err != nil {
				return failed(ReasonTimeout, msg)
			}
		case status == http.StatusTooManyRequests:
			return failed(ReasonRefused, fmt.Sprintf("rate limited after %d retries: %s", retries, msg))
		case contextExceeded(msg):
			return failed(ReasonOverBudget, msg)
		case mode == ModeSchema && refusesSchema(status, msg):
			// Remember it for the endpoint, and ask again in JSON mode.
			c.jsonMode.Store(true)
		case status == 0 && notJSON(err):
			return failed(ReasonUnparseable, "the server's answer is not a chat completion: "+msg)
		case status >= 500:
			return failed(ReasonUnavailable, fmt.Sprintf("status %d: %s", status, msg))
		case status >= 400:
			return failed(ReasonRefused, fmt.Sprintf("status %d: %s", status, msg))
		default:
			return failed(ReasonUnavailable, msg)
		}
	}
}

func failed(reason Reason, msg string) *Response {
	return &Response{Failure: &Failure{Reason: reason, Message: msg}}
}

// once sends r once in mode. It returns the headers of the last HTTP
// response, for Retry-After.
func (c *Client) once(ctx context.Context, r *Request, mode Mode) (*Response, http.Header, error) {
	t := &transport{hc: c.o.HTTPClient}
	cfg := openai.DefaultConfig(c.o.APIKey)
	cfg.BaseURL = c.o.Endpoint
	cfg.HTTPClient = t
	oc := openai.NewClientWithConfig(cfg)
	req := wireRequest(r, mode)
	resp := &Response{Mode: mode}
	if !c.o.Stream {
		out, err := oc.CreateChatCompletion(ctx, req)
		if err != nil {
			return nil, t.lastHeader(), err
		}
		resp.Usage = Usage{PromptTokens: out.Usage.PromptTokens, CompletionTokens: out.Usage.CompletionTokens}
		if len(out.Choices) == 0 {
			resp.Failure = &Failure{Reason: ReasonUnparseable, Message: "the answer has no choices"}
			return resp, nil, nil
		}
		ch := out.Choices[0]
		if ch.Message.Refusal != "" {
			resp.Failure = &Failure{Reason: ReasonRefused, Message: "the model refused: " + ch.Message.Refusal}
			return resp, nil, nil
		}
		resp.Content, resp.FinishReason = ch.Message.Content, string(ch.FinishReason)
		return resp, nil, nil
	}
	req.Stream = true
	req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	stream, err := oc.CreateChatCompletionStream(ctx, req)
	if err != nil {
		return nil, t.lastHeader(), err
	}
	defer stream.Close()
	var content, refusal strings.Builder
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if chunk.Usage != nil {
			resp.Usage = Usage{PromptTokens: chunk.Usage.PromptTokens, CompletionTokens: chunk.Usage.CompletionTokens}
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			content.WriteString(ch.Delta.Content)
			refusal.WriteString(ch.Delta.Refusal)
			if ch.FinishReason != "" {
				resp.FinishReason = string(ch.FinishReason)
			}
		}
	}
	if refusal.Len() > 0 {
		resp.Failure = &Failure{Reason: ReasonRefused, Message: "the model refused: " + refusal.String()}
		return resp, nil, nil
	}
	resp.Content = content.String()
	return resp, nil, nil
}

// wireRequest is the library's request for r in mode. Temperature 0 is
// added on the wire by the transport (see [transport.Do]).
func wireRequest(r *Request, mode Mode) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{Model: r.Model, MaxTokens: r.MaxTokens}
	for _, m := range r.Messages {
		content := m.Content
		if mode == ModeJSON && m.Role == "system" {
			content += jsonModePrompt
		}
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: content})
	}
	switch mode {
	case ModeSchema:
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name:   "review_findings",
				Schema: compactSchema,
				Strict: true,
			},
		}
	case ModeJSON:
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	return req
}

// transport is the library's HTTP client for one call. It keeps the
// headers of the last response, which the library's errors drop (Retry-After),
// and puts "temperature": 0 into a chat-completions body: the library
// omits a zero temperature (omitempty, sashabaranov/go-openai#9), and a
// server's default (0.8 in llama.cpp, 1 in OpenAI) would make answers vary
// from run to run.
type transport struct {
	hc     *http.Client
	mu     sync.Mutex
	header http.Header
}

// Do implements openai.HTTPDoer.
func (t *transport) Do(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/chat/completions") && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if bytes.HasPrefix(body, []byte("{")) {
			body = append([]byte(`{"temperature":0,`), body[1:]...)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.hc.Do(req)
	if resp != nil {
		t.mu.Lock()
		t.header = resp.Header.Clone()
		t.mu.Unlock()
	}
	return resp, err
}

func (t *transport) lastHeader() http.Header {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.header
}

// retryAfter reads Retry-After (seconds or an HTTP date) and the
// retry-after-ms some servers send; named reports whether one was there.
func (c *Client) retryAfter(h http.Header) (d time.Duration, named bool) {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms >= 0 {
		return time.Duration(ms * float64(time.Millisecond)), true
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(c.now()), 0), true
	}
	return 0, false
}

// statusOf returns the HTTP status of a library error (0 when none) and
// its message.
func statusOf(err error) (int, string) {
	var api *openai.APIError
	if errors.As(err, &api) {
		return api.HTTPStatusCode, api.Message
	}
	var re *openai.RequestError
	if errors.As(err, &re) {
		msg := strings.TrimSpace(string(re.Body))
		if msg == "" && re.Err != nil {
			msg = re.Err.Error()
		}
		if msg == "" {
			msg = re.HTTPStatus
		}
		return re.HTTPStatusCode, msg
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return 0, ue.Err.Error()
	}
	return 0, err.Error()
}

// notJSON reports an error decoding the server's answer.
func notJSON(err error) bool {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.As(err, &syn) || errors.As(err, &typ) || errors.Is(err, io.ErrUnexpectedEOF)
}

// contextExceeded reports an error saying the prompt is over the model's
// context, in the words of llama.cpp ("the request exceeds the available
// context size"), vLLM and OpenAI ("maximum context length is N tokens"),
// Ollama and LM Studio.
func contextExceeded(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{"exceeds the available context size", "maximum context length", "context length exceeded",
		"context_length_exceeded", "exceed_context_size", "context window", "prompt is too long", "too many tokens"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// refusesSchema reports an error saying the server does not take a
// json_schema response format.
func refusesSchema(status int, msg string) bool {
	if status != http.StatusBadRequest && status != http.StatusUnprocessableEntity && status != http.StatusNotImplemented {
		return false
	}
	m := strings.ToLower(msg)
	return strings.Contains(m, "response_format") || strings.Contains(m, "json_schema") || strings.Contains(m, "schema") || strings.Contains(m, "grammar")
}

// DefaultContext is the context size, in tokens, assumed when the server
// says none: Ollama's default context window, which it applies without
// saying so and silently cuts longer prompts to, and a size every current
// model has.
const DefaultContext = 4096

// ContextSize discovers the model's context size, in tokens, from the
// server: llama.cpp's GET /props (the slot's n_ctx), vLLM's GET
// /v1/models (max_model_len), LM Studio's GET /api/v0/models (the loaded
// or the maximum context length) and Ollama's POST /api/show (num_ctx of
// the model's parameters, else the smaller of its trained context and
// [DefaultContext], Ollama's default window). It returns the size and
// where it came from; when no server says, [DefaultContext] and
// "default".
func (c *Client) ContextSize(ctx context.Context, model string) (int, string) {
	root := strings.TrimSuffix(c.o.Endpoint, "/v1")
	probes := []struct {
		source string
		get    func(context.Context) (int, error)
	}{
		{"llama.cpp /props", func(ctx context.Context) (int, error) { return c.llamaProps(ctx, root) }},
		{"vLLM /v1/models", func(ctx context.Context) (int, error) { return c.vllmModels(ctx, model) }},
		{"LM Studio /api/v0/models", func(ctx context.Context) (int, error) { return c.lmStudioModels(ctx, root, model) }},
		{"Ollama /api/show", func(ctx context.Context) (int, error) { return c.ollamaShow(ctx, root, model) }},
	}
	for _, p := range probes {
		if ctx.Err() != nil {
			break
		}
		pctx, cancel := context.WithTimeout(ctx, min(c.o.Timeout, discoveryTimeout))
		n, err := p.get(pctx)
		cancel()
		if err == nil && n > 0 {
			return n, p.source
		}
	}
	return DefaultContext, "default"
}

// getJSON sends a discovery request and decodes its JSON answer into v.
func (c *Client) getJSON(ctx context.Context, method, u string, body any, v any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.o.APIKey)
	}
	resp, err := c.o.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: status %d", method, u, resp.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v)
}

func (c *Client) llamaProps(ctx context.Context, root string) (int, error) {
	var props struct {
		NCtx     int `json:"n_ctx"`
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	err := c.getJSON(ctx, http.MethodGet, root+"/props", nil, &props)
	return max(props.Settings.NCtx, props.NCtx), err
}

func (c *Client) vllmModels(ctx context.Context, model string) (int, error) {
	var list struct {
		Data []struct {
			ID          string `json:"id"`
			MaxModelLen int    `json:"max_model_len"`
		} `json:"data"`
	}
	if err := c.getJSON(ctx, http.MethodGet, c.o.Endpoint+"/models", nil, &list); err != nil {
		return 0, err
	}
	for _, m := range list.Data {
		if m.ID == model || len(list.Data) == 1 {
			return m.MaxModelLen, nil
		}
	}
	return 0, nil
}

func (c *Client) lmStudioModels(ctx context.Context, root, model string) (int, error) {
	var list struct {
		Data []struct {
			ID               string `json:"id"`
			LoadedContext    int    `json:"loaded_context_length"`
			MaxContextLength int    `json:"max_context_length"`
		} `json:"data"`
	}
	if err := c.getJSON(ctx, http.MethodGet, root+"/api/v0/models", nil, &list); err != nil {
		return 0, err
	}
	for _, m := range list.Data {
		if m.ID == model {
			if m.LoadedContext > 0 {
				return m.LoadedContext, nil
			}
			return m.MaxContextLength, nil
		}
	}
	return 0, nil
}

func (c *Client) ollamaShow(ctx context.Context, root, model string) (int, error) {
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	if err := c.getJSON(ctx, http.MethodPost, root+"/api/show", map[string]string{"model": model}, &show); err != nil {
		return 0, err
	}
	for _, line := range strings.Split(show.Parameters, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				return n, nil
			}
		}
	}
	for k, v := range show.ModelInfo {
		if n, ok := v.(float64); ok && strings.HasSuffix(k, ".context_length") && n > 0 {
			return min(int(n), DefaultContext), nil
		}
	}
	return 0, nil
}

// Endpoint is a parsed model endpoint.
type Endpoint struct {
	URL *url.URL
	// Host is the host (and port) code is sent to, for the one-line
	// notice.
	Host string
	// Loopback reports an endpoint on this machine: localhost or a
	// loopback address. A name is not resolved, so one that happens to
	// point at this machine still counts as remote.
	Loopback bool
}

// ParseEndpoint parses the base URL of an OpenAI-compatible endpoint.
// The URL must be http or https, have a host, and carry no user
// information (a key goes in the environment variable named by
// api-key-env, never in the file).
func ParseEndpoint(raw string) (Endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse's error quotes raw, credentials and all.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return Endpoint{}, fmt.Errorf("parse model endpoint: %w", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return Endpoint{}, fmt.Errorf("model endpoint %q: scheme %q is not http or https", u.Redacted(), u.Scheme)
	case u.Host == "":
		return Endpoint{}, fmt.Errorf("model endpoint %q has no host", u.Redacted())
	case u.User != nil:
		return Endpoint{}, fmt.Errorf("model endpoint %q carries credentials: name the variable that holds the key in api-key-env instead", u.Redacted())
	}
	host := u.Hostname()
	ep := Endpoint{URL: u, Host: u.Host}
	if ip := net.ParseIP(host); ip != nil {
		ep.Loopback = ip.IsLoopback()
	} else {
		ep.Loopback = strings.EqualFold(host, "localhost")
	}
	return ep, nil
}

// Notice is the one line a run that sends code off the machine says, or
// "" for a loopback endpoint.
func (e Endpoint) Notice(model string) string {
	if e.Loopback {
		return ""
	}
	return fmt.Sprintf("model review: sending the change's code to %s (model %s)", e.Host, model)
}
