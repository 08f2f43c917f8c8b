package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/llm/llmtest"
	"github.com/reviewls/reviewls/review/reviewtest"
	"github.com/reviewls/reviewls/schemas"
)

// The model reviewer through the real binary, against llmtest's
// OpenAI-compatible server on loopback.

// calcBase and calcWork are the change the model tests review: Sum's
// loop now reads one element past the end (line 6 and line 7), and line
// 7 adds a TODO, which readiness/todo-added reports.
const (
	calcBase = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n"
	calcWork = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor i := 0; i <= len(xs); i++ {\n\t\ttotal += xs[i] // TODO: overflow\n\t}\n\treturn total\n}\n"
)

// modelRepo returns a repository with the calc change, and extra work
// tree files.
func modelRepo(t *testing.T, extra ...txtar.File) string {
	t.Helper()
	ar := &txtar.Archive{Files: append([]txtar.File{
		{Name: "base/go.mod", Data: []byte("module example.com/calc\n\ngo 1.22\n")},
		{Name: "base/calc/calc.go", Data: []byte(calcBase)},
		{Name: "work/calc/calc.go", Data: []byte(calcWork)},
	}, extra...)}
	return reviewtest.RepoFromArchive(t, ar).Dir
}

// offByOne is the model's answer naming the defect of line 6.
var offByOne = llmtest.Finding{File: "calc/calc.go", Line: 6, Quote: "for i := 0; i <= len(xs); i++ {", Severity: "high",
	Title: "The loop reads one element past the end of xs"}

// modelRun runs the binary in dir with a private user folder whose
// config.yaml is userConfig (none when ""), and extra environment.
type modelRun struct {
	t    *testing.T
	bin  string
	home string
	env  []string
}

func newModelRun(t *testing.T, bin, userConfig string, env ...string) *modelRun {
	t.Helper()
	home := t.TempDir()
	if userConfig != "" {
		dir := filepath.Join(home, ".config", "reviewls")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(userConfig), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return &modelRun{t: t, bin: bin, home: home, env: env}
}

// userModel is a user configuration file naming the test server s, with
// more model keys.
func userModel(s *llmtest.Server, more string) string {
	return "model:\n  endpoint: " + s.URL + "\n  name: test-model\n" + more
}

func (m *modelRun) run(dir string, args ...string) (stdout, stderr string, code int) {
	m.t.Helper()
	cmd := exec.Command(m.bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+m.home, "XDG_CONFIG_HOME="+filepath.Join(m.home, ".config"), "GIT_CONFIG_NOSYSTEM=1", "NO_COLOR=1")
	cmd.Env = append(cmd.Env, m.env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		m.t.Fatalf("run reviewls %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), code
}

// reportedRules returns "rule@lines" of the findings of a --format json
// report.
func reportedRules(t *testing.T, stdout string) []string {
	t.Helper()
	var r struct {
		Findings []struct {
			RuleID string `json:"rule_id"`
			Lines  string `json:"lines"`
			Model  string `json:"model"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("decode the JSON report: %v\n%s", err, stdout)
	}
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.RuleID+"@"+f.Lines)
	}
	slices.Sort(out)
	return out
}

// ledgerFile is the parts of model-review.json the tests read.
type ledgerFile struct {
	Ledger struct {
		Requests []struct {
			Key   string   `json:"key"`
			Files []string `json:"files"`
			Part  int      `json:"part"`
			Parts int      `json:"parts"`
			Mode  string   `json:"mode"`
		} `json:"requests"`
		Entries []struct {
			ID          string `json:"id"`
			Disposition string `json:"disposition"`
			Reason      string `json:"reason"`
			Evidence    string `json:"evidence"`
			Relocated   *struct {
				From, To int
			} `json:"relocated"`
		} `json:"entries"`
	} `json:"ledger"`
}

// readLedger reads, validates and decodes the review's model-review.json.
func readLedger(t *testing.T, dir string) (ledgerFile, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".copilot-tracking", "reviews", "code-reviews", "main", "model-review.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("model-review", data); err != nil {
		t.Error(err)
	}
	var l ledgerFile
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatal(err)
	}
	return l, data
}

func (l ledgerFile) dispositions() []string {
	var out []string
	for _, e := range l.Ledger.Entries {
		out = append(out, strings.TrimSpace(e.ID+" "+e.Disposition+" "+e.Reason))
	}
	return out
}

// TestModelCLIServer drives the binary through what an OpenAI-compatible
// server does: answer in schema mode, refuse the schema (the JSON-mode
// fallback), stream or not, rate-limit with Retry-After, fail with 500,
// hang past the timeout, answer truncated or invalid JSON, or say the
// prompt is over its context. Whatever it does, the review finishes with
// the rule finding intact and the exit code the rules make; what the
// model said is the ledger's.
func TestModelCLIServer(t *testing.T) {
	bin := buildBinary(t)
	rules := []string{"readiness/todo-added@7"}
	withModel := []string{"functional/model@6", "readiness/todo-added@7"}
	for _, tc := range []struct {
		name    string
		cfg     llmtest.Config
		more    string // model keys of the user's file
		want    []string
		ledger  []string
		chats   int
		formats []string // the response formats asked, in order
	}{
		{name: "schema mode", cfg: llmtest.Config{Handler: llmtest.Replies(llmtest.Answer(offByOne))},
			want: withModel, ledger: []string{"c1 confirmed"}, chats: 1, formats: []string{"json_schema"}},
		{name: "JSON-mode fallback", cfg: llmtest.Config{RefuseSchema: true, Handler: llmtest.Replies(llmtest.Answer(offByOne))},
			want: withModel, ledger: []string{"c1 confirmed"}, chats: 2, formats: []string{"json_schema", "json_object"}},
		{name: "streaming", cfg: llmtest.Config{Handler: llmtest.Replies(llmtest.Answer(offByOne))}, more: "  stream: true\n",
			want: withModel, ledger: []string{"c1 confirmed"}, chats: 1, formats: []string{"json_schema"}},
		{name: "429 with Retry-After", cfg: llmtest.Config{Handler: llmtest.Replies(
			llmtest.Reply{Status: 429, Error: "slow down", Header: map[string]string{"Retry-After": "0"}}, llmtest.Answer(offByOne))},
			want: withModel, ledger: []string{"c1 confirmed"}, chats: 2, formats: []string{"json_schema", "json_schema"}},
		{name: "500", cfg: llmtest.Config{Handler: llmtest.Replies(llmtest.Reply{Status: 500, Error: "model not loaded"})},
			want: rules, ledger: []string{"u1 unverified unavailable"}, chats: 1},
		{name: "hung", cfg: llmtest.Config{Handler: llmtest.Replies(llmtest.Reply{Hang: true})}, more: "  timeout: 300ms\n",
			want: rules, ledger: []string{"u1 unverified timeout"}, chats: 1},
		{name: "hung while streaming", cfg: llmtest.Config{Handler: llmtest.Replies(llmtest.Reply{Hang: true})}, more: "  timeout: 300ms\n  stream: true\n",
			want: rules, ledger: []string{"u1 unverified timeout"}, chats: 1},
		{name: "invalid JSON", cfg: llmtest.Config{Handler: llmtest.Replies(llmtest.Reply{Content: "The change looks fine to me."})},
			want: rules, ledger: []string{"u1 unverified unparseable"}, chats: 1},
		{name: "truncated JSON", cfg: llmtest.Config{Handler: llmtest.Replies(llmtest.Reply{Content: `{"findings": [{"file": "calc/calc.go", "li`, FinishReason: "length"})},
			want: rules, ledger: []string{"u1 unverified unparseable"}, chats: 1},
		{name: "a stream cut short", cfg: llmtest.Config{Handler: llmtest.Replies(llmtest.Answer(offByOne))}, more: "  stream: true\n",
			want: withModel, ledger: []string{"c1 confirmed"}, chats: 1},
		{name: "over the server's context", cfg: llmtest.Config{Handler: llmtest.Replies(llmtest.LlamaCppContextExceeded(9000, 8192))},
			want: rules, ledger: []string{"u1 unverified over-budget"}, chats: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "a stream cut short" {
				reply := llmtest.Answer(offByOne)
				reply.Cut = 2
				tc.cfg.Handler = llmtest.Replies(reply)
				tc.want, tc.ledger = rules, []string{"u1 unverified unparseable"}
			}
			s := llmtest.New(t, tc.cfg)
			dir := modelRepo(t)
			m := newModelRun(t, bin, userModel(s, "  context: 8192\n"+tc.more))
			stdout, stderr, code := m.run(dir, "review", "--format", "json", "--fail-on", "high")
			if code != 0 {
				t.Errorf("exit %d, want 0 (the rules found nothing high; a model finding is advisory)\n%s", code, stderr)
			}
			if got := reportedRules(t, stdout); !slices.Equal(got, tc.want) {
				t.Errorf("findings %q, want %q\n%s", got, tc.want, stderr)
			}
			l, _ := readLedger(t, dir)
			if got := l.dispositions(); !slices.Equal(got, tc.ledger) {
				t.Errorf("ledger %q, want %q", got, tc.ledger)
			}
			chats := s.Chats()
			if len(chats) != tc.chats {
				t.Errorf("%d chat requests, want %d", len(chats), tc.chats)
			}
			if tc.formats != nil {
				var formats []string
				for _, c := range chats {
					formats = append(formats, c.Format())
				}
				if !slices.Equal(formats, tc.formats) {
					t.Errorf("response formats %q, want %q", formats, tc.formats)
				}
			}
			if stream := strings.Contains(tc.more, "stream: true"); len(chats) > 0 && chats[0].Stream != stream {
				t.Errorf("streamed %v, want %v", chats[0].Stream, stream)
			}
			if !strings.Contains(stderr, "reviewls: model review (test-model): ") {
				t.Errorf("stderr lacks the ledger's line:\n%s", stderr)
			}
		})
	}
}

// TestModelCLIOverLong checks a prompt too long for the model's context:
// a file too large for one request is sent in parts, and a line too long
// for any request is refused, unverified over budget, saying why; the
// rest of the change is still reviewed.
func TestModelCLIOverLong(t *testing.T) {
	bin := buildBinary(t)
	var big strings.Builder
	big.WriteString("package calc\n\n// Table holds numbers.\nvar Table = []int{\n")
	for i := range 400 {
		big.WriteString("\t" + strings.Repeat("1", 1+i%7) + ",\n")
	}
	big.WriteString("}\n")
	long := "package calc\n\n// Blob is data.\nvar Blob = \"" + strings.Repeat("ab", 3000) + "\"\n"
	dir := modelRepo(t, txtar.File{Name: "work/calc/table.go", Data: []byte(big.String())}, txtar.File{Name: "work/calc/blob.go", Data: []byte(long)})
	s := llmtest.New(t, llmtest.Config{Flavor: llmtest.LlamaCpp, Context: 2048})
	m := newModelRun(t, bin, userModel(s, ""))
	stdout, stderr, code := m.run(dir, "review", "--format", "json")
	if code != 0 || !slices.Contains(reportedRules(t, stdout), "readiness/todo-added@7") {
		t.Fatalf("exit %d, findings %q\n%s", code, reportedRules(t, stdout), stderr)
	}
	l, _ := readLedger(t, dir)
	parts := 0
	for _, r := range l.Ledger.Requests {
		if slices.Equal(r.Files, []string{"calc/table.go"}) && r.Parts > 1 {
			parts++
		}
	}
	if parts < 2 {
		t.Errorf("calc/table.go in %d parts, want it split: %+v", parts, l.Ledger.Requests)
	}
	refused := false
	for _, e := range l.Ledger.Entries {
		if e.Reason == "over-budget" && strings.Contains(e.Evidence, "calc/blob.go: line 4 alone over the request budget") {
			refused = true
		}
	}
	if !refused {
		t.Errorf("the line too long for any request is not refused clearly: %q", l.dispositions())
	}
}

// TestModelCLIHallucinations is the hallucination suite end to end: the
// model answers with a candidate on a file outside the change, one on an
// unchanged line, one whose quote is not in the file, one repeating the
// rule finding, one citing the line before the one its quote is on, and a
// correct one. Each gets exactly its disposition in model-review.json,
// and only the relocated and the correct ones are findings of the report.
func TestModelCLIHallucinations(t *testing.T) {
	bin := buildBinary(t)
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Answer(
		llmtest.Finding{File: "calc/ghost.go", Line: 6, Quote: "for i := 0; i <= len(xs); i++ {", Title: "unknown file"},
		llmtest.Finding{File: "calc/calc.go", Line: 9, Quote: "return total", Title: "unchanged line"},
		llmtest.Finding{File: "calc/calc.go", Line: 6, Quote: "for i := range xs {", Title: "invented quote"},
		llmtest.Finding{File: "calc/calc.go", Line: 7, Quote: "total += xs[i] // TODO: overflow", Perspective: "readiness", Severity: "low", Title: "a TODO"},
		llmtest.Finding{File: "calc/calc.go", Line: 6, Quote: "total += xs[i] // TODO: overflow", Title: "xs[i] is out of range when i == len(xs)"},
		llmtest.Finding{File: "calc/calc.go", Line: 6, Quote: "for i := 0; i <= len(xs); i++ {", Title: "the loop runs once too often"},
	))})
	dir := modelRepo(t)
	m := newModelRun(t, bin, userModel(s, "  context: 8192\n"))
	stdout, stderr, code := m.run(dir, "review", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	l, _ := readLedger(t, dir)
	want := []string{"c1 refuted unknown-file", "c2 refuted unchanged-line", "c3 refuted quote-not-found",
		"c4 refuted duplicate", "c5 confirmed", "c6 confirmed"}
	if got := l.dispositions(); !slices.Equal(got, want) {
		t.Errorf("dispositions %q, want %q", got, want)
	}
	if r := l.Ledger.Entries[4].Relocated; r == nil || r.From != 6 || r.To != 7 {
		t.Errorf("c5 relocated %+v, want 6 -> 7", r)
	}
	if got, want := reportedRules(t, stdout), []string{"functional/model@6", "functional/model@7", "readiness/todo-added@7"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	if !strings.Contains(stderr, "6 candidates, 2 confirmed (1 relocated), 4 refuted (duplicate 1, quote-not-found 1, unchanged-line 1, unknown-file 1)") {
		t.Errorf("stderr lacks the ledger's figures:\n%s", stderr)
	}
}

// TestModelCLIFormats checks that a model finding appears in every format,
// naming its model, and that advisory it leaves the verdict and the exit
// code to the rules, while model.blocking makes it count for both.
func TestModelCLIFormats(t *testing.T) {
	bin := buildBinary(t)
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Answer(offByOne))})
	dir := modelRepo(t)
	m := newModelRun(t, bin, userModel(s, "  context: 8192\n"))
	for format, want := range map[string][]string{
		"text":     {"calc/calc.go:6:", "high functional/model: The loop reads one element past the end of xs [test-model]", "1 model finding advisory", "verdict: 💬 Approve with comments"},
		"json":     {`"rule_id": "functional/model"`, `"model": "test-model"`, `"verdict": "approve_with_comments"`},
		"markdown": {"`functional/model`", "**Model:** `test-model`, confirmed against the diff (advisory)", "## Model Review"},
		"sarif":    {`"ruleId": "functional/model"`, `"model": "test-model"`, `"advisory": true`},
		"river":    {`"ruleId": "functional/model"`, `"reviewer": "functional/model (test-model)"`},
	} {
		stdout, stderr, code := m.run(dir, "review", "--format", format, "--fail-on", "high")
		if code != 0 {
			t.Errorf("%s: exit %d, want 0: the high model finding is advisory\n%s", format, code, stderr)
		}
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s output lacks %q:\n%s", format, w, stdout)
			}
		}
	}

	blocking := newModelRun(t, bin, userModel(s, "  context: 8192\n  blocking: true\n"))
	stdout, stderr, code := blocking.run(dir, "review", "--format", "json", "--fail-on", "high")
	if code != 1 || !strings.Contains(stdout, `"verdict": "request_changes"`) {
		t.Errorf("blocking: exit %d, want 1 with the verdict request_changes\n%s\n%s", code, stdout, stderr)
	}
}

