package security

import (
	"go.yaml.in/yaml/v3"

	"github.com/reviewls/reviewls/review"
)

var actionsDocOf review.Memo[*yaml.Node]

// actionsDoc returns the root mapping of a workflow or action file,
// memoised on f, or nil when it is not valid YAML.
func actionsDoc(f *review.File) *yaml.Node {
	return actionsDocOf.Of(f, func() *yaml.Node {
		var doc yaml.Node
		if err := yaml.Unmarshal(f.Content, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			return (*yaml.Node)(nil)
		}
		return doc.Content[0]
	})
}

// yamlKey returns the key and value nodes of key in mapping m, or nils.
func yamlKey(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
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

// yamlPairs calls fn for each key and value of mapping m.
func yamlPairs(m *yaml.Node, fn func(k, v *yaml.Node)) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		fn(m.Content[i], m.Content[i+1])
	}
}
