package standards

import (
	"strings"

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
			"reader judge whether the silence still holds. A directive without a reason (or without a rule id) " +
			"suppresses nothing — the finding it meant to silence is still reported — and is itself reported so the " +
			"intent is completed or the comment removed. Directives inside string literals are not comments and are " +
			"ignored.",
		Bad:  "x := legacyHash(p) // reviewls:ignore security/weak-crypto",
		Good: "x := legacyHash(p) // reviewls:ignore security/weak-crypto checksum for the v1 cache format, not a password",
	},
	Run: runIgnoreWithoutReason,
}

func runIgnoreWithoutReason(p *lens.Pass) {
	if !p.Contains(process.IgnoreDirective) {
		return
	}
	comments := lens.Comments(p.File)
	p.EachChanged(func(n int, line string) {
		c := comments[n-1]
		i := strings.Index(c.Text, process.IgnoreDirective)
		if c.Col == 0 || i < 0 {
			return
		}
		d, ok := process.ParseDirective(c.Text[i:])
		switch {
		case !ok:
			p.Report(lens.Report{
				Line:      n,
				Message:   "The reviewls:ignore directive names no rule, so it suppresses nothing.",
				Suggested: "Write the rule id and the reason: reviewls:ignore <rule-id> <why the finding does not apply>.",
			})
		case d.Reason == "":
			p.Report(lens.Report{
				Line:      n,
				Message:   "The reviewls:ignore directive for " + d.Rule + " gives no reason, so it suppresses nothing and the next reader cannot tell why it was added.",
				Suggested: "Add why the finding does not apply: reviewls:ignore " + d.Rule + " <reason>.",
			})
		}
	})
}
