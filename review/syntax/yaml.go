package syntax

import (
	"go.yaml.in/yaml/v3"

	"github.com/reviewls/reviewls/review"
)

var yamlOf review.Memo[*yaml.Node]

// YAML returns the root mapping of a YAML file (a workflow, an action),
// memoised on f, or nil when it is not valid YAML or not a mapping.
func YAML(f *review.File) *yaml.Node {
	return yamlOf.Of(f, func() *yaml.Node {
		var doc yaml.Node
		if err := yaml.Unmarshal(f.Content, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			return (*yaml.Node)(nil)
		}
		return doc.Content[0]
	})
}

// YAMLKey returns the key and value nodes of key in mapping m, or nils.
func YAMLKey(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// YAMLPairs calls fn for each key and value of mapping m.
func YAMLPairs(m *yaml.Node, fn func(k, v *yaml.Node)) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		fn(m.Content[i], m.Content[i+1])
	}
}
