package accessibility

import "github.com/reviewls/reviewls/review/lens"

// markupRules returns the accessibility rules for markup.
func markupRules() []*lens.Rule { return nil }
