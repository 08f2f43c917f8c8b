package review

import (
	"fmt"
	"strings"
	"time"
)

// The model reviewer. An optional second reviewer on the user's own
// OpenAI-compatible endpoint proposes candidates after the rules; the
// engine validates each against the diff (review/llm), and only the
// confirmed ones become findings, with rule id "<perspective>/model" and
// the model's name in [Finding.Model]. Unless [ModelConfig.Blocking] is
// set, they are advisory: they show in every output but never count for
// the verdict or a gate ([Result.GateCounts]).

// ModelConfig is the `model:` key of the configuration: the model
// reviewer's endpoint and how it is used. It sends code to the endpoint
// and may write a transcript outside the work tree, so only the user's
// own settings (the user file, command-line flags, editor settings) or a
// repository the user trusted may set it.
type ModelConfig struct {
	// Endpoint is the base URL of the OpenAI-compatible API (`endpoint`).
	Endpoint string
	// Name is the model's name (`name`).
	Name string
	// APIKeyEnv names the environment variable holding the API key
	// (`api-key-env`); a key is never in a file.
	APIKeyEnv string
	// Timeout bounds one request (`timeout`); 0 means the reviewer's
	// default.
	Timeout time.Duration
	// MaxFindings is the most model findings per change
	// (`max-findings`); 0 means the reviewer's default.
	MaxFindings int
	// Context is the model's context size in tokens (`context`); 0
	// discovers it from the server.
	Context int
	// Exclude are doublestar globs of paths never sent (`exclude`).
	Exclude []string
	// AllowRemote permits an endpoint off this machine (`allow-remote`).
	AllowRemote bool
	// Blocking makes model findings count for the verdict and the gates
	// (`blocking`).
	Blocking bool
	// Stream asks for answers as server-sent events (`stream`).
	Stream bool
	// Transcript is a folder that records every request and answer
	// (`transcript`); with Replay, answers come from it instead.
	Transcript string
	Replay     bool
	// Trigger says when the language server asks the model (`trigger`).
	Trigger ModelTrigger
}

// Enabled reports whether c turns the model reviewer on: it names an
// endpoint or a model.
func (c *ModelConfig) Enabled() bool {
	return c != nil && (c.Endpoint != "" || c.Name != "")
}

// Over returns c with the fields o sets (its non-zero ones) over it: how
// command-line flags and editor settings apply over the files' `model:`.
func (c *ModelConfig) Over(o *ModelConfig) *ModelConfig {
	var out ModelConfig
	if c != nil {
		out = *c
	}
	if o == nil {
		return &out
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&out.Endpoint, o.Endpoint)
	set(&out.Name, o.Name)
	set(&out.APIKeyEnv, o.APIKeyEnv)
	set(&out.Transcript, o.Transcript)
	if o.Timeout > 0 {
		out.Timeout = o.Timeout
	}
	if o.MaxFindings > 0 {
		out.MaxFindings = o.MaxFindings
	}
	if o.Context > 0 {
		out.Context = o.Context
	}
	if o.Exclude != nil {
		out.Exclude = o.Exclude
	}
	if o.Trigger != "" {
		out.Trigger = o.Trigger
	}
	out.AllowRemote = out.AllowRemote || o.AllowRemote
	out.Blocking = out.Blocking || o.Blocking
	out.Stream = out.Stream || o.Stream
	out.Replay = out.Replay || o.Replay
	return &out
}

// ModelTrigger says when the language server asks the model: on save (the
// default: a request per keystroke would queue behind itself on a local
// model) or on every change.
type ModelTrigger string

// The triggers.
const (
	TriggerSave   ModelTrigger = "save"
	TriggerChange ModelTrigger = "change"
)

// ParseModelTrigger parses save or change.
func ParseModelTrigger(s string) (ModelTrigger, error) {
	switch t := ModelTrigger(strings.ToLower(s)); t {
	case TriggerSave, TriggerChange:
		return t, nil
	}
	return "", fmt.Errorf("unknown trigger %q (want save or change)", s)
}

