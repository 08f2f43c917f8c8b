package security

import "github.com/reviewls/reviewls/review/lens"

// goRules returns the security rules for Go.
func goRules() []*lens.Rule { return nil }
