package schemas

import (
	"encoding/json"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestConfigSchema checks the configuration schema against YAML documents
// of the kind users write, read the way an editor's YAML language server
// reads them.
func TestConfigSchema(t *testing.T) {
	valid := []string{
		"",
		"profile: standard\n",
		"profile: custom\nperspectives: [security, functional]\ndepth: comprehensive\n",
		"rules:\n  readiness/todo-added: off\n  security/weak-crypto: high\n",
		"ignore: ['vendor/**', '**/*.pb.go']\nbase: origin/main\nfail-on: never\nsize-cap: 2MiB\nfunction-length: 100\n",
		"size-cap: 1048576\n",
		"allow-secrets:\n  - security/hardcoded-secret:cmd/a.go:0123456789abcdef\n",
		"analysis: {budget: 5s}\n",
		"analysis:\n  budget: 1m30s\n",
		"rules:\n  security/generic-secret: critical\n  standards/long-function: low\nfunction-length: 40\n",
		"allow-secrets:\n  - security/generic-secret:.env:0123456789abcdef\n",
	}
	invalid := []string{
		"rulez: {}\n",
		"depth: deep\n",
		"perspectives: [perf]\n",
		"rules:\n  todo-added: off\n",
		"rules:\n  readiness/todo-added: loud\n",
		"fail-on: sometimes\n",
		"size-cap: big\n",
		"function-length: 0\n",
		"ignore: vendor\n",
		"allow-secrets: [AKIAZ7Q2R5T6W3X4Y6B2]\n",
		"allow-secrets: security/hardcoded-secret:cmd/a.go:0123456789abcdef\n",
		"analysis: {budget: soon}\n",
		"analysis: {timeout: 5s}\n",
		"analysis: 5s\n",
		// Keys that would do nothing, and a secret gate turned down.
		"perspectives: [functional]\n",
		"profile: full\nperspectives: [functional]\n",
		"profile: custom\n",
		"profile: custom\nperspectives: []\n",
		"rules:\n  standards/long-function: off\nfunction-length: 40\n",
		"rules:\n  security/hardcoded-secret: off\n",
		"rules:\n  security/generic-secret: medium\n",
		"allow-secrets:\n  - security/weak-crypto:cmd/a.go:0123456789abcdef\n",
	}
	check := func(doc string) error {
		var v any
		if err := yaml.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		if v == nil {
			v = map[string]any{}
		}
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		return Validate("config", data)
	}
	for _, doc := range valid {
		if err := check(doc); err != nil {
			t.Errorf("valid %q rejected: %v", doc, err)
		}
	}
	for _, doc := range invalid {
		if err := check(doc); err == nil {
			t.Errorf("invalid %q accepted", doc)
		}
	}
}
