package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reviewls/reviewls/review"
)

// Options configure a [Reviewer]; they mirror the `model:` configuration
// key.
type Options struct {
	// Endpoint is the base URL of the OpenAI-compatible API (`endpoint`).
	Endpoint string
	// Model is the model's name (`name`).
	Model string
	// APIKeyEnv names the environment variable holding the API key
	// (`api-key-env`); "" sends none.
	APIKeyEnv string
	// AllowRemote permits an endpoint that is not on this machine
	// (`allow-remote`).
	AllowRemote bool
	// Timeout bounds one request (`timeout`); 0 means [DefaultTimeout].
	Timeout time.Duration
	// MaxFindings is the most findings per change (`max-findings`); 0
	// means [DefaultMaxFindings].
	MaxFindings int
	// Context is the model's context size in tokens (`context`); 0
	// discovers it from the server ([Client.ContextSize]).
	Context int
	// Exclude are globs of paths never sent (`exclude`).
	Exclude []string
	// Stream asks for answers as server-sent events.
	Stream bool
	// Transcript is a folder that records every request and answer
	// (`transcript`); with Replay, answers come from it instead of the
	// endpoint.
	Transcript string
	Replay     bool
	// MaxRequests is the most requests per change; 0 means
	// [DefaultMaxRequests].
	MaxRequests int
	// Secrets is the language-aware secret detector
	// (review/secret.Values), run over every file and context
	// symbol before it is sent; the run's redactor passed to Review
	// handles the rest.
	Secrets func(path, text string) []string
	// Logger receives one line per failed request and one summary per
	// review; nil discards.
	Logger *slog.Logger
	// Getenv reads the API key's variable; nil means os.Getenv.
	Getenv func(string) string
	// HTTPClient sends requests; nil means a client of its own.
	HTTPClient *http.Client
}

// Defaults of [Options].
const (
	// DefaultMaxFindings: a model's fourth finding on one change is far
	// more often noise than a defect; three keeps the second wave short.
	DefaultMaxFindings = 3
	// DefaultMaxRequests: at a few seconds to a minute per request on a
	// local model, twenty requests is as long as a second wave should
	// run; a change that needs more is refused as over budget, file by
	// file, and says so.
	DefaultMaxRequests = 20
	// maxAnswerTokens is the most tokens reserved for an answer: three
	// findings take about 600, and reasoning models think first.
	maxAnswerTokens = 2048
	// cacheSize is the most answers kept: a few changes' worth of
	// requests, so a save re-asks only the changed file's request.
	cacheSize = 256
)

// Validate reports the first problem of o: a missing endpoint or model,
// an endpoint off this machine without AllowRemote, a negative limit, an
// invalid exclude glob.
func (o *Options) Validate() error {
	if o.Endpoint == "" {
		return errors.New("no endpoint (model.endpoint in your configuration, or --model-endpoint URL)")
	}
	if o.Model == "" {
		return errors.New("no model name (model.name in your configuration, or --model NAME)")
	}
	ep, err := ParseEndpoint(o.Endpoint)
	if err != nil {
		return err
	}
	if !ep.Loopback && !o.AllowRemote {
		return fmt.Errorf("model endpoint %s is not on this machine: set allow-remote: true to send code to it", ep.Host)
	}
	switch {
	case o.Timeout < 0:
		return fmt.Errorf("timeout %s is negative", o.Timeout)
	case o.MaxFindings < 0:
		return fmt.Errorf("max findings %d is negative", o.MaxFindings)
	case o.Context < 0:
		return fmt.Errorf("context %d is negative", o.Context)
	case o.MaxRequests < 0:
		return fmt.Errorf("max requests %d is negative", o.MaxRequests)
	case o.Replay && o.Transcript == "":
		return errors.New("replay needs a transcript folder")
	}
	bo := BuildOptions{Model: o.Model, MaxFindings: 1, AnswerTokens: 1, Redactor: review.NewRedactor(nil), Exclude: o.Exclude}
	return bo.Validate()
}