// TestModelCLICanaries reviews the canary repository (a secret in every
// place one can reach reviewls from, of every format) with the model on,
// and checks that no request body the server received holds one raw,
// while the requests did carry the change, redacted.
func TestModelCLICanaries(t *testing.T) {
	bin := buildBinary(t)
	dir := canaryRepo(t)
	s := llmtest.New(t, llmtest.Config{})
	m := newModelRun(t, bin, userModel(s, "  context: 32768\n"))
	for _, args := range [][]string{{"review"}, {"review", "--staged"}, {"review", "--base", "main"}} {
		if _, stderr, code := m.run(dir, args...); code > 1 {
			t.Fatalf("%s: exit %d\n%s", strings.Join(args, " "), code, redactedForLog([]byte(stderr)))
		}
	}
	var bodies bytes.Buffer
	for _, r := range s.Received() {
		bodies.Write(r.Body)
		bodies.WriteByte('\n')
	}
	if len(s.Chats()) < 3 {
		t.Fatalf("%d chat requests, want the change sent in each review", len(s.Chats()))
	}
	for _, c := range canaries {
		if bytes.Contains(bodies.Bytes(), []byte(c.value)) {
			t.Errorf("a request body holds the %s secret raw (%s)", c.where, review.Redact(c.value))
		}
	}
	for _, where := range []string{"added line", "removed line", "context line", "untracked file", "URL password", "INI key = value"} {
		if !bytes.Contains(bodies.Bytes(), []byte(review.Redact(canary(where)))) {
			t.Errorf("no request shows the %s secret redacted (%s): was it sent?", where, review.Redact(canary(where)))
		}
	}
}

