package artifacts

import (
	"fmt"
	"strings"
	"time"

	"github.com/reviewls/reviewls/review"
)

// InformationURI is the home page of reviewls, recorded in SARIF output.
const InformationURI = "https://github.com/reviewls/reviewls"

// RuleHelpURI returns the documentation link of a rule, used as SARIF
// helpUri and as the LSP diagnostic's codeDescription.
func RuleHelpURI(ruleID string) string {
	return InformationURI + "/blob/main/docs/rules.md#" + RuleAnchor(ruleID)
}

// RuleAnchor is the anchor of a rule's section in docs/rules.md.
func RuleAnchor(ruleID string) string {
	return strings.ReplaceAll(ruleID, "/", "-")
}

// Options tune the documents written for a review. The zero value is
// usable.
type Options struct {
	// Tool names the producer in SARIF output; empty means "reviewls".
	Tool string
	// Version is the producer version; empty means "devel".
	Version string
	// Now is the time recorded as the review time; zero means
	// res.Finished, and time.Now when that is zero too.
	Now time.Time
	// Rules describes the rules of the catalog. It is optional: it supplies
	// rule names and descriptions to SARIF and River output, which fall
	// back to the finding's own text for an unknown rule.
	Rules []review.RuleInfo
	// PreExisting lists the pre-existing findings too (--show-preexisting):
	// in the merged findings JSON, and in SARIF as results whose
	// baselineState is "unchanged".
	PreExisting bool
	// CommitReviews leaves the tracking folder to git (the configuration's
	// commit-reviews); by default Write keeps a .gitignore in it that
	// ignores it.
	CommitReviews bool
}

// Validate reports a malformed rule catalog.
func (o Options) Validate() error {
	seen := map[string]bool{}
	for _, r := range o.Rules {
		if r.ID == "" {
			return fmt.Errorf("rule with empty id in options")
		}
		if seen[r.ID] {
			return fmt.Errorf("duplicate rule %q in options", r.ID)
		}
		seen[r.ID] = true
	}
	return nil
}

func (o Options) tool() string {
	if o.Tool == "" {
		return "reviewls"
	}
	return o.Tool
}

func (o Options) version() string {
	if o.Version == "" {
		return "devel"
	}
	return o.Version
}
