// Package artifacts persists a review on disk and renders it in the formats
// reviewls prints.
//
// A review lives in one folder per branch,
// <repo>/.copilot-tracking/reviews/code-reviews/<branch with / replaced by ->/
// (see [Folder] for the branches that share that name or whose name holds a
// secret), laid out as the hve-core code-review protocol describes:
//
//	review.md                  the report; always ends with the human-review disclaimer
//	metadata.json              machine-readable summary; written last
//	diff-state.json            the shared review state (target, evidence, depth, task)
//	dispatch-manifest.json     the review-loop state (phase gates, next actions, board)
//	<perspective>-findings.json  one per selected perspective
//	review-artifact.json       River Review compatible artifact (v1.15.0 field set)
//	dispatch-board.md          interactive runs only
//	walkthrough.md             interactive runs only
//	emission-record.json       interactive runs only
//	explanations/, walkback/   written on request by the server and the loop commands
//
// A later review never deletes the loop's work (the last four lines):
// a workflow review leaves them as they are.
//
// and the diff itself at <repo>/.copilot-tracking/pr/pr-reference.xml.
//
// [Write] builds every document first, validates each JSON document against
// its schema in package schemas, and only then writes, one atomic rename per
// file, so a crash never leaves a half-written file and a schema violation
// (a bug) writes nothing. Every byte written passes through the result's
// redactor, and through the secret rules' detector as a final pass. The renderers ([ReviewMarkdown], [FindingsJSON], [SARIF],
// [River], [PRReference], ...) are pure functions of a [review.Result], so
// the CLI prints exactly what Write persists.
//
// Writers take turns: Write and [WriteExtra] hold an advisory lock on
// <repo>/.copilot-tracking/.lock while they change the folder, so two CLI
// runs and a language server on one branch never see each other's
// temporary files or mix two reviews in one folder.
//
// The package imports review, review/lens/security (the secret detector)
// and schemas, and never lsp.
package artifacts