// Reviewer is the model reviewer: it builds the requests of a change,
// asks the endpoint (or the cache, or the transcript), validates every
// candidate and returns the ledger. It is safe for concurrent use; one
// Reviewer per endpoint and model keeps its cache, its discovered context
// size and its JSON-mode fallback across reviews.
type Reviewer struct {
	o          Options
	ep         Endpoint
	client     *Client
	transcript *Transcript
	log        *slog.Logger

	// mu guards the context size and the cache.
	mu         sync.Mutex
	ctxTokens  int
	ctxSource  string
	cache      map[string]*Response
	cacheOrder []string
}

// New returns a reviewer for o. It sends nothing until Review.
func New(o Options) (*Reviewer, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	ep, _ := ParseEndpoint(o.Endpoint)
	if o.MaxFindings == 0 {
		o.MaxFindings = DefaultMaxFindings
	}
	if o.MaxRequests == 0 {
		o.MaxRequests = DefaultMaxRequests
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	key := ""
	if o.APIKeyEnv != "" {
		key = getenv(o.APIKeyEnv)
	}
	c, err := NewClient(ClientOptions{Endpoint: o.Endpoint, APIKey: key, Timeout: o.Timeout, Stream: o.Stream,
		MaxRetries: DefaultMaxRetries, HTTPClient: o.HTTPClient})
	if err != nil {
		return nil, err
	}
	r := &Reviewer{o: o, ep: ep, client: c, log: o.Logger, cache: map[string]*Response{}}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if o.Transcript != "" {
		r.transcript = &Transcript{Dir: o.Transcript, Replay: o.Replay}
	}
	return r, nil
}

// apiKey returns the key, for redaction.
func (r *Reviewer) apiKey() string { return r.client.o.APIKey }

// Notice is the one line a run says when it sends code off the machine
// ("model review: sending the change's code to host (model m)"), or ""
// for a loopback endpoint or a replay, which sends nothing.
func (r *Reviewer) Notice() string {
	if r.o.Replay {
		return ""
	}
	return r.ep.Notice(r.o.Model)
}

// Ledger is the outcome of one model review: every request, every
// candidate with its disposition and evidence, the counts, the model, the
// time and the tokens. Its JSON form is the body of model-review.json. A
// replayed run's ledger is byte for byte the recorded run's.
type Ledger struct {
	Model string `json:"model"`
	// Endpoint is the host requests went to; Remote reports one off this
	// machine.
	Endpoint string `json:"endpoint"`
	Remote   bool   `json:"remote"`
	// Context is the context size the requests were built for.
	Context  ContextSize     `json:"context"`
	Requests []RequestRecord `json:"requests"`
	// Entries are the candidates (c1, c2, ...) and then the unverified
	// requests (u1, u2, ...).
	Entries []Entry `json:"entries"`
	// NotSent are the changed files never sent, and why.
	NotSent []NotSent `json:"not_sent,omitempty"`
	Counts  Counts    `json:"counts"`
	// Usage and ElapsedMS add up the requests answered in this run
	// (recorded ones in a replay), cached ones left out.
	Usage     Usage `json:"usage"`
	ElapsedMS int64 `json:"elapsed_ms"`
}

// ContextSize is a context size and where it came from.
type ContextSize struct {
	Tokens int    `json:"tokens"`
	Source string `json:"source"`
}

// RequestRecord is one request of a review and what became of it.
type RequestRecord struct {
	Key   string   `json:"key"`
	Files []string `json:"files"`
	Part  int      `json:"part,omitempty"`
	Parts int      `json:"parts,omitempty"`
	// Tokens is the builder's estimate of the prompt.
	Tokens int  `json:"tokens"`
	Mode   Mode `json:"mode,omitempty"`
	// Answered reports a usable answer; Cached one reused from an earlier
	// review.
	Answered   bool  `json:"answered"`
	Cached     bool  `json:"cached,omitempty"`
	Candidates int   `json:"candidates"`
	Usage      Usage `json:"usage"`
	ElapsedMS  int64 `json:"elapsed_ms"`
}

// Counts summarise a ledger.
type Counts struct {
	Candidates int `json:"candidates"`
	Confirmed  int `json:"confirmed"`
	// Relocated counts the confirmed candidates moved within their hunk.
	Relocated int `json:"relocated"`
	// Refuted counts candidates by reason; Unverified counts requests
	// (and refused parts of the change) by reason.
	Refuted    map[Reason]int `json:"refuted"`
	Unverified map[Reason]int `json:"unverified"`
}

// JSON returns the ledger's JSON form, the body of model-review.json:
// compact, and without HTML escaping (code is full of < and &).
func (l *Ledger) JSON() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		panic("llm: marshal ledger: " + err.Error()) // strings, numbers and maps of them
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Findings returns the confirmed candidates as findings, in ledger order.
func (l *Ledger) Findings() []*review.Finding {
	var out []*review.Finding
	for _, e := range l.Entries {
		if e.Disposition == Confirmed && e.Finding != nil {
			out = append(out, e.Finding)
		}
	}
	return out
}

// Summary is the ledger in one line, for a log and review.md: "model
// review (m): 4 candidates, 1 confirmed (1 relocated), 3 refuted
// (duplicate 1, unchanged-line 2); 1 request unverified (timeout 1);
// 2.1 s, 1830 tokens".
func (l *Ledger) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model review (%s): %d %s, %d confirmed", l.Model, l.Counts.Candidates, plural(l.Counts.Candidates, "candidate"), l.Counts.Confirmed)
	if l.Counts.Relocated > 0 {
		fmt.Fprintf(&b, " (%d relocated)", l.Counts.Relocated)
	}
	refuted := total(l.Counts.Refuted)
	fmt.Fprintf(&b, ", %d refuted", refuted)
	if refuted > 0 {
		fmt.Fprintf(&b, " (%s)", byReason(l.Counts.Refuted))
	}
	if n := total(l.Counts.Unverified); n > 0 {
		fmt.Fprintf(&b, "; %d %s unverified (%s)", n, plural(n, "request"), byReason(l.Counts.Unverified))
	}
	fmt.Fprintf(&b, "; %.1f s, %d tokens", float64(l.ElapsedMS)/1000, l.Usage.Total())
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func total(m map[Reason]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func byReason(m map[Reason]int) string {
	reasons := make([]string, 0, len(m))
	for r := range m {
		reasons = append(reasons, string(r))
	}
	slices.Sort(reasons)
	for i, r := range reasons {
		reasons[i] = fmt.Sprintf("%s %d", r, m[Reason(r)])
	}
	return strings.Join(reasons, ", ")
}

// Review reviews a change: it builds the requests (redacted with red, the
// run's redactor, and the Secrets detector), answers each from the cache,
// the transcript or the endpoint, in order, validates every candidate and
// returns the ledger. It never fails: a model that is down, slow or wrong
// gives unverified entries, one log line each, and no findings. A
// cancelled ctx ends it early, the remaining requests unverified
// (cancelled).
func (r *Reviewer) Review(ctx context.Context, ch Change, red *review.Redactor) *Ledger {
	return r.review(ctx, ch, red, true)
}

// ReviewCached is Review that asks nothing: a request answered before (in
// the cache) is answered again, any other is unverified (not asked). It
// sends nothing and reads no transcript, so the findings of the files
// whose requests did not change can be shown again at once (the language
// server between saves).
func (r *Reviewer) ReviewCached(ctx context.Context, ch Change, red *review.Redactor) *Ledger {
	return r.review(ctx, ch, red, false)
}

// review is Review, asking the endpoint (or the transcript) only with ask.
func (r *Reviewer) review(ctx context.Context, ch Change, red *review.Redactor, ask bool) *Ledger {
	if red == nil {
		red = review.NewRedactor(nil)
	}
	red = red.With(r.apiKey())
	l := &Ledger{Model: r.o.Model, Endpoint: r.ep.Host, Remote: !r.ep.Loopback, Requests: []RequestRecord{}, Entries: []Entry{},
		Counts: Counts{Refuted: map[Reason]int{}, Unverified: map[Reason]int{}}}
	if !slices.ContainsFunc(ch.Files, func(f *review.File) bool { return notSent(f, r.o.Exclude) == "" }) {
		// Nothing to send: no request, not even the context's discovery.
		for _, f := range ch.Files {
			l.NotSent = append(l.NotSent, NotSent{Path: f.Path, Why: notSent(f, r.o.Exclude)})
		}
		return l
	}
	size, known := r.knownContext()
	if ask && !known {
		size = r.contextSize(ctx)
	}
	if !ask && !known {
		// No request was ever built for this model: none is cached.
		for _, f := range ch.Files {
			if why := notSent(f, r.o.Exclude); why != "" {
				l.NotSent = append(l.NotSent, NotSent{Path: f.Path, Why: why})
			} else {
				l.Entries = append(l.Entries, Entry{ID: fmt.Sprintf("u%d", len(l.Entries)+1), Files: []string{f.Path},
					Disposition: Unverified, Reason: ReasonNotAsked, Evidence: notAsked})
			}
		}
		l.count()
		return l
	}
	l.Context = size
	answer := min(maxAnswerTokens, size.Tokens/4)
	bo := BuildOptions{Model: r.o.Model, MaxFindings: r.o.MaxFindings, Budget: size.Tokens*9/10 - answer,
		AnswerTokens: answer, MaxRequests: r.o.MaxRequests, Exclude: r.o.Exclude, Redactor: red, Secrets: r.o.Secrets}
	plan, err := Build(ch, bo)
	var unverified []Entry
	if err != nil {
		// The context is too small for any request: every file sent
		// would be over budget.
		for _, f := range ch.Files {
			if notSent(f, r.o.Exclude) == "" {
				unverified = append(unverified, Entry{Files: []string{f.Path}, Disposition: Unverified, Reason: ReasonOverBudget, Evidence: red.String(err.Error())})
			}
		}
		plan = &Plan{}
	}
	l.NotSent = plan.NotSent
	for _, ref := range plan.Refused {
		unverified = append(unverified, Entry{Files: ref.Files, Disposition: Unverified, Reason: ReasonOverBudget, Evidence: red.String(ref.Why)})
	}
	var props []Proposed
	for _, req := range plan.Requests {
		resp, cached := r.answer(ctx, req, red, ask)
		rec := RequestRecord{Key: req.Key, Files: req.Files, Part: req.Part, Parts: req.Parts, Tokens: req.Tokens,
			Mode: resp.Mode, Cached: cached, Usage: resp.Usage, ElapsedMS: resp.Elapsed.Milliseconds()}
		if resp.Failure == nil {
			cands, err := ParseAnswer(resp.Content)
			if err != nil {
				msg := err.Error()
				if resp.FinishReason == "length" {
					msg += " (the answer was cut at max_tokens)"
				} else if resp.FinishReason == "" {
					msg += " (the answer ended without a finish reason)"
				}
				resp = &Response{Mode: resp.Mode, Usage: resp.Usage, Elapsed: resp.Elapsed, Failure: &Failure{Reason: ReasonUnparseable, Message: msg}}
			} else {
				rec.Answered, rec.Candidates = true, len(cands)
				for _, c := range cands {
					props = append(props, Proposed{Request: req.Key, Files: req.Files, Candidate: c})
				}
				if !cached {
					r.remember(req.Key, resp)
				}
			}
		}
		if resp.Failure != nil {
			evidence := red.String(clip(resp.Failure.Message, maxMessage))
			unverified = append(unverified, Entry{Request: req.Key, Files: req.Files, Disposition: Unverified, Reason: resp.Failure.Reason, Evidence: evidence})
			if resp.Failure.Reason != ReasonCancelled && resp.Failure.Reason != ReasonNotAsked {
				r.log.WarnContext(ctx, "model review request unverified", "files", strings.Join(req.Files, ","), "reason", resp.Failure.Reason, "err", evidence)
			}
		}
		if !cached {
			l.Usage.add(rec.Usage)
			l.ElapsedMS += rec.ElapsedMS
		}
		l.Requests = append(l.Requests, rec)
	}
	l.Entries = Validate(ch, props, ValidateOptions{Model: r.o.Model, MaxFindings: r.o.MaxFindings, Redactor: red, Secrets: r.o.Secrets})
	for i, e := range unverified {
		e.ID = fmt.Sprintf("u%d", i+1)
		l.Entries = append(l.Entries, e)
	}
	l.count()
	r.log.InfoContext(ctx, l.Summary())
	return l
}

// count fills the ledger's counts.
func (l *Ledger) count() {
	for _, e := range l.Entries {
		switch e.Disposition {
		case Confirmed:
			l.Counts.Candidates++
			l.Counts.Confirmed++
			if e.Relocated != nil {
				l.Counts.Relocated++
			}
		case Refuted:
			l.Counts.Candidates++
			l.Counts.Refuted[e.Reason]++
		case Unverified:
			l.Counts.Unverified[e.Reason]++
		}
	}
}

// maxMessage is the longest failure message kept as evidence, in runes.
const maxMessage = 300

// notAsked is the evidence of a request a review from the cache did not
// ask.
const notAsked = "not asked: this review answered from the cache only"

// knownContext returns the context size requests are built for when it is
// known without asking anyone: configured, or discovered before.
func (r *Reviewer) knownContext() (ContextSize, bool) {
	if r.o.Context > 0 {
		return ContextSize{r.o.Context, "configured"}, true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return ContextSize{r.ctxTokens, r.ctxSource}, r.ctxTokens > 0
}

// contextSize returns the context size requests are built for when none
// is configured: the recorded one in a replay, or the server's,
// discovered once.
func (r *Reviewer) contextSize(ctx context.Context) ContextSize {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctxTokens > 0 {
		return ContextSize{r.ctxTokens, r.ctxSource}
	}
	if r.transcript != nil && r.transcript.Replay {
		n, src, ok, err := r.transcript.LoadContext()
		if err != nil {
			r.log.WarnContext(ctx, "model review transcript", "err", err)
		}
		if !ok {
			n, src = DefaultContext, "default"
		}
		r.ctxTokens, r.ctxSource = n, src
		return ContextSize{n, src}
	}
	n, src := r.client.ContextSize(ctx, r.o.Model)
	if ctx.Err() != nil {
		return ContextSize{n, src} // not remembered: a cancelled probe proves nothing
	}
	r.ctxTokens, r.ctxSource = n, src
	if r.transcript != nil {
		if err := r.transcript.SaveContext(n, src); err != nil {
			r.log.WarnContext(ctx, "model review transcript", "err", err)
		}
	}
	return ContextSize{n, src}
}

// answer returns the response to req and whether it came from the cache:
// the cache first, then the transcript in a replay, else the endpoint,
// recorded when a transcript is kept; without ask, the cache alone. The
// content is redacted before anything reads or records it.
func (r *Reviewer) answer(ctx context.Context, req *Request, red *review.Redactor, ask bool) (*Response, bool) {
	if resp := r.cached(req.Key); resp != nil {
		return resp, true
	}
	if !ask {
		return &Response{Failure: &Failure{Reason: ReasonNotAsked, Message: notAsked}}, false
	}
	if ctx.Err() != nil {
		return &Response{Failure: &Failure{Reason: ReasonCancelled, Message: "the review was cancelled"}}, false
	}
	if r.transcript != nil && r.transcript.Replay {
		resp, ok, err := r.transcript.Answer(req)
		switch {
		case err != nil:
			return &Response{Failure: &Failure{Reason: ReasonNotRecorded, Message: err.Error()}}, false
		case ok:
			return resp, false
		}
		if err := r.transcript.Pend(req); err != nil {
			r.log.WarnContext(ctx, "model review transcript", "err", err)
		}
		return &Response{Failure: &Failure{Reason: ReasonNotRecorded,
			Message: fmt.Sprintf("the transcript has no answer: the request is in pending/%s.json; answer it in %s.response.json", req.Key, req.Key)}}, false
	}
	resp := r.client.Complete(ctx, req)
	resp.Content = red.String(resp.Content)
	if resp.Failure != nil {
		resp.Failure.Message = red.String(resp.Failure.Message)
	}
	if r.transcript != nil && (resp.Failure == nil || resp.Failure.Reason != ReasonCancelled) {
		if err := r.transcript.Record(req, resp); err != nil {
			r.log.WarnContext(ctx, "model review transcript", "err", err)
		}
	}
	return resp, false
}

// cached returns the remembered answer to key, or nil.
func (r *Reviewer) cached(key string) *Response {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cache[key]
}

// remember keeps a usable answer, the oldest dropped past cacheSize.
func (r *Reviewer) remember(key string, resp *Response) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.cache[key]; ok {
		return
	}
	r.cache[key] = resp
	r.cacheOrder = append(r.cacheOrder, key)
	if len(r.cacheOrder) > cacheSize {
		delete(r.cache, r.cacheOrder[0])
		r.cacheOrder = r.cacheOrder[1:]
	}
}
