package readiness

import "github.com/reviewls/reviewls/review/lens"

// scriptRules returns the readiness rules for scripting, configuration and build languages.
func scriptRules() []*lens.Rule {
	return []*lens.Rule{FocusedTest, SkippedTest, MissingTestChange, MigrationWithoutRollback, UndocumentedChange}
}
