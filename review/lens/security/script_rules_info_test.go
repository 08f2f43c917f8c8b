package security

import (
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestScriptRulesInfo checks the catalog entries of the scripting rules:
// ids, categories, severities, depths, skills and one-paragraph docs.
func TestScriptRulesInfo(t *testing.T) {
	cats := []string{CatAuth, CatInput, CatSecrets, CatInjection, CatParsing, CatData}
	seen := map[string]bool{}
	for _, rule := range scriptRules() {
		id := rule.ID
		switch {
		case !strings.HasPrefix(id, "security/") || seen[id]:
			t.Errorf("%s: bad or duplicate id", id)
		case !slices.Contains(cats, rule.Category):
			t.Errorf("%s: category %q is not one of %q", id, rule.Category, cats)
		case !rule.Severity.Valid() || !rule.Depth.Valid() || len(rule.Languages) == 0:
			t.Errorf("%s: severity, depth or languages unset", id)
		case !strings.HasPrefix(rule.Skill, "CWE-"):
			t.Errorf("%s: unexpected skill %q", id, rule.Skill)
		case rule.Summary == "" || strings.Contains(rule.Summary, "\n"):
			t.Errorf("%s: summary must be one line", id)
		case rule.Doc == "" || strings.Contains(rule.Doc, "\n"):
			t.Errorf("%s: doc must be one paragraph", id)
		case rule.Bad == "" || rule.Good == "" || rule.Bad == rule.Good:
			t.Errorf("%s: bad and good examples missing", id)
		case rule.CrossFile && rule.Depth < review.DepthStandard:
			t.Errorf("%s: a cross-file rule runs at depth standard or above", id)
		}
		seen[id] = true
	}
}
