package llm

import "github.com/reviewls/reviewls/review"

// modelDoc is the documentation of every model rule.
const modelDoc = "The optional model reviewer (docs/model.md) proposed this defect, and reviewls confirmed it against the diff: the file is in the change, the cited line changed (or sits next to a deletion), the model's verbatim quote of it matches, and no rule already reports it. The model sets the severity; its name is in the finding. Unless model.blocking is set, model findings are advisory: they never count for the verdict, --fail-on or the pre-commit hook. Silence one with an inline ignore as any rule's, or turn the perspective's off under rules."

// Rules returns the catalog entries of the model reviewer's findings, one
// per perspective it reports ("functional/model", ...), so that a model
// finding has a rule page, and `rules:` may turn one off or set its
// severity. They are in the answer schema's order of perspectives.
func Rules() []review.RuleInfo {
	var out []review.RuleInfo
	for _, p := range candidateSchema.props["perspective"].enum {
		persp := review.Perspective(p)
		out = append(out, review.RuleInfo{
			ID:          p + review.ModelRuleSuffix,
			Perspective: persp,
			Category:    Category,
			Severity:    review.SeverityMedium,
			Depth:       review.DepthBasic,
			Summary:     "A " + p + " defect the model reviewer proposed, confirmed against the diff",
			Doc:         modelDoc,
			Bad:         "for i := 0; i <= len(xs); i++ { // the model: reads one element past the end",
			Good:        "for i := 0; i < len(xs); i++ {",
		})
	}
	return out
}
