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
		"model-review.v1",
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

// The valid test documents the mutations start from.
const (
	docMeta     = "metadata-interactive.json"
	docMetaWF   = "metadata-workflow.json"
	docState    = "diff-state.json"
	docManifest = "dispatch-manifest.json"
	docFindings = "findings.json"
	docEmission = "emission-record.json"
	docBaseline = "baseline.json"
	docModel    = "model-review.json"
)

// invalidDocuments are mutations of the valid test documents that their
// schemas reject, each with a substring of one problem.
var invalidDocuments = []mutation{
	// .reviewls-baseline.json
	{"baseline line number", docBaseline, "/findings/0/line", 12, "/findings/0"},
	{"baseline cited code", docBaseline, "/findings/0/code", "key := ...", "/findings/0"},
	{"baseline missing count", docBaseline, "/findings/0/count", del{}, "/findings/0"},
	{"baseline zero count", docBaseline, "/findings/0/count", 0, "/findings/0/count"},
	{"baseline bad fingerprint", docBaseline, "/findings/0/fingerprint", "abc", "/findings/0/fingerprint"},
	{"baseline schema_version", docBaseline, "/schema_version", "2", "/schema_version"},

	// metadata.json
	{"metadata wrong schema_version", docMeta, "/schema_version", "2", "/schema_version"},
	{"metadata numeric schema_version", docMeta, "/schema_version", 1, "/schema_version"},
	{"metadata short head_commit", docMeta, "/head_commit", "3b1f0c2", "/head_commit"},
	{"metadata empty head_commit", docMetaWF, "/head_commit", "", "/head_commit"},
	{"metadata reviewed_at with offset", docMeta, "/reviewed_at", "2026-06-20T09:15:42+02:00", "/reviewed_at"},
	{"metadata reviewed_at fractional", docMeta, "/reviewed_at", "2026-06-20T09:15:42.5Z", "/reviewed_at"},
	{"metadata reviewed_at impossible date", docMeta, "/reviewed_at", "2026-02-30T09:15:42Z", "/reviewed_at"},
	{"metadata display verdict", docMeta, "/verdict", "✅ Approve", "/verdict"},
	{"metadata missing findings_count", docMeta, "/findings_count", del{}, "findings_count"},
	{"metadata findings_count extra key", docMeta, "/findings_count/info", 0, "/findings_count"},
	{"metadata negative count", docMeta, "/findings_count/low", -1, "/findings_count/low"},
	{"metadata reviewer not kebab", docMeta, "/reviewer", "Code Review", "/reviewer"},
	{"metadata unknown key", docMeta, "/extra", true, "extra"},
	{"metadata orientation walkthrough name", docMeta, "/artifacts/walkthrough", "orientation-walkthrough.md", "/artifacts/walkthrough"},
	{"metadata research walkback name", docMeta, "/artifacts/walkbacks/0", "walkback/board-1-research.md", "/artifacts/walkbacks/0"},
	{"metadata walkback outside folder", docMeta, "/artifacts/walkbacks/0", "../walkback/board-1-001-register-2.md", "/artifacts/walkbacks/0"},
	{"metadata empty artifacts", docMeta, "/artifacts", map[string]any{}, "/artifacts"},
	{"metadata unknown artifact key", docMeta, "/artifacts/findings", "x.json", "/artifacts"},

	// diff-state.json
	{"diff-state missing reviewTarget", docState, "/reviewTarget", del{}, "reviewTarget"},
	{"diff-state target missing id", docState, "/reviewTarget/id", del{}, "/reviewTarget"},
	{"diff-state target kind", docState, "/reviewTarget/kind", "local", "/reviewTarget/kind"},
	{"diff-state target provider", docState, "/reviewTarget/provider", "bitbucket", "/reviewTarget/provider"},
	{"diff-state target short sha", docState, "/reviewTarget/headSha", "abc", "/reviewTarget/headSha"},
	{"diff-state five evidence entries", docState, "/changeRiskEvidence/5", del{}, "/changeRiskEvidence"},
	{"diff-state duplicate signal", docState, "/changeRiskEvidence/5/signal", "history", "/changeRiskEvidence"},
	{"diff-state availability", docState, "/changeRiskEvidence/0/availability", "partial", "/changeRiskEvidence/0/availability"},
	{"diff-state recommendedDepth provenance", docState, "/reviewStateProvenance/recommendedDepth", "human-confirmed", "/reviewStateProvenance/recommendedDepth"},
	{"diff-state depth", docState, "/depthTier", "deep", "/depthTier"},
	{"diff-state diffPatchPath", docState, "/diffPatchPath", "pr-reference.xml", "/diffPatchPath"},
	{"diff-state findingsFolder without slash", docState, "/findingsFolder", ".copilot-tracking/reviews/code-reviews/feat-my-feature", "/findingsFolder"},
	{"diff-state pr perspective", docState, "/selectedPerspectives/0", "pr", "/selectedPerspectives/0"},
	{"diff-state task kind", docState, "/task/kind", "sweep", "/task"},
	{"diff-state task output path", docState, "/task/outputs/functional", "/tmp/functional-findings.json", "/task"},
	{"diff-state changeScore", docState, "/riskScore", 7, "riskScore"},
	{"diff-state scopeTier", docState, "/scopeTier", "SMALL", "/scopeTier"},
	{"diff-state skipped file without reason", docState, "/skippedFiles/0/reason", del{}, "/skippedFiles/0"},
	{"diff-state rejected finding extra key", docState, "/rejectedFindings/0/severity", "High", "/rejectedFindings/0"},
	{"diff-state hotspot class", docState, "/hotspotClasses/0/classes/0", "database", "/hotspotClasses/0/classes/0"},

	// dispatch-manifest.json
	{"manifest partial reviewTarget", docManifest, "/reviewTarget/baseRef", del{}, "/reviewTarget"},
	{"manifest duplicates evidence", docManifest, "/changeRiskEvidence", []any{}, "changeRiskEvidence"},
	{"manifest phase", docManifest, "/currentPhase", "review", "/currentPhase"},
	{"manifest missing gate", docManifest, "/phaseGates/emissionReady", del{}, "/phaseGates"},
	{"manifest gate type", docManifest, "/phaseGates/humanAccepted", "yes", "/phaseGates/humanAccepted"},
	{"manifest register", docManifest, "/boardItems/0/register", "register-3", "/boardItems/0/register"},
	{"manifest status", docManifest, "/boardItems/0/status", "done", "/boardItems/0/status"},
	{"manifest board id", docManifest, "/boardItems/0/id", "Board 1", "/boardItems/0/id"},
	{"manifest board links null", docManifest, "/boardItems/0/links", nil, "/boardItems/0/links"},
	{"manifest next action kind", docManifest, "/nextActions/0/kind", "sweep", "/nextActions/0/kind"},
	{"manifest finding id", docManifest, "/boardItems/0/findings/0", "f-1", "/boardItems/0/findings/0"},

	// findings
	{"findings lowercase severity", docFindings, "/findings/0/severity", "high", "/findings/0/severity"},
	{"findings lines word", docFindings, "/findings/0/lines", "line 42", "/findings/0/lines"},
	{"findings lines zero", docFindings, "/findings/0/lines", "0", "/findings/0/lines"},
	{"findings number zero", docFindings, "/findings/0/number", 0, "/findings/0/number"},
	{"findings missing skill", docFindings, "/findings/0/skill", del{}, "/findings/0"},
	{"findings missing id", docFindings, "/findings/0/id", del{}, "/findings/0"},
	{"findings bad fingerprint", docFindings, "/findings/0/id", "rr-1", "/findings/0/id"},
	{"findings bad rule id", docFindings, "/findings/0/rule_id", "ExpiredToken", "/findings/0/rule_id"},
	{"findings line_state", docFindings, "/findings/0/line_state", "dirty", "/findings/0/line_state"},
	{"findings risk", docFindings, "/changed_files/0/risk", "Critical", "/changed_files/0/risk"},
	{"findings no out_of_scope", docFindings, "/out_of_scope_observations", del{}, "out_of_scope_observations"},
	{"findings counts key", docFindings, "/severity_counts/High", 1, "/severity_counts"},
	{"findings specialist availability", docFindings, "/recommended_specialist_reviews/0/availability", "maybe", "/recommended_specialist_reviews/0/availability"},
	{"findings empty risk_assessment", docFindings, "/risk_assessment", "", "/risk_assessment"},

	// emission-record.json
	// model-review.json
	{"model confirmed without its finding", docModel, "/ledger/entries/0/finding_id", del{}, "/ledger/entries/0"},
	{"model confirmed with a reason", docModel, "/ledger/entries/0/reason", "duplicate", "/ledger/entries/0"},
	{"model refuted without a reason", docModel, "/ledger/entries/1/reason", del{}, "/ledger/entries/1"},
	{"model refuted for want of an answer", docModel, "/ledger/entries/1/reason", "timeout", "/ledger/entries/1"},
	{"model unverified with a refutation", docModel, "/ledger/entries/2/reason", "duplicate", "/ledger/entries/2"},
	{"model unknown disposition", docModel, "/ledger/entries/0/disposition", "plausible", "/ledger/entries/0/disposition"},
	{"model count by unknown reason", docModel, "/ledger/counts/refuted/wrong", 1, "/ledger/counts/refuted"},
	{"model request key", docModel, "/ledger/requests/0/key", "abc", "/ledger/requests/0/key"},
	{"model missing ledger", docModel, "/ledger", del{}, "ledger"},
	{"model missing blocking", docModel, "/blocking", del{}, "blocking"},

	{"emission mode", docEmission, "/mode", "Canonical", "/mode"},
	{"emission target", docEmission, "/target", "pr", "/target"},
	{"emission status", docEmission, "/status", "pending", "/status"},
	{"emission empty summary", docEmission, "/summary", "", "/summary"},
	{"emission extra key", docEmission, "/when", "now", "when"},
}

