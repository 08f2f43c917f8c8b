package security

import (
	"cmp"
	"slices"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/secret"
)

// HardcodedSecret finds credentials written into changed lines.
var HardcodedSecret = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/hardcoded-secret",
		Perspective: review.Security,
		Category:    CatSecrets,
		Severity:    review.SeverityCritical,
		Depth:       review.DepthBasic,
		Skill:       "CWE-798",
		Summary:     "Hardcoded credential",
		Doc: "A credential (cloud access key, GitHub or Slack token, webhook URL or private key) written into source " +
			"is readable by everyone with access to the repository and its history, and stays valid until it is " +
			"rotated. Load it at run time from the environment or a secret manager, and rotate the exposed value: " +
			"where the secret is a whole string literal in Go, Python, JavaScript/TypeScript or shell, the fix reads it " +
			"from the environment (os.Getenv, os.environ, process.env, \"${NAME}\"), NAME taken from the variable it is " +
			"assigned to or from the kind of secret. An inline reviewls:ignore hides a secret but never lets it through " +
			"--fail-on or the pre-commit hook; only its fingerprint under allow-secrets in .reviewls.yaml does. " +
			"Well-known documentation examples (such as AWS's AKIAIOSFODNN7EXAMPLE) and placeholders are ignored. " +
			"The value is always redacted to a prefix and its length in every output.",
		Bad:     `awsKey := "AKIAZ7Q2R5T6W3X4Y6B2"`,
		Good:    `awsKey := os.Getenv("AWS_ACCESS_KEY_ID")`,
		Fixable: true,
	},
	Run: runHardcodedSecret,
}

func runHardcodedSecret(p *lens.Pass) {
	d := secret.NewDetector(p.File.Path, p.File.Language, p.File.Content)
	var hits []secret.Hit
	p.EachChanged(func(n int, line string) { hits = d.Fixed(n, line, hits) })
	if p.Contains("PRIVATE KEY") {
		// A block counts when any of its lines changed: a key replaced in
		// place keeps its BEGIN line.
		for _, h := range secret.KeyBlocks(p.Lines()) {
			for n := h.Line; n <= h.EndLine; n++ {
				if p.Changed(n) {
					hits = append(hits, h)
					break
				}
			}
		}
	}
	slices.SortStableFunc(hits, func(a, b secret.Hit) int { return cmp.Compare(a.Line, b.Line) })
	for _, h := range hits {
		r := report(h)
		if h.EndLine > 0 {
			r.Code = p.Line(h.Line)
		} else {
			r.Fix = envFix(p, h.Line, h.From, h.To, h.Kind)
		}
		p.Report(r)
	}
}
