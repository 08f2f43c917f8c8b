package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/config"
	"github.com/reviewls/reviewls/review/engine"
	"github.com/reviewls/reviewls/schemas"
)

// schemaProp is the part of a JSON Schema property the documentation
// shows.
type schemaProp struct {
	Description string                `json:"description"`
	Default     any                   `json:"default"`
	Type        string                `json:"type"`
	Enum        []any                 `json:"enum"`
	Examples    []any                 `json:"examples"`
	Properties  map[string]schemaProp `json:"properties"`
}

type configSchema struct {
	Title       string                `json:"title"`
	Description string                `json:"description"`
	Properties  map[string]schemaProp `json:"properties"`
}

// TestConfigurationDoc checks docs/configuration.md against the
// configuration schema it is generated from, and the schema against the
// parser: the same keys, and every documented example is a configuration
// both accept. Run `go test ./cmd/reviewls -run ConfigurationDoc -update`
// to regenerate the page.
func TestConfigurationDoc(t *testing.T) {
	data, err := fs.ReadFile(schemas.FS(), "config.v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s configSchema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	var inSchema []string
	for k := range s.Properties {
		inSchema = append(inSchema, k)
	}
	slices.Sort(inSchema)
	parsed := config.Keys()
	slices.Sort(parsed)
	if !slices.Equal(inSchema, parsed) {
		t.Fatalf("the schema's keys %v differ from the parser's %v", inSchema, parsed)
	}
	var ids []string
	for _, r := range engine.Rules() {
		ids = append(ids, r.ID)
	}
	for _, k := range config.Keys() {
		p := s.Properties[k]
		if p.Description == "" || len(p.Examples) == 0 {
			t.Errorf("%s: the schema needs a description and an example", k)
		}
		for _, ex := range p.Examples {
			doc := exampleYAML(t, k, ex)
			if _, err := config.Parse(config.FileName, []byte(doc), ids); err != nil {
				t.Errorf("%s: example rejected by the parser: %v\n%s", k, err, doc)
			}
			js, _ := json.Marshal(exampleDoc(k, ex))
			if err := schemas.Validate("config", js); err != nil {
				t.Errorf("%s: example rejected by the schema: %v", k, err)
			}
		}
	}

	// The documented defaults are the product's.
	for key, want := range map[string]any{
		"function-length": float64(review.DefaultFunctionLength),
		"baseline":        review.BaselineFile,
		"fail-on":         strings.ToLower(review.DefaultFailOn.String()),
		"commit-reviews":  false,
	} {
		if got := s.Properties[key].Default; got != want {
			t.Errorf("%s: the schema's default %v, the product's %v", key, got, want)
		}
	}
	caps := s.Properties["max-findings"]
	if want := map[string]any{"per-file": float64(review.DefaultMaxPerFile), "per-review": float64(review.DefaultMaxPerReview)}; !maps.Equal(caps.Default.(map[string]any), want) ||
		caps.Properties["per-file"].Default != want["per-file"] || caps.Properties["per-review"].Default != want["per-review"] {
		t.Errorf("max-findings: the schema's defaults %v, the product's %v", caps.Default, want)
	}
	if cfg, err := config.Parse(config.FileName, []byte("size-cap: "+s.Properties["size-cap"].Default.(string)), nil); err != nil || cfg.SizeCap != review.DefaultSizeCap {
		t.Errorf("size-cap: the schema's default %v is not the product's %d bytes (%v)", s.Properties["size-cap"].Default, review.DefaultSizeCap, err)
	}

	checkDoc(t, "../../docs/configuration.md", configMarkdown(t, s), "go test ./cmd/reviewls -run ConfigurationDoc -update")
}

// companions are the settings an example of a key needs beside it: a key
// that would do nothing alone is an error.
var companions = map[string]map[string]any{"perspectives": {"profile": "custom"}}

// exampleDoc is the configuration that shows the example v of key.
func exampleDoc(key string, v any) map[string]any {
	doc := map[string]any{key: v}
	for k, c := range companions[key] {
		doc[k] = c
	}
	return doc
}

func exampleYAML(t *testing.T, key string, v any) string {
	t.Helper()
	out, err := yaml.Marshal(exampleDoc(key, v))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// configMarkdown renders the schema as the configuration reference.
func configMarkdown(t *testing.T, s configSchema) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Configuration: `.reviewls.yaml`\n\n")
	fmt.Fprintf(&b, "<!-- Generated from schemas/config.v1.schema.json by `go test ./cmd/reviewls -run ConfigurationDoc -update`; edit the schema, not this file. -->\n\n")
	fmt.Fprintf(&b, "%s Editors and CI validate the file against [`schemas/config.v1.schema.json`](../schemas/config.v1.schema.json); `reviewls review` reports a bad key or value with its line and exits 2.\n\n", s.Description)
	b.WriteString("| Key | Type | Default |\n|---|---|---|\n")
	for _, k := range config.Keys() {
		p := s.Properties[k]
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", k, k, typeText(p), defaultText(p))
	}
	b.WriteString("\n")
	for _, k := range config.Keys() {
		p := s.Properties[k]
		fmt.Fprintf(&b, "## `%s`\n\n%s\n\n", k, p.Description)
		if len(p.Enum) > 0 {
			fmt.Fprintf(&b, "Values: %s.\n\n", enumText(p.Enum))
		}
		for _, sub := range sortedKeys(p.Properties) {
			sp := p.Properties[sub]
			what := typeText(sp)
			if sp.Default != nil {
				what += ", default " + defaultText(sp)
			}
			fmt.Fprintf(&b, "- `%s.%s` (%s): %s\n", k, sub, what, sp.Description)
		}
		if len(p.Properties) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("```yaml\n")
		for _, ex := range p.Examples {
			b.WriteString(exampleYAML(t, k, ex))
		}
		b.WriteString("```\n\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func typeText(p schemaProp) string {
	switch {
	case len(p.Enum) > 0:
		return "one of " + enumText(p.Enum)
	case p.Type == "array":
		return "list"
	case p.Type == "object":
		return "mapping"
	case p.Type != "":
		return p.Type
	}
	return "integer or string" // size-cap's anyOf
}

func enumText(enum []any) string {
	var out []string
	for _, v := range enum {
		if s, ok := v.(string); ok && strings.ToLower(s) != s {
			continue // the capitalised spellings are accepted, not taught
		}
		out = append(out, fmt.Sprintf("`%v`", v))
	}
	return strings.Join(out, ", ")
}

// defaultText is what an absent key means: the schema's default, or
// nothing set.
func defaultText(p schemaProp) string {
	if p.Default == nil {
		return "not set"
	}
	if m, ok := p.Default.(map[string]any); ok {
		// A mapping's default as YAML writes it in flow style.
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			kv = append(kv, fmt.Sprintf("%s: %v", k, m[k]))
		}
		return "`{" + strings.Join(kv, ", ") + "}`"
	}
	return fmt.Sprintf("`%v`", p.Default)
}

func sortedKeys(m map[string]schemaProp) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
