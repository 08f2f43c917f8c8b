package security

import "github.com/reviewls/reviewls/review/lens"

// markupRules returns the security rules for markup.
func markupRules() []*lens.Rule { return nil }
