package standards

import "github.com/reviewls/reviewls/review/lens"

// goRules returns the standards rules for Go.
func goRules() []*lens.Rule {
	return []*lens.Rule{
		Gofmt,
		ExportedUndocumented,
		GoNaming,
	}
}
