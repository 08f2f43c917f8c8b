package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

var known = []string{"readiness/todo-added", "security/hardcoded-secret", "security/generic-secret", "standards/long-function", "security/weak-crypto"}

func TestParse(t *testing.T) {
	data := []byte(`# reviewls configuration
profile: custom
depth: comprehensive
perspectives: [security, functional]
rules:
  readiness/todo-added: off
  security/hardcoded-secret: High
ignore:
  - "vendor/**"
  - "**/*.pb.go"
base: origin/main
fail-on: medium
size-cap: 2MiB
function-length: 120
allow-secrets:
  - security/hardcoded-secret:testdata/fake.go:0123456789abcdef # a revoked key the replay test needs
baseline: ci/./reviewls-baseline.json
analysis:
  budget: 5s
max-findings:
  per-file: 20
  per-review: 0
model:
  endpoint: http://127.0.0.1:11434/v1
  name: qwen2.5-coder:7b
  api-key-env: OLLAMA_KEY
  timeout: 90s
  max-findings: 5
  context: 16384
  exclude: ["secrets/**"]
  blocking: true
  stream: true
  transcript: /tmp/transcripts
  replay: true
  trigger: change
policy:
  forbidden-paths: ["legacy/**"]
  forbidden-imports: [github.com/pkg/errors, pickle]
  forbidden-dependencies: [left-pad]
gates:
  - go test ./...
  - {name: lint, run: golangci-lint run, timeout: 5m}
`)
	got, err := Parse(FileName, data, known)
	if err != nil {
		t.Fatal(err)
	}
	want := &review.Config{
		Profile:        review.ProfileCustom,
		Depth:          review.DepthComprehensive,
		Perspectives:   []review.Perspective{review.Functional, review.Security},
		Rules:          map[string]review.RuleConfig{"readiness/todo-added": {Off: true}, "security/hardcoded-secret": {Severity: review.SeverityHigh}},
		Ignore:         []string{"vendor/**", "**/*.pb.go"},
		Base:           "origin/main",
		FailOn:         review.FailOn{Set: true, Severity: review.SeverityMedium},
		SizeCap:        2 << 20,
		FunctionLength: 120,
		AllowSecrets:   []string{"security/hardcoded-secret:testdata/fake.go:0123456789abcdef"},
		Baseline:       "ci/reviewls-baseline.json",
		AnalysisBudget: 5 * time.Second,
		MaxFindings:    review.FindingCaps{PerFile: 20, PerReview: -1},
		Model: &review.ModelConfig{Endpoint: "http://127.0.0.1:11434/v1", Name: "qwen2.5-coder:7b", APIKeyEnv: "OLLAMA_KEY",
			Timeout: 90 * time.Second, MaxFindings: 5, Context: 16384, Exclude: []string{"secrets/**"}, Blocking: true, Stream: true,
			Transcript: "/tmp/transcripts", Replay: true, Trigger: review.TriggerChange},
		Policy: review.Policy{Paths: []string{"legacy/**"}, Imports: []string{"github.com/pkg/errors", "pickle"}, Dependencies: []string{"left-pad"}},
		Gates:  []review.Gate{{Name: "go test ./...", Command: "go test ./..."}, {Name: "lint", Command: "golangci-lint run", Timeout: 5 * time.Minute}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct {
		data, want string
	}{
		{"profile: standard\nrulez: {}\n", `.reviewls.yaml:2: unknown key "rulez": did you mean "rules"? (known keys: profile, depth, perspectives, rules, ignore, base, fail-on, size-cap, function-length, allow-secrets, baseline, analysis, commit-reviews, max-findings, model, policy, gates)`},
		{"policy: [a]\n", `.reviewls.yaml:1: policy: want a mapping such as {forbidden-imports: [github.com/pkg/errors]}`},
		{"policy: {forbidden-files: [a]}\n", `.reviewls.yaml:1: policy: unknown key "forbidden-files" (known keys: forbidden-paths, forbidden-imports, forbidden-dependencies)`},
		{"policy: {forbidden-paths: ['a/[b']}\n", `.reviewls.yaml:1: policy.forbidden-paths: invalid glob "a/[b"`},
		{"policy: {forbidden-imports: pickle}\n", `.reviewls.yaml:1: policy.forbidden-imports: want a list`},
		{"policy: {forbidden-imports: [a], forbidden-imports: [b]}\n", `.reviewls.yaml:1: policy: duplicate key "forbidden-imports"`},
		{"gates: go test ./...\n", `.reviewls.yaml:1: gates: want a list of commands such as [go test ./...]`},
		{"gates:\n  - {name: t}\n", `.reviewls.yaml:2: gates: a gate needs a command (run: go test ./...)`},
		{"gates:\n  - {run: make, when: always}\n", `.reviewls.yaml:2: gates: unknown key "when" (known keys: run, name, timeout)`},
		{"gates:\n  - {run: make, timeout: forever}\n", `.reviewls.yaml:2: gates.timeout: want a positive duration such as 5m, got "forever"`},
		{"gates: [make, make]\n", `.reviewls.yaml:1: gates: two gates named "make"`},
		{"gates:\n  - {run: make, run: make test}\n", `.reviewls.yaml:2: gates: duplicate key "run"`},
		{"gates: [[make]]\n", `.reviewls.yaml:1: gates: want a command or a mapping {run: ..., name: ..., timeout: ...}`},
		{"model: http://127.0.0.1:8080/v1\n", `.reviewls.yaml:1: model: want a mapping such as {endpoint: http://127.0.0.1:11434/v1, name: qwen2.5-coder:7b}`},
		{"model: {url: x}\n", `.reviewls.yaml:1: model: unknown key "url" (known keys: endpoint, name, api-key-env, timeout, max-findings, context, exclude, allow-remote, blocking, stream, transcript, replay, trigger)`},
		{"model: {name: a, name: b}\n", `.reviewls.yaml:1: model: duplicate key "name"`},
		// A cloud endpoint needs the user's explicit opt-in.
		{"model:\n  endpoint: https://api.example.com/v1\n  name: m\n", `.reviewls.yaml:2: model.endpoint: api.example.com is not on this machine: set allow-remote: true to send code to it`},
		{"model: {endpoint: 'ftp://127.0.0.1/v1'}\n", `.reviewls.yaml:1: model.endpoint: model endpoint "ftp://127.0.0.1/v1": scheme "ftp" is not http or https`},
		{"model: {endpoint: 'http://me:pw@127.0.0.1/v1'}\n", `.reviewls.yaml:1: model.endpoint: model endpoint "http://me:xxxxx@127.0.0.1/v1" carries credentials: name the variable that holds the key in api-key-env instead`},
		// A key pasted in place of its variable's name is never echoed.
		{"model: {api-key-env: sk-proj-4f9a8b7c6d5e4f3a2b1c}\n", `.reviewls.yaml:1: model.api-key-env: want the name of the environment variable that holds the key, got sk-p…[redacted, 28 chars] (never the key itself)`},
		{"model: {timeout: soon}\n", `.reviewls.yaml:1: model.timeout: want a positive duration such as 30s or 2m, got "soon"`},
		{"model: {max-findings: 0}\n", `.reviewls.yaml:1: model.max-findings: want a positive number of findings, got "0"`},
		{"model: {context: lots}\n", `.reviewls.yaml:1: model.context: want a positive number of tokens, got "lots"`},
		{"model: {exclude: ['a/[b']}\n", `.reviewls.yaml:1: model.exclude: invalid glob "a/[b"`},
		{"model: {exclude: secrets}\n", `.reviewls.yaml:1: model.exclude: want a list`},
		{"model: {blocking: yes please}\n", `.reviewls.yaml:1: model.blocking: want true or false, got "yes please"`},
		{"model: {trigger: idle}\n", `.reviewls.yaml:1: model.trigger: unknown trigger "idle" (want save or change)`},
		{"model: {replay: true}\n", `.reviewls.yaml:1: model.replay: replay reads the answers from a transcript folder: set transcript too`},
		{"model: {name: []}\n", `.reviewls.yaml:1: model.name: want a single value`},
		{"analysis: 5s\n", `.reviewls.yaml:1: analysis: want a mapping such as {budget: 5s}`},
		{"analysis:\n  timeout: 5s\n", `.reviewls.yaml:2: analysis: unknown key "timeout" (known keys: budget)`},
		{"analysis: {budget: soon}\n", `.reviewls.yaml:1: analysis.budget: want a positive duration such as 5s or 1m, got "soon"`},
		{"analysis: {budget: 0s}\n", `.reviewls.yaml:1: analysis.budget: want a positive duration such as 5s or 1m, got "0s"`},
		{"analysis: {budget: 5s, budget: 6s}\n", `.reviewls.yaml:1: analysis: duplicate key "budget"`},
		{"max-findings: 50\n", `.reviewls.yaml:1: max-findings: want a mapping such as {per-file: 50, per-review: 1000}`},
		{"max-findings: {per-rule: 5}\n", `.reviewls.yaml:1: max-findings: unknown key "per-rule" (known keys: per-file, per-review)`},
		{"max-findings: {per-file: -1}\n", `.reviewls.yaml:1: max-findings.per-file: want a number of findings (0: no cap), got "-1"`},
		{"max-findings: {per-review: many}\n", `.reviewls.yaml:1: max-findings.per-review: want a number of findings (0: no cap), got "many"`},
		{"max-findings: {per-file: 1, per-file: 2}\n", `.reviewls.yaml:1: max-findings: duplicate key "per-file"`},
		{"baseline: ../outside.json\n", `.reviewls.yaml:1: baseline: want a file path inside the repository, got "../outside.json"`},
		{"baseline: /etc/baseline.json\n", `.reviewls.yaml:1: baseline: want a file path inside the repository, got "/etc/baseline.json"`},
		// git's own files: replacing a hook, or HEAD, breaks the repository.
		{"baseline: .git/hooks/pre-commit\n", `.reviewls.yaml:1: baseline: want a file path outside .git/, got ".git/hooks/pre-commit" (git's own files are never a baseline)`},
		{"baseline: .git/HEAD\n", `.reviewls.yaml:1: baseline: want a file path outside .git/, got ".git/HEAD" (git's own files are never a baseline)`},
		{"baseline: ./.GIT/config\n", `.reviewls.yaml:1: baseline: want a file path outside .git/, got "./.GIT/config" (git's own files are never a baseline)`},
		{"baseline: a/../.Git/hooks/pre-push\n", `.reviewls.yaml:1: baseline: want a file path outside .git/, got "a/../.Git/hooks/pre-push" (git's own files are never a baseline)`},
		{"baseline: '.git. /HEAD'\n", `.reviewls.yaml:1: baseline: want a file path outside .git/, got ".git. /HEAD" (git's own files are never a baseline)`},
		{"baseline: GIT~1/HEAD\n", `.reviewls.yaml:1: baseline: want a file path outside .git/, got "GIT~1/HEAD" (git's own files are never a baseline)`},
		{"baseline: .git\n", `.reviewls.yaml:1: baseline: want a file path outside .git/, got ".git" (git's own files are never a baseline)`},
		// A value pasted in place of its fingerprint is rejected without being echoed.
		{"allow-secrets:\n  - AKIAZ7Q2R5T6W3X4Y6B2\n", `.reviewls.yaml:2: allow-secrets: "AKIA…[redacted, 20 chars]" is not a secret fingerprint (want <rule-id>:<path>:<16 hex digits>, as a blocked review prints it)`},
		{"allow-secrets:\n  - security/hardcoded-secret:a.go:0123\n", `.reviewls.yaml:2: allow-secrets: "secu…[redacted, 35 chars]" is not a secret fingerprint (want <rule-id>:<path>:<16 hex digits>, as a blocked review prints it)`},
		{"allow-secrets:\n  - nope/rule:a.go:0123456789abcdef\n", ".reviewls.yaml:2: allow-secrets: unknown rule \"nope/rule\" (run `reviewls rules` for the catalog)"},
		{"allow-secrets: security/hardcoded-secret:a.go:0123456789abcdef\n", `.reviewls.yaml:1: allow-secrets: want a list`},
		{"depth: deep\n", `.reviewls.yaml:1: depth: unknown depth "deep" (want basic, standard or comprehensive)`},
		{"perspectives:\n  - functional\n  - perf\n", `.reviewls.yaml:3: perspectives: unknown perspective "perf" (want functional, standards, accessibility, security or readiness)`},
		{"rules:\n  readiness/todo-added: loud\n", `.reviewls.yaml:2: rules.readiness/todo-added: want off, critical, high, medium or low, got "loud"`},
		{"rules:\n  nope/rule: off\n", ".reviewls.yaml:2: rules: unknown rule \"nope/rule\" (run `reviewls rules` for the catalog)"},
		{"fail-on: sometimes\n", `.reviewls.yaml:1: fail-on: unknown fail-on threshold "sometimes" (want critical, high, medium, low or never)`},
		{"size-cap: big\n", `.reviewls.yaml:1: size-cap: want a positive size such as 1048576, 512KiB or 2MiB`},
		{"function-length: 0\n", `.reviewls.yaml:1: function-length: want a positive number of lines, got "0"`},
		{"ignore: vendor\n", `.reviewls.yaml:1: ignore: want a list`},
		{"ignore: ['a/[b']\n", `.reviewls.yaml:1: ignore: invalid glob "a/[b"`},
		// Keys that would do nothing given the rest of the file.
		{"perspectives: [functional]\n", `.reviewls.yaml:1: perspectives: only the custom profile reads them, and this file sets no profile (so standard): add profile: custom, or remove perspectives`},
		{"profile: full\nperspectives: [functional]\n", `.reviewls.yaml:2: perspectives: only the custom profile reads them, and this file selects profile: full: add profile: custom, or remove perspectives`},
		{"profile: custom\n", `.reviewls.yaml:1: profile: custom needs the perspectives to run: add perspectives: [functional, security, ...]`},
		{"profile: custom\nperspectives: []\n", `.reviewls.yaml:1: profile: custom needs the perspectives to run: add perspectives: [functional, security, ...]`},
		{"rules:\n  standards/long-function: off\nfunction-length: 40\n", `.reviewls.yaml:3: function-length: standards/long-function is off under rules, so its threshold does nothing: remove one of the two`},
		// The secret gate is not the configuration's to turn off.
		{"rules:\n  security/hardcoded-secret: off\n", `.reviewls.yaml:2: rules.security/hardcoded-secret: a secret rule cannot be turned off or set below high (every review checks for secrets): to let a known value through, list its fingerprint under allow-secrets`},
		{"rules:\n  security/generic-secret: false\n", `.reviewls.yaml:2: rules.security/generic-secret: a secret rule cannot be turned off or set below high (every review checks for secrets): to let a known value through, list its fingerprint under allow-secrets`},
		{"rules:\n  security/generic-secret: medium\n", `.reviewls.yaml:2: rules.security/generic-secret: a secret rule cannot be turned off or set below high (every review checks for secrets): to let a known value through, list its fingerprint under allow-secrets`},
		{"allow-secrets:\n  - security/weak-crypto:a.go:0123456789abcdef\n", `.reviewls.yaml:2: allow-secrets: security/weak-crypto finds no secrets, so this entry would allow nothing (the secret rules are security/hardcoded-secret, security/generic-secret)`},
		{"depth: basic\ndepth: standard\n", `.reviewls.yaml:2: duplicate key "depth"`},
		{"- a\n", `.reviewls.yaml:1: the configuration must be a mapping of keys to values`},
		{"profile: [\n", `.reviewls.yaml: line 1: did not find expected node content`},
		// A second document was read by nobody: its keys silently did nothing.
		{"depth: basic\n---\ndepth: comprehensive\n", `.reviewls.yaml:2: a second YAML document: the configuration is one document (merge the two, or remove the ---)`},
		{"---\ndepth: basic\n...\n---\n\nrules: {}\n", `.reviewls.yaml:4: a second YAML document: the configuration is one document (merge the two, or remove the ---)`},
		{"depth: basic\n---\ndepth: [\n", `.reviewls.yaml: line 3: did not find expected node content`},
	} {
		_, err := Parse(FileName, []byte(tt.data), known)
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%q: err = %v, want a *config.Error", tt.data, err)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.data, err, tt.want)
		}
	}
}

// TestParseSecretRules: a secret rule may be raised, or kept at high, but
// not lowered below the gate or turned off (TestParseErrors).
func TestParseSecretRules(t *testing.T) {
	cfg, err := Parse(FileName, []byte("rules:\n  security/generic-secret: critical\n  security/hardcoded-secret: high\n"), known)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]review.RuleConfig{"security/generic-secret": {Severity: review.SeverityCritical}, "security/hardcoded-secret": {Severity: review.SeverityHigh}}
	if diff := cmp.Diff(want, cfg.Rules); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	cfg, err := Load(dir, known)
	if err != nil || cfg != nil {
		t.Fatalf("missing file: %v, %v; want nil, nil", cfg, err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("depth: basic\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err = Load(dir, known)
	if err != nil || cfg.Depth != review.DepthBasic {
		t.Fatalf("Load = %+v, %v", cfg, err)
	}
	// An empty document after the first one says nothing: it is allowed.
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("depth: basic\n---\n# nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, err = Load(dir, known); err != nil || cfg.Depth != review.DepthBasic {
		t.Fatalf("Load with an empty second document = %+v, %v", cfg, err)
	}
}

// TestParseEmptyDocument: a file that holds only a document marker, with
// or without comments, is the default configuration like an empty file,
// not an error on a line past its end.
func TestParseEmptyDocument(t *testing.T) {
	for _, data := range []string{"---", "---\n", "--- # reviewls\n# profile: full\n", "---\n...\n", "~\n"} {
		cfg, err := Parse(FileName, []byte(data), known)
		if err != nil {
			t.Errorf("%q: %v", data, err)
			continue
		}
		if diff := cmp.Diff(&review.Config{}, cfg); diff != "" {
			t.Errorf("%q: config (-want +got):\n%s", data, diff)
		}
	}
}