func TestInvalidDocuments(t *testing.T) {
	tests := invalidDocuments
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := mutate(t, readFile(t, filepath.Join("testdata/valid", tc.doc)), tc.ptr, tc.val)
			assertProblem(t, schemaOf(tc.doc), doc, tc.want)
		})
	}
}

// riverDoc is river.md example 5.2.
const riverDoc = "review-artifact-representative.json"

// riverTraps are the mutations of river.md example 5.2 that river.md
// section 6 lists as invalid.
var riverTraps = []mutation{
	{"timestamp without zone", riverDoc, "/timestamp", "2026-06-20T09:15:42", "/timestamp"},
	{"timestamp bare date", riverDoc, "/timestamp", "2026-06-20", "/timestamp"},
	{"numeric version", riverDoc, "/version", 1, "/version"},
	{"null line", riverDoc, "/findings/0/line", nil, "/findings/0/line"},
	{"null evidence", riverDoc, "/findings/0/evidence", nil, "/findings/0/evidence"},
	{"null findings", riverDoc, "/findings", nil, "/findings"},
	{"null plan", riverDoc, "/plan", nil, "/plan"},
	{"zero line", riverDoc, "/findings/0/line", 0, "/findings/0/line"},
	{"fractional line", riverDoc, "/findings/0/line", 88.5, "/findings/0/line"},
	{"empty message", riverDoc, "/findings/0/message", "", "/findings/0/message"},
	{"empty id", riverDoc, "/findings/0/id", "", "/findings/0/id"},
	{"empty ruleId", riverDoc, "/findings/0/ruleId", "", "/findings/0/ruleId"},
	{"empty title", riverDoc, "/findings/0/title", "", "/findings/0/title"},
	{"empty file", riverDoc, "/findings/0/file", "", "/findings/0/file"},
	{"severity blocker", riverDoc, "/findings/0/severity", "blocker", "/findings/0/severity"},
	{"severity title case", riverDoc, "/findings/0/severity", "Major", "/findings/0/severity"},
	{"finding category", riverDoc, "/findings/0/category", "maintainability", "/findings/0"},
	{"finding lineStart", riverDoc, "/findings/0/lineStart", 88, "/findings/0"},
	{"finding actionability", riverDoc, "/findings/0/actionability", 0.5, "/findings/0"},
	{"context extra key", riverDoc, "/context/repoName", "x", "/context"},
	{"usage extra key", riverDoc, "/usage", map[string]any{"provider": "openai", "calls": 1}, "/usage"},
	{"trace extra key", riverDoc, "/trace/span_id", "x", "/trace"},
	{"plan extra key", riverDoc, "/plan/budget", 1, "/plan"},
	{"selected skill extra key", riverDoc, "/plan/selectedSkills/0/tier", "x", "/plan/selectedSkills/0"},
	{"selected skill without name", riverDoc, "/plan/selectedSkills/0/name", del{}, "/plan/selectedSkills/0"},
	{"top-level extra key", riverDoc, "/verdict", "approve", "verdict"},
	{"suggestedLoopSignal (newer River only)", riverDoc, "/suggestedLoopSignal", "REVISE_REQUIRED", "suggestedLoopSignal"},
	{"decision pass", riverDoc, "/decision", "pass", "/decision"},
	{"reduction over 100", riverDoc, "/context/reduction", 120, "/context/reduction"},
	{"duplicate agreement", riverDoc, "/findings/0/agreement", []any{"a", "a"}, "/findings/0/agreement"},
	{"missing status", riverDoc, "/status", del{}, "status"},
}

// TestRiverTraps rejects each mutation of river.md example 5.2 that
// river.md section 6 lists as invalid, and accepts the free-form debug block.
func TestRiverTraps(t *testing.T) {
	const doc = riverDoc
	tests := riverTraps
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
func mutate(t testing.TB, doc []byte, ptr string, val any) []byte {
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

func setSlice(t testing.TB, root any, toks []string, s []any) {
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