// TestModelCLIReplay records a run in a transcript folder, then replays
// it with the server gone: the same stdout and model-review.json, byte
// for byte. A replay whose transcript lacks an answer writes the request
// to pending/ and leaves its candidates unverified.
func TestModelCLIReplay(t *testing.T) {
	bin := buildBinary(t)
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Answer(offByOne))})
	dir := modelRepo(t)
	transcript := filepath.Join(t.TempDir(), "transcript")
	m := newModelRun(t, bin, "")
	args := []string{"review", "--model", "test-model", "--model-endpoint", s.URL, "--model-transcript", transcript}
	recorded, stderr, code := m.run(dir, append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("record: exit %d\n%s", code, stderr)
	}
	_, recordedLedger := readLedger(t, dir)
	s.Close()
	replayed, stderr, code := m.run(dir, append(args, "--format", "json", "--model-replay")...)
	if code != 0 {
		t.Fatalf("replay: exit %d\n%s", code, stderr)
	}
	_, replayedLedger := readLedger(t, dir)
	if recorded != replayed {
		t.Errorf("the replay's stdout differs:\n%s\nrecorded:\n%s", replayed, recorded)
	}
	if !bytes.Equal(recordedLedger, replayedLedger) {
		t.Errorf("the replay's model-review.json differs:\n%s\nrecorded:\n%s", replayedLedger, recordedLedger)
	}
	if !slices.Contains(reportedRules(t, replayed), "functional/model@6") {
		t.Errorf("the replay lost the model finding: %q", reportedRules(t, replayed))
	}

	// A change the transcript has not seen: its request is pending.
	if err := os.WriteFile(filepath.Join(dir, "calc", "calc.go"), []byte(strings.Replace(calcWork, "overflow", "wrap", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = m.run(dir, append(args, "--model-replay")...)
	l, _ := readLedger(t, dir)
	pending, _ := filepath.Glob(filepath.Join(transcript, "pending", "*.json"))
	if code != 0 || !slices.Equal(l.dispositions(), []string{"u1 unverified not-recorded"}) || len(pending) != 1 ||
		filepath.Base(pending[0]) != l.Ledger.Requests[0].Key+".json" {
		t.Errorf("unseen change: exit %d, ledger %q, pending %q\n%s", code, l.dispositions(), pending, stderr)
	}
}

// TestModelCLISettings checks who may turn the model on and how: a
// cloned repository's model is withheld, with the one line, and nothing
// is sent; --no-model turns the user's off; --model without an endpoint
// is a usage error; a pre-commit hook asks a model that is not blocking
// nothing; an endpoint off this machine is named in one line before code
// is sent to it; and the progress step names the model and the host.
func TestModelCLISettings(t *testing.T) {
	bin := buildBinary(t)
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Answer(offByOne))})
	hostile := txtar.File{Name: "work/.reviewls.yaml", Data: []byte("model:\n  endpoint: " + s.URL + "\n  name: exfiltrate\n")}
	dir := modelRepo(t, hostile)
	none := newModelRun(t, bin, "")
	_, stderr, code := none.run(dir, "review")
	if code != 0 || len(s.Received()) != 0 || !strings.Contains(stderr, ".reviewls.yaml asks for model.endpoint: "+s.URL+" (sends code to a model endpoint); not done: this repository is not trusted") {
		t.Errorf("untrusted repository: exit %d, %d requests received\n%s", code, len(s.Received()), stderr)
	}

	dir = modelRepo(t)
	user := newModelRun(t, bin, userModel(s, "  context: 8192\n"))
	if _, stderr, code := user.run(dir, "review", "--no-model"); code != 0 || len(s.Received()) != 0 || strings.Contains(stderr, "model review") {
		t.Errorf("--no-model: exit %d, %d requests received\n%s", code, len(s.Received()), stderr)
	}
	if _, stderr, code := none.run(dir, "review", "--model", "m"); code != 2 || !strings.Contains(stderr, "reviewls: --model: no endpoint (model.endpoint in your configuration, or --model-endpoint URL)") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("--model without an endpoint: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := none.run(dir, "review", "--no-model", "--model", "m"); code != 2 || !strings.Contains(stderr, "--no-model cannot be combined") {
		t.Errorf("--no-model --model: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := user.run(dir, "review", "--staged", "--hook"); code != 0 || len(s.Received()) != 0 {
		t.Errorf("hook with an advisory model: exit %d, %d requests received\n%s", code, len(s.Received()), stderr)
	}

	// 0.0.0.0 reaches the loopback server, but is no loopback address.
	remote := strings.Replace(s.URL, "127.0.0.1", "0.0.0.0", 1)
	host := strings.TrimSuffix(strings.TrimPrefix(remote, "http://"), "/v1")
	if _, stderr, code := none.run(dir, "review", "--model", "m", "--model-endpoint", remote); code != 2 || !strings.Contains(stderr, host+" is not on this machine: set allow-remote: true") {
		t.Errorf("remote without allow-remote: exit %d\n%s", code, stderr)
	}
	far := newModelRun(t, bin, "model:\n  endpoint: "+remote+"\n  name: far\n  allow-remote: true\n  context: 8192\n")
	_, stderr, code = far.run(dir, "review", "--progress")
	notice := "reviewls: model review: sending the change's code to " + host + " (model far)\n"
	asking := "reviewls: asking far at " + host + "…\n"
	if code != 0 || !strings.Contains(stderr, notice+asking) || len(s.Chats()) != 1 {
		t.Errorf("remote: exit %d, %d chats; want the notice, then the progress step\n%s", code, len(s.Chats()), stderr)
	}
}
