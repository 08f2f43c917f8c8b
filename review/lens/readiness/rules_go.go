package readiness

import "github.com/reviewls/reviewls/review/lens"

// goRules returns the readiness rules for Go, and the dependency check
// shared by the Go, Node and Python manifests.
func goRules() []*lens.Rule {
	return []*lens.Rule{
		LocalReplace,
		NewDependency,
	}
}
