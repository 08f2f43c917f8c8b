package standards

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/process"
)

// IgnoreWithoutReason reports inline suppressions that give no reason.
var IgnoreWithoutReason = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "standards/ignore-without-reason",
		Perspective: review.Standards,
		Category:    "Maintainability",
		Severity:    review.SeverityLow,
		Depth:       review.DepthBasic,
		Skill:       "reviewls suppression policy",
		Summary:     "Suppression without a reason",
		Doc: "An inline `reviewls:ignore <rule-id> <reason>` comment silences one finding; the reason is what lets the next " +
			"reader judge whether the silence still holds. A directive without a rule id, without a reason, with a reason " +
			"of fewer than three words, or whose reason is still a placeholder (the editor's `<why this finding does not " +
			"apply>`, or any `<…>` fill-in) suppresses nothing — the finding it meant to silence is still reported — and " +
			"is itself reported, with why its reason was rejected, so the intent is completed or the comment removed. " +
			"Only comments count: a directive inside a string literal, or anywhere that is not a comment of the file's " +
			"language, is not a directive. An inline ignore of a secret hides it from the editor but never lets it " +
			"through a gate: only the configuration's allow-secrets does.",
		Bad:  "x := legacyHash(p) // reviewls:ignore security/weak-crypto",
		Good: "x := legacyHash(p) // reviewls:ignore security/weak-crypto checksum for the v1 cache format, not a password",
	},
	Run: runIgnoreWithoutReason,
}

func runIgnoreWithoutReason(p *lens.Pass) {
	ds := process.Directives(p.File)
	if len(ds) == 0 {
		return
	}
	for _, d := range ds {
		if d.Valid() || !p.Changed(d.Line) {
			continue
		}
		r := lens.Report{
			Line:      d.Line,
			Message:   "The reviewls:ignore directive suppresses nothing: " + d.Problem + ".",
			Suggested: "Write the rule id and why the finding does not apply, in at least " + words + ": reviewls:ignore <rule-id> <reason>.",
		}
		if d.Rule != "" {
			r.Message = "The reviewls:ignore directive for " + d.Rule + " suppresses nothing: " + d.Problem + ". The finding it meant to silence is still reported, and the next reader cannot tell why it was added."
			r.Suggested = "Replace it with why the finding does not apply, in at least " + words + ": reviewls:ignore " + d.Rule + " <reason>."
		}
		p.Report(r)
	}
}

// words is [review.MinReasonWords] in words.
var words = fmt.Sprintf("%d words", review.MinReasonWords)