// ModelMode says whether a run asks the model reviewer.
type ModelMode int

const (
	// ModelNone: the run does not ask it (the commands that only orient).
	ModelNone ModelMode = iota
	// ModelAsk: when a model is configured, the result's model review is
	// pending and the caller runs it after the rule findings are out
	// (engine.ModelReview), asking the endpoint for every request whose
	// answer is not cached.
	ModelAsk
	// ModelCached is ModelAsk that answers from the cache only: the
	// language server between saves, so the findings of unchanged files
	// stay while a request for an edited file waits for the save.
	ModelCached
)

// ModelState is what became of the model review of a run.
type ModelState string

// The model review states.
const (
	// ModelOff: no model is configured, or the run did not ask it.
	ModelOff ModelState = ""
	// ModelPending: the caller runs it after the rules.
	ModelPending ModelState = "pending"
	// ModelRan: it ran; the ledger says what each request and candidate
	// became (a request may still be unverified: down, slow, wrong).
	ModelRan ModelState = "ran"
	// ModelUnavailable: a model is configured but cannot be asked (its
	// settings are invalid); Reason says why.
	ModelUnavailable ModelState = "unavailable"
)

// ModelReview records the model review of a run: its state, the model and
// host, and once it ran, the ledger's counts and the ledger itself.
type ModelReview struct {
	State ModelState
	// Reason says why the review is unavailable.
	Reason string
	// Model is the model's name; Host the host (and port) of its
	// endpoint; Remote reports a host off this machine.
	Model  string
	Host   string
	Remote bool
	// Notice is the one line a run that sends code off the machine says
	// ("" for a loopback endpoint or a replay).
	Notice string
	// Blocking says whether its findings count for the verdict and gates.
	Blocking bool
	// CacheOnly says the review answers from the cache only and sends
	// nothing (review.ModelCached).
	CacheOnly bool
	// Counts are the ledger's figures once it ran.
	Counts ModelCounts
	// Summary is the ledger in one line, for a log and the terminal.
	Summary string
	// Ledger is the JSON body of model-review.json (review/llm's
	// Ledger), redacted; nil until it ran.
	Ledger []byte
}

// ModelNotAsked is the reason (review/llm's ReasonNotAsked) of a request
// that a review from the cache only did not ask: not a failure of the
// model.
const ModelNotAsked = "not-asked"

// ModelCounts are the figures of a model review's ledger.
type ModelCounts struct {
	Requests   int
	Candidates int
	Confirmed  int
	Relocated  int
	// Refuted counts candidates by reason; Unverified counts requests
	// (and refused parts of the change) by reason.
	Refuted    map[string]int
	Unverified map[string]int
	// PromptTokens and CompletionTokens add up the requests answered.
	PromptTokens, CompletionTokens int
	Elapsed                        time.Duration
}

// String is the one line the outputs show about the model review when it
// did not run: "model review unavailable: ...", "model review pending";
// "" when it is off; the ledger's summary when it ran.
func (m ModelReview) String() string {
	switch m.State {
	case ModelOff:
		return ""
	case ModelRan:
		return m.Summary
	case ModelUnavailable:
		return "model review unavailable: " + m.Reason
	}
	return fmt.Sprintf("model review (%s) %s", m.Model, m.State)
}

// ModelRuleSuffix ends the rule id of every model finding:
// "functional/model".
const ModelRuleSuffix = "/model"

// IsModelRule reports whether id is the rule id of model findings.
func IsModelRule(id string) bool { return strings.HasSuffix(id, ModelRuleSuffix) }

// Advisory reports whether f is a model finding that does not count for
// the verdict or a gate (the model review is not blocking).
func (r *Result) Advisory(f *Finding) bool {
	return f.Model != "" && !r.Model.Blocking
}

// AdvisoryCount returns how many accepted findings are advisory.
func (r *Result) AdvisoryCount() int {
	n := 0
	for _, f := range r.Findings {
		if r.Advisory(f) {
			n++
		}
	}
	return n
}
