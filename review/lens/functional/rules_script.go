package functional

import "github.com/reviewls/reviewls/review/lens"

// scriptRules returns the functional rules for scripting, configuration and build languages.
func scriptRules() []*lens.Rule {
	return []*lens.Rule{BareExcept, MutableDefault, IsLiteral, OffByOneIndex, NullEquality, FloatingPromise, MissingAwait, AsyncForEach}
}
