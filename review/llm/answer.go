package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Candidate is one finding a model proposes: what the answer schema's
// candidate holds. Problem, when set, says how it breaks the schema.
type Candidate struct {
	// File is relative to the repository root, as the request's heading
	// gave it.
	File string `json:"file"`
	// Line and EndLine are new-side lines; EndLine is 0 when absent.
	Line    int    `json:"line"`
	EndLine int    `json:"end_line,omitempty"`
	Quote   string `json:"quote"`
	// Perspective, Severity and Confidence are as the model wrote them.
	Perspective  string `json:"perspective"`
	Severity     string `json:"severity"`
	Title        string `json:"title"`
	Rationale    string `json:"rationale"`
	SuggestedFix string `json:"suggested_fix,omitempty"`
	Confidence   string `json:"confidence"`
	// Problem is how the candidate breaks the answer schema ("" when it
	// does not): "/severity: \"urgent\" is not one of ...".
	Problem string `json:"-"`
}

// property is what the answer schema says of one candidate property.
type property struct {
	types []string // JSON types: "string", "integer", "null"
	enum  []string
}

// candidateSchema is the candidate definition of the answer schema, read
// from the embedded file, so the parser checks exactly what the request
// asks for.
var candidateSchema = func() struct {
	required []string
	props    map[string]property
} {
	var doc struct {
		Defs struct {
			Candidate struct {
				Required   []string `json:"required"`
				Properties map[string]struct {
					Type json.RawMessage `json:"type"`
					Enum []string        `json:"enum"`
				} `json:"properties"`
			} `json:"candidate"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(answerSchema, &doc); err != nil {
		panic("llm: answer.schema.json: " + err.Error())
	}
	out := struct {
		required []string
		props    map[string]property
	}{required: doc.Defs.Candidate.Required, props: map[string]property{}}
	for name, p := range doc.Defs.Candidate.Properties {
		var pr property
		if err := json.Unmarshal(p.Type, &pr.types); err != nil {
			var one string
			if json.Unmarshal(p.Type, &one) != nil {
				panic("llm: answer.schema.json: type of " + name)
			}
			pr.types = []string{one}
		}
		pr.enum = p.Enum
		out.props[name] = pr
	}
	return out
}()

// ErrUnparseable is wrapped by [ParseAnswer]'s errors: the answer is not
// an answer.
var ErrUnparseable = errors.New("unparseable answer")

// ParseAnswer reads a model's answer: a JSON object {"findings": [...]}
// as answer.schema.json describes it. A reasoning block (<think>…</think>)
// and a Markdown code fence around the JSON are tolerated, as small
// models in JSON mode write them. An answer that is not such an object is
// an error wrapping [ErrUnparseable]; a candidate that breaks the schema
// is returned with its Problem set, so the ledger still records it.
// Properties the schema does not name are ignored, and enum values are
// matched in any case.
func ParseAnswer(content string) ([]Candidate, error) {
	body := unwrap(content)
	var top map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(body))
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnparseable, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: text after the JSON object", ErrUnparseable)
	}
	raw, ok := top["findings"]
	if !ok {
		return nil, fmt.Errorf("%w: no \"findings\" property", ErrUnparseable)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil && string(bytes.TrimSpace(raw)) == "null" {
		return nil, fmt.Errorf("%w: \"findings\" is not an array", ErrUnparseable)
	}
	out := make([]Candidate, len(items))
	for i, item := range items {
		out[i] = parseCandidate(item)
	}
	return out, nil
}

// unwrap returns the JSON inside content: without a leading reasoning
// block and a surrounding code fence.
func unwrap(content string) string {
	s := strings.TrimSpace(content)
	if rest, ok := strings.CutPrefix(s, "<think>"); ok {
		if _, after, ok := strings.Cut(rest, "</think>"); ok {
			s = strings.TrimSpace(after)
		}
	}
	if strings.HasPrefix(s, "```") {
		if nl := strings.IndexByte(s, '\n'); nl >= 0 {
			inner := strings.TrimSpace(s[nl+1:])
			if body, ok := strings.CutSuffix(inner, "```"); ok {
				s = strings.TrimSpace(body)
			}
		}
	}
	return s
}

// parseCandidate reads one candidate, checking it against the schema.
func parseCandidate(item json.RawMessage) Candidate {
	var c Candidate
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(item, &obj); err != nil || obj == nil {
		c.Problem = "the candidate is not a JSON object"
		return c
	}
	var problems []string
	for _, name := range candidateSchema.required {
		if _, ok := obj[name]; !ok {
			problems = append(problems, fmt.Sprintf("/%s: missing", name))
		}
	}
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p, known := candidateSchema.props[name]
		if !known {
			continue
		}
		if len(p.enum) > 0 {
			obj[name] = lowerString(obj[name])
		}
		if msg := p.check(obj[name]); msg != "" {
			problems = append(problems, "/"+name+": "+msg)
		}
	}
	// The well-typed values are read even when others are not, so the
	// ledger shows what the model said.
	read := func(name string, v any) {
		if raw, ok := obj[name]; ok && string(raw) != "null" {
			_ = json.Unmarshal(raw, v)
		}
	}
	read("file", &c.File)
	read("line", &c.Line)
	read("end_line", &c.EndLine)
	read("quote", &c.Quote)
	read("perspective", &c.Perspective)
	read("severity", &c.Severity)
	read("title", &c.Title)
	read("rationale", &c.Rationale)
	read("suggested_fix", &c.SuggestedFix)
	read("confidence", &c.Confidence)
	c.Problem = strings.Join(problems, "; ")
	return c
}

// lowerString returns a JSON string in lower case, and any other value as
// it is: enum values ("High", "Security") are matched case-insensitively,
// as models in JSON mode capitalise them.
func lowerString(raw json.RawMessage) json.RawMessage {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return raw
	}
	b, _ := json.Marshal(strings.ToLower(s))
	return b
}

// check returns how raw breaks p, or "".
func (p property) check(raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "not JSON"
	}
	typ := jsonType(v)
	if !slices.Contains(p.types, typ) && !(typ == "integer" && slices.Contains(p.types, "number")) {
		return fmt.Sprintf("%s, want %s", typ, strings.Join(p.types, " or "))
	}
	if s, ok := v.(string); ok && len(p.enum) > 0 && !slices.Contains(p.enum, s) {
		return fmt.Sprintf("%q is not one of %s", s, strings.Join(p.enum, ", "))
	}
	return ""
}

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}
