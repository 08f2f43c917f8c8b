// Package llm is the model reviewer: an optional second reviewer that
// asks the user's own OpenAI-compatible chat-completions endpoint (Ollama,
// llama.cpp's llama-server, vLLM, LM Studio, or a cloud endpoint the user
// allowed) for defects in a change, and checks every candidate it proposes
// against the diff before any becomes a finding (seed 003's candidate
// validation). It is named llm, not model: "the model" in this codebase
// is review's domain types.
//
// It knows no git, LSP or artifact files. Its pieces are plain and each
// testable alone:
//
//   - [Build] (request.go) is pure: a [Change] (the change set's files,
//     the context the symbol layer found around each, the rule findings)
//     and [BuildOptions] in, a [Plan] of [Request] values out. Prompts are
//     the embedded files prompts/*.md; the answer's JSON Schema is the
//     embedded answer.schema.json, sent as the response format and read
//     by the parser. Temperature 0, a fixed order, and a key per request
//     that hashes its canonical JSON. Small files share a request; a file
//     too large for one is split at line boundaries; what cannot fit is
//     refused (unverified, over budget). Every text is redacted first.
//   - [Client] (client.go) is a thin wrapper over
//     github.com/sashabaranov/go-openai: timeout, retry on 429 honouring
//     Retry-After, cancellation, streaming or not, json_schema with a
//     remembered fallback to JSON mode, token usage, and the discovery of
//     the model's context size ([Client.ContextSize]). [ParseEndpoint]
//     tells a loopback endpoint from a remote one and gives the host for
//     the one-line notice.
//   - [ParseAnswer] and [Validate] (answer.go, validate.go) are pure:
//     candidates, the change and the rule findings in, one [Entry] per
//     candidate out, confirmed (possibly relocated within its hunk) or
//     refuted with a typed [Reason], the confirmed ones as
//     [review.Finding] values with rule id "<perspective>/model".
//   - [Transcript] (transcript.go) records every request and answer in a
//     folder, and replays them, so a run is repeated byte for byte.
//   - [Reviewer] (reviewer.go) ties them together, with a cache of
//     answers keyed by request, so a save re-asks only the changed file's
//     request.
//
// # How the engine calls it
//
// The engine builds one [Reviewer] per configured endpoint and model with
// [New] (Options mirror the `model:` configuration key, which only the
// user's own configuration or a trusted repository may set), and keeps it
// across runs, so the cache, the discovered context size and the JSON-mode
// fallback last. After the rules have run on a change:
//
//	if n := reviewer.Notice(); n != "" {
//		// one line naming the host, for every run that sends code off the machine
//	}
//	ledger := reviewer.Review(ctx, llm.Change{
//		Files:    cs.Files,            // all of them: skipped ones are never sent
//		Context:  contextByPath,       // enclosing functions, callees, callers (review/symbol)
//		Findings: ruleFindings,        // what the rules already reported
//	}, runRedactor)                    // the run's redactor, with its detector
//	findings := ledger.Findings()      // confirmed only; rule "<perspective>/model"
//
// Options.Secrets should be review/secret.Values, so each file is
// also read for secrets by its language before anything is sent. Review
// never fails and never blocks the rules: run it after them (in the
// language server, as a second wave whose context the next change
// cancels). A model that is down, slow or wrong yields unverified entries
// and one log line each. The [Ledger]'s JSON form is the body of
// model-review.json; [Ledger.Summary] is its line for the log and
// review.md. A confirmed finding's Model names the model
// ("qwen2.5-coder:7b"), and its Removed is set when it
// cites the line after a deletion, so the engine's check against the
// diff accepts it as it accepts a rule's.
//
// # Trust and privacy
//
// [Options.Validate] refuses an endpoint off this machine unless
// AllowRemote is set; an API key is read from the environment variable
// Options.APIKeyEnv names, never from a file, sent only as a bearer token
// and redacted wherever an error might echo it. Skipped files (generated,
// vendored, binary, lock files, over the size cap ...), deleted files and
// files matching Options.Exclude are never sent. Every prompt is redacted
// with the run's redactor and the language-aware detector before it
// leaves the process, and the system prompt tells the model that the code
// is data, never instructions; what the model says is only ever a
// candidate until [Validate] confirms it against the diff.
package llm
