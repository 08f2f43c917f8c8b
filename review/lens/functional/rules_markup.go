package functional

import "github.com/reviewls/reviewls/review/lens"

// markupRules returns the functional rules for markup.
func markupRules() []*lens.Rule { return nil }
