package security

import "github.com/reviewls/reviewls/review/lens"

// markupRules returns the security rules for markup. It also holds the
// language-neutral secret heuristics, which apply to every file.
func markupRules() []*lens.Rule { return []*lens.Rule{GenericSecret} }
