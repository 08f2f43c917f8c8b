package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const goodCandidate = `{"file": "a.go", "line": 3, "end_line": null, "quote": "x := y", "perspective": "functional",
	"severity": "high", "title": "T", "rationale": "R", "suggested_fix": null, "confidence": "medium"}`

func TestParseAnswer(t *testing.T) {
	want := Candidate{File: "a.go", Line: 3, Quote: "x := y", Perspective: "functional", Severity: "high", Title: "T", Rationale: "R", Confidence: "medium"}
	for _, tc := range []struct {
		name    string
		content string
		want    []Candidate
		err     string // a part of the error; "" for none
	}{
		{"an answer", `{"findings": [` + goodCandidate + `]}`, []Candidate{want}, ""},
		{"no findings", `{"findings": []}`, []Candidate{}, ""},
		{"in a code fence", "```json\n{\"findings\": [" + goodCandidate + "]}\n```", []Candidate{want}, ""},
		{"after a reasoning block", "<think>\nThe loop is fine.\n</think>\n{\"findings\": []}", []Candidate{}, ""},
		{"capitalised enum values", `{"findings": [` + strings.NewReplacer(`"functional"`, `"Functional"`, `"high"`, `"HIGH"`, `"medium"`, `"Medium"`).Replace(goodCandidate) + `]}`, []Candidate{want}, ""},
		{"extra properties", `{"findings": [` + strings.Replace(goodCandidate, `"file"`, `"id": 7, "file"`, 1) + `], "summary": "x"}`, []Candidate{want}, ""},
		{"optional properties set", `{"findings": [` + strings.NewReplacer(`"end_line": null`, `"end_line": 4`, `"suggested_fix": null`, `"suggested_fix": "y"`).Replace(goodCandidate) + `]}`,
			[]Candidate{{File: "a.go", Line: 3, EndLine: 4, Quote: "x := y", Perspective: "functional", Severity: "high", Title: "T", Rationale: "R", SuggestedFix: "y", Confidence: "medium"}}, ""},
		{"a candidate off the schema", `{"findings": [{"file": "a.go", "line": "3", "quote": "q", "perspective": "style", "severity": "high", "title": "T", "rationale": "R", "confidence": "sure"}]}`,
			[]Candidate{{File: "a.go", Quote: "q", Perspective: "style", Severity: "high", Title: "T", Rationale: "R", Confidence: "sure",
				Problem: `/end_line: missing; /suggested_fix: missing; /confidence: "sure" is not one of high, medium, low; /line: string, want integer; /perspective: "style" is not one of functional, security, accessibility, readiness`}}, ""},
		{"a candidate that is not an object", `{"findings": ["a.go:3"]}`, []Candidate{{Problem: "the candidate is not a JSON object"}}, ""},

		{"truncated", `{"findings": [{"file": "a.go", "line": 3, "quo`, nil, "unexpected EOF"},
		{"not JSON", `I found no defects.`, nil, "invalid character"},
		{"no findings property", `{"issues": []}`, nil, `no "findings" property`},
		{"findings not an array", `{"findings": {"file": "a.go"}}`, nil, `"findings" is not an array`},
		{"findings null", `{"findings": null}`, nil, `"findings" is not an array`},
		{"two objects", `{"findings": []} {"findings": []}`, nil, "text after the JSON object"},
		{"an array", `[]`, nil, "cannot unmarshal array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAnswer(tc.content)
			if tc.err != "" {
				if err == nil || !errors.Is(err, ErrUnparseable) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want an unparseable answer error holding %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAnswerSchema checks the embedded answer schema with an independent
// draft 2020-12 validator: it compiles, and the parser flags a candidate
// exactly when the validator rejects it, so the request and the parser
// share one contract.
func TestAnswerSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(answerSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("answer.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("answer.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, cand := range []string{
		goodCandidate,
		strings.Replace(goodCandidate, `"high"`, `"urgent"`, 1),
		strings.Replace(goodCandidate, `"functional"`, `"standards"`, 1),
		strings.Replace(goodCandidate, `"medium"`, `"certain"`, 1),
		strings.Replace(goodCandidate, `"line": 3`, `"line": "3"`, 1),
		strings.Replace(goodCandidate, `"line": 3`, `"line": 3.5`, 1),
		strings.Replace(goodCandidate, `"end_line": null`, `"end_line": 9`, 1),
		strings.Replace(goodCandidate, `"end_line": null, `, ``, 1),
		strings.Replace(goodCandidate, `"quote": "x := y", `, ``, 1),
		strings.Replace(goodCandidate, `"suggested_fix": null`, `"suggested_fix": 4`, 1),
		strings.Replace(goodCandidate, `"title": "T"`, `"title": null`, 1),
	} {
		answer := `{"findings": [` + cand + `]}`
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(answer))
		if err != nil {
			t.Fatal(err)
		}
		schemaOK := sch.Validate(inst) == nil
		got, err := ParseAnswer(answer)
		if err != nil {
			t.Fatalf("%s: %v", cand, err)
		}
		if parserOK := got[0].Problem == ""; parserOK != schemaOK {
			t.Errorf("%s: schema valid %v, parser problem %q", cand, schemaOK, got[0].Problem)
		}
	}
	// The schema a request sends is this one, only without white space.
	var sent, file any
	if err := json.Unmarshal(compactSchema, &sent); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(answerSchema, &file); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(file, sent); diff != "" {
		t.Errorf("the schema requests send differs from answer.schema.json (-file +sent):\n%s", diff)
	}
}
