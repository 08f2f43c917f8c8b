package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSchemasCompile(t *testing.T) {
	all, err := compiled()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"baseline.v1",
		"config.v1",
		"diff-state.v1",
		"dispatch-manifest.v1",
		"emission-record.v1",
		"findings.v1",
		"metadata.v1",
		"review-artifact.v1",
	}
	if diff := cmp.Diff(want, Names()); diff != "" {
		t.Errorf("Names() mismatch (-want +got):\n%s", diff)
	}
	for _, n := range want {
		if all[n] == nil {
			t.Errorf("schema %s not compiled", n)
		}
	}
}

// TestSchemaFilesAreStrict checks the house rules of our own schemas: every
// object declares additionalProperties (false unless it is free-form by
// design), and each file has a description that records local decisions.
func TestSchemaFilesAreStrict(t *testing.T) {
	entries, err := fs.Glob(FS(), "*.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range entries {
		data, err := fs.ReadFile(FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d, _ := doc["description"].(string); d == "" {
			t.Errorf("%s: no top-level description", name)
		}
		walkObjects(doc, "", func(ptr string, obj map[string]any) {
			if obj["type"] != "object" || obj["properties"] == nil {
				return
			}
			ap, ok := obj["additionalProperties"]
			if !ok {
				t.Errorf("%s%s: object schema without additionalProperties", name, ptr)
				return
			}
			// Only River's debug block is free-form.
			if ap != false && !strings.Contains(ptr, "/debug") {
				t.Errorf("%s%s: additionalProperties is %v, want false", name, ptr, ap)
			}
		})
	}
}

func walkObjects(v any, ptr string, fn func(string, map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		fn(ptr, v)
		for k, c := range v {
			walkObjects(c, ptr+"/"+k, fn)
		}
	case []any:
		for i, c := range v {
			walkObjects(c, ptr+"/"+strconv.Itoa(i), fn)
		}
	}
}

// TestSharedDefinitionsAgree keeps the definitions duplicated across files
// (each schema file is self-contained) identical.
func TestSharedDefinitionsAgree(t *testing.T) {
	defs := func(file string) map[string]any {
		data, err := fs.ReadFile(FS(), file)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Defs map[string]any `json:"$defs"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Defs
	}
	ds := defs("diff-state.v1.schema.json")
	dm := defs("dispatch-manifest.v1.schema.json")
	for _, name := range []string{"reviewTarget", "depth", "perspective", "perspectives"} {
		if diff := cmp.Diff(ds[name], dm[name]); diff != "" {
			t.Errorf("$defs/%s differs between diff-state and dispatch-manifest (-diff-state +manifest):\n%s", name, diff)
		}
	}
}

func TestValidDocuments(t *testing.T) {
	files, err := filepath.Glob("testdata/valid/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no test documents")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			if err := Validate(schemaOf(file), readFile(t, file)); err != nil {
				t.Error(err)
			}
		})
	}
}

// schemaOf maps a test document name such as metadata-workflow.json to its
// schema.
func schemaOf(file string) string {
	base := strings.TrimSuffix(filepath.Base(file), ".json")
	for _, n := range Names() {
		s, _, _ := strings.Cut(n, ".v")
		if base == s || strings.HasPrefix(base, s+"-") {
			return s
		}
	}
	return base
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// del marks a value to delete in a mutation.
type del struct{}

type mutation struct {
	name string
	doc  string // testdata/valid file
	ptr  string // JSON pointer of the value to set or delete
	val  any
	want string // substring of one problem
}

func TestInvalidDocuments(t *testing.T) {
	const (
		meta     = "metadata-interactive.json"
		metaWF   = "metadata-workflow.json"
		state    = "diff-state.json"
		manifest = "dispatch-manifest.json"
		findings = "findings.json"
		emission = "emission-record.json"
		baseline = "baseline.json"
	)
	tests := []mutation{
		// .reviewls-baseline.json
		{"baseline line number", baseline, "/findings/0/line", 12, "/findings/0"},
		{"baseline cited code", baseline, "/findings/0/code", "key := ...", "/findings/0"},
		{"baseline missing count", baseline, "/findings/0/count", del{}, "/findings/0"},
		{"baseline zero count", baseline, "/findings/0/count", 0, "/findings/0/count"},
		{"baseline bad fingerprint", baseline, "/findings/0/fingerprint", "abc", "/findings/0/fingerprint"},
		{"baseline schema_version", baseline, "/schema_version", "2", "/schema_version"},

		// metadata.json
		{"metadata wrong schema_version", meta, "/schema_version", "2", "/schema_version"},
		{"metadata numeric schema_version", meta, "/schema_version", 1, "/schema_version"},
		{"metadata short head_commit", meta, "/head_commit", "3b1f0c2", "/head_commit"},
		{"metadata empty head_commit", metaWF, "/head_commit", "", "/head_commit"},
		{"metadata reviewed_at with offset", meta, "/reviewed_at", "2026-06-20T09:15:42+02:00", "/reviewed_at"},
		{"metadata reviewed_at fractional", meta, "/reviewed_at", "2026-06-20T09:15:42.5Z", "/reviewed_at"},
		{"metadata reviewed_at impossible date", meta, "/reviewed_at", "2026-02-30T09:15:42Z", "/reviewed_at"},
		{"metadata display verdict", meta, "/verdict", "✅ Approve", "/verdict"},
		{"metadata missing findings_count", meta, "/findings_count", del{}, "findings_count"},
		{"metadata findings_count extra key", meta, "/findings_count/info", 0, "/findings_count"},
		{"metadata negative count", meta, "/findings_count/low", -1, "/findings_count/low"},
		{"metadata reviewer not kebab", meta, "/reviewer", "Code Review", "/reviewer"},
		{"metadata unknown key", meta, "/extra", true, "extra"},
		{"metadata orientation walkthrough name", meta, "/artifacts/walkthrough", "orientation-walkthrough.md", "/artifacts/walkthrough"},
		{"metadata research walkback name", meta, "/artifacts/walkbacks/0", "walkback/board-1-research.md", "/artifacts/walkbacks/0"},
		{"metadata walkback outside folder", meta, "/artifacts/walkbacks/0", "../walkback/board-1-001-register-2.md", "/artifacts/walkbacks/0"},
		{"metadata empty artifacts", meta, "/artifacts", map[string]any{}, "/artifacts"},
		{"metadata unknown artifact key", meta, "/artifacts/findings", "x.json", "/artifacts"},

		// diff-state.json
		{"diff-state missing reviewTarget", state, "/reviewTarget", del{}, "reviewTarget"},
		{"diff-state target missing id", state, "/reviewTarget/id", del{}, "/reviewTarget"},
		{"diff-state target kind", state, "/reviewTarget/kind", "local", "/reviewTarget/kind"},
		{"diff-state target provider", state, "/reviewTarget/provider", "bitbucket", "/reviewTarget/provider"},
		{"diff-state target short sha", state, "/reviewTarget/headSha", "abc", "/reviewTarget/headSha"},
		{"diff-state five evidence entries", state, "/changeRiskEvidence/5", del{}, "/changeRiskEvidence"},
		{"diff-state duplicate signal", state, "/changeRiskEvidence/5/signal", "history", "/changeRiskEvidence"},
		{"diff-state availability", state, "/changeRiskEvidence/0/availability", "partial", "/changeRiskEvidence/0/availability"},
		{"diff-state recommendedDepth provenance", state, "/reviewStateProvenance/recommendedDepth", "human-confirmed", "/reviewStateProvenance/recommendedDepth"},
		{"diff-state depth", state, "/depthTier", "deep", "/depthTier"},
		{"diff-state diffPatchPath", state, "/diffPatchPath", "pr-reference.xml", "/diffPatchPath"},
		{"diff-state findingsFolder without slash", state, "/findingsFolder", ".copilot-tracking/reviews/code-reviews/feat-my-feature", "/findingsFolder"},
		{"diff-state pr perspective", state, "/selectedPerspectives/0", "pr", "/selectedPerspectives/0"},
		{"diff-state task kind", state, "/task/kind", "sweep", "/task"},
		{"diff-state task output path", state, "/task/outputs/functional", "/tmp/functional-findings.json", "/task"},
		{"diff-state changeScore", state, "/riskScore", 7, "riskScore"},
		{"diff-state scopeTier", state, "/scopeTier", "SMALL", "/scopeTier"},
		{"diff-state skipped file without reason", state, "/skippedFiles/0/reason", del{}, "/skippedFiles/0"},
		{"diff-state rejected finding extra key", state, "/rejectedFindings/0/severity", "High", "/rejectedFindings/0"},
		{"diff-state hotspot class", state, "/hotspotClasses/0/classes/0", "database", "/hotspotClasses/0/classes/0"},

		// dispatch-manifest.json
		{"manifest partial reviewTarget", manifest, "/reviewTarget/baseRef", del{}, "/reviewTarget"},
		{"manifest duplicates evidence", manifest, "/changeRiskEvidence", []any{}, "changeRiskEvidence"},
		{"manifest phase", manifest, "/currentPhase", "review", "/currentPhase"},
		{"manifest missing gate", manifest, "/phaseGates/emissionReady", del{}, "/phaseGates"},
		{"manifest gate type", manifest, "/phaseGates/humanAccepted", "yes", "/phaseGates/humanAccepted"},
		{"manifest register", manifest, "/boardItems/0/register", "register-3", "/boardItems/0/register"},
		{"manifest status", manifest, "/boardItems/0/status", "done", "/boardItems/0/status"},
		{"manifest board id", manifest, "/boardItems/0/id", "Board 1", "/boardItems/0/id"},
		{"manifest board links null", manifest, "/boardItems/0/links", nil, "/boardItems/0/links"},
		{"manifest next action kind", manifest, "/nextActions/0/kind", "sweep", "/nextActions/0/kind"},
		{"manifest finding id", manifest, "/boardItems/0/findings/0", "f-1", "/boardItems/0/findings/0"},

		// findings
		{"findings lowercase severity", findings, "/findings/0/severity", "high", "/findings/0/severity"},
		{"findings lines word", findings, "/findings/0/lines", "line 42", "/findings/0/lines"},
		{"findings lines zero", findings, "/findings/0/lines", "0", "/findings/0/lines"},
		{"findings number zero", findings, "/findings/0/number", 0, "/findings/0/number"},
		{"findings missing skill", findings, "/findings/0/skill", del{}, "/findings/0"},
		{"findings missing id", findings, "/findings/0/id", del{}, "/findings/0"},
		{"findings bad fingerprint", findings, "/findings/0/id", "rr-1", "/findings/0/id"},
		{"findings bad rule id", findings, "/findings/0/rule_id", "ExpiredToken", "/findings/0/rule_id"},
		{"findings line_state", findings, "/findings/0/line_state", "dirty", "/findings/0/line_state"},
		{"findings risk", findings, "/changed_files/0/risk", "Critical", "/changed_files/0/risk"},
		{"findings no out_of_scope", findings, "/out_of_scope_observations", del{}, "out_of_scope_observations"},
		{"findings counts key", findings, "/severity_counts/High", 1, "/severity_counts"},
		{"findings specialist availability", findings, "/recommended_specialist_reviews/0/availability", "maybe", "/recommended_specialist_reviews/0/availability"},
		{"findings empty risk_assessment", findings, "/risk_assessment", "", "/risk_assessment"},

		// emission-record.json
		{"emission mode", emission, "/mode", "Canonical", "/mode"},
		{"emission target", emission, "/target", "pr", "/target"},
		{"emission status", emission, "/status", "pending", "/status"},
		{"emission empty summary", emission, "/summary", "", "/summary"},
		{"emission extra key", emission, "/when", "now", "when"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := mutate(t, readFile(t, filepath.Join("testdata/valid", tc.doc)), tc.ptr, tc.val)
			assertProblem(t, schemaOf(tc.doc), doc, tc.want)
		})
	}
}

// TestRiverTraps rejects each mutation of river.md example 5.2 that
// river.md section 6 lists as invalid, and accepts the free-form debug block.
func TestRiverTraps(t *testing.T) {
	const doc = "review-artifact-representative.json"
	tests := []mutation{
		{"timestamp without zone", doc, "/timestamp", "2026-06-20T09:15:42", "/timestamp"},
		{"timestamp bare date", doc, "/timestamp", "2026-06-20", "/timestamp"},
		{"numeric version", doc, "/version", 1, "/version"},
		{"null line", doc, "/findings/0/line", nil, "/findings/0/line"},
		{"null evidence", doc, "/findings/0/evidence", nil, "/findings/0/evidence"},
		{"null findings", doc, "/findings", nil, "/findings"},
		{"null plan", doc, "/plan", nil, "/plan"},
		{"zero line", doc, "/findings/0/line", 0, "/findings/0/line"},
		{"fractional line", doc, "/findings/0/line", 88.5, "/findings/0/line"},
		{"empty message", doc, "/findings/0/message", "", "/findings/0/message"},
		{"empty id", doc, "/findings/0/id", "", "/findings/0/id"},
		{"empty ruleId", doc, "/findings/0/ruleId", "", "/findings/0/ruleId"},
		{"empty title", doc, "/findings/0/title", "", "/findings/0/title"},
		{"empty file", doc, "/findings/0/file", "", "/findings/0/file"},
		{"severity blocker", doc, "/findings/0/severity", "blocker", "/findings/0/severity"},
		{"severity title case", doc, "/findings/0/severity", "Major", "/findings/0/severity"},
		{"finding category", doc, "/findings/0/category", "maintainability", "/findings/0"},
		{"finding lineStart", doc, "/findings/0/lineStart", 88, "/findings/0"},
		{"finding actionability", doc, "/findings/0/actionability", 0.5, "/findings/0"},
		{"context extra key", doc, "/context/repoName", "x", "/context"},
		{"usage extra key", doc, "/usage", map[string]any{"provider": "openai", "calls": 1}, "/usage"},
		{"trace extra key", doc, "/trace/span_id", "x", "/trace"},
		{"plan extra key", doc, "/plan/budget", 1, "/plan"},
		{"selected skill extra key", doc, "/plan/selectedSkills/0/tier", "x", "/plan/selectedSkills/0"},
		{"selected skill without name", doc, "/plan/selectedSkills/0/name", del{}, "/plan/selectedSkills/0"},
		{"top-level extra key", doc, "/verdict", "approve", "verdict"},
		{"suggestedLoopSignal (newer River only)", doc, "/suggestedLoopSignal", "REVISE_REQUIRED", "suggestedLoopSignal"},
		{"decision pass", doc, "/decision", "pass", "/decision"},
		{"reduction over 100", doc, "/context/reduction", 120, "/context/reduction"},
		{"duplicate agreement", doc, "/findings/0/agreement", []any{"a", "a"}, "/findings/0/agreement"},
		{"missing status", doc, "/status", del{}, "status"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := mutate(t, readFile(t, filepath.Join("testdata/valid", tc.doc)), tc.ptr, tc.val)
			assertProblem(t, "review-artifact", doc, tc.want)
		})
	}

	t.Run("line 88.0 passes", func(t *testing.T) {
		doc := bytes.Replace(readFile(t, filepath.Join("testdata/valid", doc)), []byte(`"line": 88`), []byte(`"line": 88.0`), 1)
		if err := Validate("review-artifact", doc); err != nil {
			t.Error(err)
		}
	})
	t.Run("debug is free-form", func(t *testing.T) {
		doc := mutate(t, readFile(t, filepath.Join("testdata/valid", doc)), "/debug",
			map[string]any{"reviewls": map[string]any{"anything": []any{1, "two", nil}}})
		if err := Validate("review-artifact", doc); err != nil {
			t.Error(err)
		}
	})
}

func assertProblem(t *testing.T, schema string, doc []byte, want string) {
	t.Helper()
	err := Validate(schema, doc)
	if err == nil {
		t.Fatalf("Validate(%s) accepted the document:\n%s", schema, doc)
	}
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("Validate(%s) = %v (%T), want *SchemaError", schema, err, err)
	}
	for _, p := range se.Problems {
		if strings.Contains(p, want) {
			return
		}
	}
	t.Errorf("Validate(%s) problems do not mention %q:\n\t%s", schema, want, strings.Join(se.Problems, "\n\t"))
}

// mutate sets (or, for del{}, deletes) the value at ptr in doc.
func mutate(t *testing.T, doc []byte, ptr string, val any) []byte {
	t.Helper()
	var root any
	if err := json.Unmarshal(doc, &root); err != nil {
		t.Fatal(err)
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	parent := root
	for _, tok := range toks[:len(toks)-1] {
		switch p := parent.(type) {
		case map[string]any:
			parent = p[tok]
		case []any:
			i, _ := strconv.Atoi(tok)
			parent = p[i]
		default:
			t.Fatalf("pointer %s: %s is not a container", ptr, tok)
		}
	}
	last := toks[len(toks)-1]
	_, deleting := val.(del)
	switch p := parent.(type) {
	case map[string]any:
		if deleting {
			delete(p, last)
		} else {
			p[last] = val
		}
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i >= len(p) {
			t.Fatalf("pointer %s: bad index", ptr)
		}
		if deleting {
			// Deleting from a slice needs its parent; rebuild via a copy.
			setSlice(t, root, toks[:len(toks)-1], append(append([]any{}, p[:i]...), p[i+1:]...))
		} else {
			p[i] = val
		}
	default:
		t.Fatalf("pointer %s: parent is %T", ptr, parent)
	}
	out, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func setSlice(t *testing.T, root any, toks []string, s []any) {
	t.Helper()
	parent := root
	for _, tok := range toks[:len(toks)-1] {
		switch p := parent.(type) {
		case map[string]any:
			parent = p[tok]
		case []any:
			i, _ := strconv.Atoi(tok)
			parent = p[i]
		}
	}
	last := toks[len(toks)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = s
	case []any:
		i, _ := strconv.Atoi(last)
		p[i] = s
	}
}

func TestValidateErrors(t *testing.T) {
	t.Run("unknown schema", func(t *testing.T) {
		err := Validate("nope", []byte(`{}`))
		var se *SchemaError
		if err == nil || errors.As(err, &se) {
			t.Fatalf("Validate(nope) = %v, want a plain error", err)
		}
	})
	t.Run("invalid JSON", func(t *testing.T) {
		assertProblem(t, "emission-record", []byte(`{"mode":`), "invalid JSON")
	})
	t.Run("trailing data", func(t *testing.T) {
		assertProblem(t, "emission-record", []byte(`{} {}`), "invalid JSON")
	})
	t.Run("every problem listed", func(t *testing.T) {
		err := Validate("emission-record", []byte(`{"mode":"x","target":"y","status":"z","summary":""}`))
		var se *SchemaError
		if !errors.As(err, &se) {
			t.Fatalf("got %v", err)
		}
		want := []string{"/mode", "/status", "/summary", "/target"}
		var got []string
		for _, p := range se.Problems {
			ptr, _ := strconv.Unquote(strings.SplitN(strings.TrimPrefix(p, "at "), ":", 2)[0])
			got = append(got, ptr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("problem pointers (-want +got):\n%s\nerror: %v", diff, err)
		}
		if se.Schema != "emission-record.v1" {
			t.Errorf("Schema = %q", se.Schema)
		}
	})
	t.Run("versioned and file names resolve", func(t *testing.T) {
		doc := readFile(t, "testdata/valid/emission-record.json")
		for _, name := range []string{"emission-record", "emission-record.v1", "emission-record.v1.schema.json"} {
			if err := Validate(name, doc); err != nil {
				t.Errorf("Validate(%q): %v", name, err)
			}
		}
	})
}

func TestForFile(t *testing.T) {
	tests := map[string]string{
		"metadata.json":                      "metadata",
		"/x/y/diff-state.json":               "diff-state",
		"dispatch-manifest.json":             "dispatch-manifest",
		"security-findings.json":             "findings",
		"a/b/functional-findings.json":       "findings",
		`c:\r\emission-record.json`:          "emission-record",
		"review-artifact.json":               "review-artifact",
		"-findings.json":                     "",
		"findings.json":                      "",
		"review.md":                          "",
		"pr-reference.xml":                   "",
		"metadata.json.tmp":                  "",
		"explanations/board-1-Run.md":        "",
		"walkback/board-1-001-register-2.md": "",
	}
	for file, want := range tests {
		got, ok := ForFile(file)
		if got != want || ok != (want != "") {
			t.Errorf("ForFile(%q) = %q, %v; want %q", file, got, ok, want)
		}
	}
}

// TestFSServesEverySchema checks that FS exposes the files Validate uses,
// as valid JSON with the declared draft.
func TestFSServesEverySchema(t *testing.T) {
	for _, n := range Names() {
		data, err := fs.ReadFile(FS(), n+".schema.json")
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Schema string `json:"$schema"`
			ID     string `json:"$id"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if doc.Schema != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema = %q", n, doc.Schema)
		}
		if !strings.HasSuffix(doc.ID, "/"+n+".schema.json") {
			t.Errorf("%s: $id = %q does not name the file", n, doc.ID)
		}
	}
}

func TestConcurrentValidate(t *testing.T) {
	doc := readFile(t, "testdata/valid/findings.json")
	done := make(chan error)
	for range 8 {
		go func() { done <- Validate("findings", doc) }()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
