package review

import (
	"fmt"
	"time"
)

// DefaultSizeCap is the largest file reviewed by default: 1 MiB covers any
// hand-written source file, and anything bigger is almost always generated
// data whose review would cost more than it finds.
const DefaultSizeCap = 1 << 20

// DefaultFunctionLength is the default threshold of standards/long-function.
const DefaultFunctionLength = 80

// Default finding caps, in the spirit of golangci-lint's max-same-issues
// and max-issues-per-linter. Fifty findings of one rule in one file show
// the pattern and every place a person will fix by hand; past that the
// file is generated or the rule does not fit it, and each further finding
// costs memory and artifact space and tells nothing new. A thousand
// findings is more than anyone works through in one review, and keeps the
// artifact folder at a few megabytes.
const (
	DefaultMaxPerFile   = 50
	DefaultMaxPerReview = 1000
)

// FindingCaps bound the findings a review reports. A zero field means
// the default; a negative one means no cap.
type FindingCaps struct {
	// PerFile is the most findings of one rule in one file, counted
	// severity by severity so the most severe of each rule always shows.
	PerFile int
	// PerReview is the most findings of the whole review, the most severe
	// kept.
	PerReview int
}

// Effective returns the caps to apply, 0 meaning none.
func (c FindingCaps) Effective() FindingCaps {
	eff := func(n, def int) int {
		switch {
		case n == 0:
			return def
		case n < 0:
			return 0
		}
		return n
	}
	return FindingCaps{PerFile: eff(c.PerFile, DefaultMaxPerFile), PerReview: eff(c.PerReview, DefaultMaxPerReview)}
}

// RuleConfig overrides one rule.
type RuleConfig struct {
	// Off disables the rule.
	Off bool
	// Severity, when valid, replaces the rule's default severity.
	Severity Severity
}

// Config is the repository configuration (.reviewls.yaml) after parsing.
// The zero value is the default configuration.
type Config struct {
	Profile      Profile
	Depth        Depth
	Perspectives []Perspective
	Rules        map[string]RuleConfig
	// Ignore lists doublestar globs of paths left out of the review.
	Ignore []string
	// Base is the default base branch of branch-diff reviews.
	Base string
	// FailOn is the exit-code threshold; see [ParseFailOn].
	FailOn FailOn
	// SizeCap is the largest reviewed file in bytes; 0 means the default.
	SizeCap int64
	// FunctionLength is the long-function threshold in lines; 0 means the
	// default.
	FunctionLength int
	// AllowSecrets lists the fingerprints of secrets allowed through the
	// gate ([Finding.SecretFingerprint]); an inline ignore alone never
	// lets a secret through.
	AllowSecrets []string
	// Baseline is the repository-relative path of the baseline file; ""
	// means [BaselineFile] at the root.
	Baseline string
	// AnalysisBudget, when positive, lets the type-aware analysis run
	// within this time whenever the depth used is comprehensive, the
	// recommended depth included, and bounds it when it is asked for.
	AnalysisBudget time.Duration
	// CommitReviews keeps the artifact folder in git's view: by default it
	// holds a .gitignore that ignores it.
	CommitReviews bool
	// MaxFindings caps the findings a review reports.
	MaxFindings FindingCaps
	// Model configures the model reviewer; nil means none.
	Model *ModelConfig
	// Policy is what the project forbids every change (`policy:`).
	Policy Policy
	// Gates are the project's own checks (`gates:`), run only on request
	// (--gates).
	Gates []Gate
}

// Policy is the project's explicit policy: what no change may add. A
// change that breaks it is the one reason a review rejects.
type Policy struct {
	// Paths are doublestar globs of files no change may add or modify.
	Paths []string
	// Imports are Go import paths, Python modules and JavaScript
	// packages no change may import (their subpackages included).
	Imports []string
	// Dependencies are modules and packages no manifest may add.
	Dependencies []string
}

// Empty reports whether the policy forbids nothing.
func (p Policy) Empty() bool {
	return len(p.Paths) == 0 && len(p.Imports) == 0 && len(p.Dependencies) == 0
}

// FindingCaps returns the finding caps to apply, 0 meaning none.
func (c *Config) FindingCaps() FindingCaps {
	if c == nil {
		return FindingCaps{}.Effective()
	}
	return c.MaxFindings.Effective()
}

// CommitsReviews reports whether the team commits the artifact folder.
func (c *Config) CommitsReviews() bool { return c != nil && c.CommitReviews }

// BaselinePath returns the repository-relative path of the baseline file.
func (c *Config) BaselinePath() string {
	if c == nil || c.Baseline == "" {
		return BaselineFile
	}
	return c.Baseline
}

// EffectiveSizeCap returns the size cap to apply.
func (c *Config) EffectiveSizeCap() int64 {
	if c == nil || c.SizeCap <= 0 {
		return DefaultSizeCap
	}
	return c.SizeCap
}

// EffectiveFunctionLength returns the long-function threshold to apply.
func (c *Config) EffectiveFunctionLength() int {
	if c == nil || c.FunctionLength <= 0 {
		return DefaultFunctionLength
	}
	return c.FunctionLength
}

// Rule returns the override for rule id.
func (c *Config) Rule(id string) RuleConfig {
	if c == nil {
		return RuleConfig{}
	}
	return c.Rules[id]
}

// FailOn is the severity at or above which a run fails. The zero value
// means "unset"; FailNever never fails.
type FailOn struct {
	Set      bool
	Never    bool
	Severity Severity
}

// FailNever never fails.
var FailNever = FailOn{Set: true, Never: true}

// DefaultFailOn fails on High or Critical findings.
var DefaultFailOn = FailOn{Set: true, Severity: SeverityHigh}

// ParseFailOn parses critical, high, medium, low or never.
func ParseFailOn(s string) (FailOn, error) {
	if s == "never" {
		return FailNever, nil
	}
	sev, err := ParseSeverity(s)
	if err != nil {
		return FailOn{}, fmt.Errorf("unknown fail-on threshold %q (want critical, high, medium, low or never)", s)
	}
	return FailOn{Set: true, Severity: sev}, nil
}

func (f FailOn) String() string {
	switch {
	case !f.Set:
		return ""
	case f.Never:
		return "never"
	}
	return f.Severity.Lower()
}

// Reached reports whether counts reach the threshold.
func (f FailOn) Reached(c Counts) bool {
	if !f.Set || f.Never {
		return false
	}
	return c.AtLeast(f.Severity) > 0
}
