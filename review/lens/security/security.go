// Package security holds the rules of the security perspective:
// authentication and authorization, input validation, secrets and sensitive
// data, injection, serialization and parsing, dependency and data handling
// (hve-spec §6.4). A security finding names a concrete exploit path.
package security

import (
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// Categories of the security perspective (hve-spec §6.4).
const (
	CatAuth      = "Authentication & Authorization"
	CatInput     = "Input Validation"
	CatSecrets   = "Secrets & Sensitive Data"
	CatInjection = "Injection"
	CatParsing   = "Serialization & Parsing"
	CatData      = "Dependency & Data Handling"
)

// Rules returns the rules of the security perspective.
func Rules() []*lens.Rule {
	rules := []*lens.Rule{HardcodedSecret}
	rules = append(rules, goRules()...)
	rules = append(rules, scriptRules()...)
	rules = append(rules, markupRules()...)
	return rules
}

// Lens returns the security lens.
func Lens() review.Lens { return lens.New(review.Security, Rules()...) }
