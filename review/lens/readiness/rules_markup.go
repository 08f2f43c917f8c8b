package readiness

import "github.com/reviewls/reviewls/review/lens"

// markupRules returns the readiness rules for markup.
func markupRules() []*lens.Rule { return nil }
