package standards

import "github.com/reviewls/reviewls/review/lens"

// scriptRules returns the standards rules for scripting, configuration and build languages.
func scriptRules() []*lens.Rule {
	return []*lens.Rule{DebugStatement, CommentedOutCode, LongFunction}
}
