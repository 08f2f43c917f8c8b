package standards

import "github.com/reviewls/reviewls/review/lens"

// markupRules returns the standards rules for markup.
func markupRules() []*lens.Rule { return nil }
