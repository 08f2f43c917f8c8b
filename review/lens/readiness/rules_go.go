package readiness

import "github.com/reviewls/reviewls/review/lens"

// goRules returns the readiness rules for Go.
func goRules() []*lens.Rule { return nil }
