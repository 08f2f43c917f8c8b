package accessibility

import "github.com/reviewls/reviewls/review/lens"

// goRules returns the accessibility rules for Go.
func goRules() []*lens.Rule { return nil }
