package accessibility

import "github.com/reviewls/reviewls/review/lens"

// scriptRules returns the accessibility rules for scripting, configuration and build languages.
func scriptRules() []*lens.Rule { return nil }
