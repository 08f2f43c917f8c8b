package review

import (
	"context"
	"slices"
)

// RuleInfo describes a rule of the catalog.
type RuleInfo struct {
	// ID is "<perspective>/<name>", stable across releases.
	ID          string
	Perspective Perspective
	Category    string
	Severity    Severity
	// Languages lists language ids the rule applies to; empty means all.
	Languages []Language
	// Depth is the lowest depth tier at which the rule runs.
	Depth Depth
	// Summary is one line; Doc one paragraph; Bad and Good are examples.
	Summary, Doc, Bad, Good string
	// Fixable reports that findings carry a machine-applicable fix.
	Fixable bool
	// CrossFile reports that the rule's findings on a file depend on other
	// files of the change set (or of the repository), so they must be
	// recomputed when those files change (see Inputs).
	CrossFile bool
	// Inputs, for a CrossFile rule, are base-name patterns ([path.Match])
	// of the other files its findings read ("go.mod"): the findings on an
	// unchanged file stay valid until a file matching one of them
	// changes. Empty means any change may matter.
	Inputs []string
	// Skill is the standard the rule traces to, if any.
	Skill string
	// Note, when set, makes the rule a whole-change rule: it produces
	// review-level notes of this kind (see [Note]) instead of line
	// findings, through [NoteLens].
	Note NoteKind
}

// A Lens is one findings perspective: a set of rules applied to the
// reviewed files of a change set.
type Lens interface {
	Perspective() Perspective
	Rules() []RuleInfo
	// Check runs the lens's rules over the given files (all reviewed files
	// when files is nil) and returns raw, unvalidated findings. Cross-file
	// rules run over every reviewed file of cs, or over opts.Cross.
	Check(ctx context.Context, cs *ChangeSet, files []*File, opts CheckOptions) ([]*Finding, error)
}

// A NoteLens is a lens with whole-change rules: Notes runs them over the
// change set and returns their review-level notes. Notes carry no verdict
// weight; the engine lists them in the report.
type NoteLens interface {
	Lens
	Notes(ctx context.Context, cs *ChangeSet, opts CheckOptions) ([]Note, error)
}

// CheckOptions tunes a lens run.
type CheckOptions struct {
	Depth  Depth
	Config *Config
	// Skip, when set, names rules not to run this time (the engine skips
	// expensive whole-package analysis on incremental runs).
	Skip func(ruleID string) bool
	// Cross, when not nil, are the files the cross-file rules run over:
	// the engine keeps the findings of the others, none of whose inputs
	// changed. Nil means every reviewed file of the change set.
	Cross []*File
	// MaxPerFile, when positive, is the most findings one rule reports in
	// one file, severity by severity; the rest are only counted, on the
	// last finding kept ([Finding.Capped]). A secret is never cut.
	MaxPerFile int
}

// A Processor is one named step of the findings chain (golangci-lint's
// processors): it filters, rewrites or orders findings.
type Processor interface {
	Name() string
	Process(ctx context.Context, findings []*Finding) ([]*Finding, error)
}

// SecretRules are the rules whose findings cite a secret value
// ([Finding.IsSecret]). Every review runs them, whatever its profile,
// perspectives or depth, and their findings always count for the gate: the
// configuration may not turn them off or lower them below
// [SecretSeverityFloor], and a baseline never records one of their
// findings. Only the configuration's allow-secrets lets a secret through.
var SecretRules = []string{"security/hardcoded-secret", "security/generic-secret"}

// SecretSeverityFloor is the lowest severity the configuration may give a
// secret rule: the default gate's threshold ([DefaultFailOn]), which the
// pre-commit hook uses.
const SecretSeverityFloor = SeverityHigh

// IsSecretRule reports whether id is one of [SecretRules].
func IsSecretRule(id string) bool { return slices.Contains(SecretRules, id) }
