package security

import (
	"regexp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// JWTNoVerify finds JSON web tokens decoded without checking their
// signature.
var JWTNoVerify = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/jwt-no-verify",
		Perspective: review.Security,
		Category:    CatAuth,
		Severity:    review.SeverityHigh,
		Languages:   []review.Language{review.LangPython},
		Depth:       review.DepthBasic,
		Skill:       "CWE-347",
		Summary:     "Token decoded without verifying its signature",
		Doc: "A JSON web token decoded with `options={\"verify_signature\": False}`, `verify_signature=False`, " +
			"PyJWT's old `verify=False`, or with \"none\" among the accepted algorithms is trusted without its " +
			"signature being checked: anyone can write a token with any subject, role or expiry and be accepted. " +
			"Verify with the issuer's key and a fixed list of algorithms (`jwt.decode(token, key, algorithms=" +
			"[\"RS256\"])`); to read a header before choosing the key use jwt.get_unverified_header. Comments and " +
			"strings are not read; tests are not reported.",
		Bad:  "claims = jwt.decode(token, options={\"verify_signature\": False})",
		Good: "claims = jwt.decode(token, key, algorithms=[\"RS256\"], audience=CLIENT_ID)",
	},
	Run: runJWTNoVerify,
}

var jwtNoVerifyRE = regexp.MustCompile(`["']verify_signature["']\s*:\s*False\b|\bverify_signature\s*=\s*False\b|\bjwt\.decode\s*\(.*\bverify\s*=\s*False\b|\balgorithms\s*=\s*\[[^\]]*["']none["']`)

func runJWTNoVerify(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) || !p.Contains("verify") && !p.Contains("none") {
		return
	}
	py := syntax.Python(p.File)
	p.EachChanged(func(n int, line string) {
		// Masked code keeps code and quotes and blanks the contents of
		// strings and comments: a match must start in code.
		code := py.CodeLine(n)
		loc := jwtNoVerifyRE.FindStringIndex(line)
		if loc == nil || loc[0] >= len(code) || code[loc[0]] != line[loc[0]] {
			return
		}
		p.Report(lens.Report{
			Line: n, Col: loc[0] + 1, EndCol: loc[1] + 1,
			Message: "`" + lens.Snippet(line[loc[0]:loc[1]]) + "` accepts the token without checking its signature: anyone " +
				"can forge one with any claims.",
			Suggested: "Verify with the issuer's key and a fixed algorithm list: jwt.decode(token, key, algorithms=[\"RS256\"]).",
		})
	})
}
