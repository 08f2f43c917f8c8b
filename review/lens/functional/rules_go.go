package functional

import "github.com/reviewls/reviewls/review/lens"

// goRules returns the functional rules for Go.
func goRules() []*lens.Rule {
	return []*lens.Rule{
		IgnoredError,
		SwallowedError,
		UnclosedBody,
		DeferInLoop,
		LoopVarCapture,
		UncheckedTypeAssertion,
		NilMapWrite,
		ContextBackground,
		LostCancel,
		GoAnalysis,
	}
}
