package security

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// secretPattern is one credential format in the style of gitleaks rules:
// a regexp whose first group is the secret value.
type secretPattern struct {
	kind string
	re   *regexp.Regexp
	// hint is a cheap substring that must occur on the line first.
	hint string
}

var secretPatterns = []secretPattern{
	{"AWS access key ID", regexp.MustCompile(`\b((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b`), "A"},
	{"GitHub token", regexp.MustCompile(`\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36})\b`), "_"},
	{"GitHub fine-grained token", regexp.MustCompile(`\b(github_pat_[A-Za-z0-9_]{82})\b`), "github_pat_"},
	{"Slack token", regexp.MustCompile(`\b(xox[abposr]-[0-9A-Za-z]{8,}(?:-[0-9A-Za-z]{4,})+)\b`), "xox"},
	{"Slack webhook URL", regexp.MustCompile(`(https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9]{8,}/[A-Za-z0-9]{8,}/[A-Za-z0-9]{16,})`), "hooks.slack.com"},
}

var (
	privateKeyBegin = regexp.MustCompile(`-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----`)
	privateKeyEnd   = regexp.MustCompile(`-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----`)
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
	lines := p.Lines()
	p.EachChanged(func(n int, line string) {
		for _, sp := range secretPatterns {
			if !strings.Contains(line, sp.hint) {
				continue
			}
			for _, m := range sp.re.FindAllStringSubmatchIndex(line, -1) {
				value := line[m[2]:m[3]]
				if placeholder(value) {
					continue
				}
				p.Report(lens.Report{
					Line: n, Col: m[2] + 1, EndCol: m[3] + 1,
					Title: fmt.Sprintf("Hardcoded %s", sp.kind),
					Message: fmt.Sprintf("%s %s is hardcoded. Anyone who can read the repository or its history can use "+
						"it until it is rotated.", sp.kind, review.Redact(value)),
					Suggested: "Remove the value, load it from the environment or a secret manager at run time, and rotate the exposed credential.",
					Fix:       envFix(p, n, m[2], m[3], sp.kind),
					Secrets:   []string{value},
				})
			}
		}
		if loc := privateKeyBegin.FindStringIndex(line); loc != nil {
			body, end := privateKeyBody(lines, n)
			if len(body) == 0 {
				return // a bare header (documentation, a parser) carries no key
			}
			p.Report(lens.Report{
				Line: n, EndLine: end, Col: loc[0] + 1,
				Title: "Hardcoded private key",
				Message: fmt.Sprintf("A private key block (%d lines of key material) is committed to source. Whoever reads "+
					"the repository can impersonate its owner or decrypt its traffic.", len(body)),
				Code:      line,
				Suggested: "Remove the key from the repository, load it from a secret store or a file outside the tree, and replace the compromised key pair.",
				Secrets:   body,
			})
		}
	})
}

// privateKeyBody returns the base64 lines of the key block that starts at
// line begin, and the line that ends the block.
func privateKeyBody(lines []string, begin int) ([]string, int) {
	var body []string
	end := begin
	for i := begin; i < len(lines) && i < begin+200; i++ {
		l := strings.TrimSpace(stripQuoting(lines[i]))
		end = i + 1
		if privateKeyEnd.MatchString(l) {
			break
		}
		if l == "" || strings.Contains(l, ":") { // headers such as Proc-Type
			continue
		}
		if isKeyMaterial(l) {
			body = append(body, l)
		}
	}
	return body, end
}

// stripQuoting removes string quotes, concatenation and escaped newlines
// around a key line embedded in code.
func stripQuoting(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, `"'+`)
	s = strings.TrimRight(s, `"',+;`)
	s = strings.TrimSuffix(s, `\n`)
	return s
}

var keyMaterialRE = regexp.MustCompile(`^[A-Za-z0-9+/=]{16,}$`)

func isKeyMaterial(s string) bool {
	return keyMaterialRE.MatchString(s) && !placeholder(s)
}

// placeholder reports values that are documentation examples or fillers
// rather than real credentials.
func placeholder(v string) bool {
	upper := strings.ToUpper(v)
	if strings.Contains(upper, "EXAMPLE") || strings.Contains(upper, "XXXXXXXX") || strings.Contains(upper, "PLACEHOLDER") {
		return true
	}
	// A value made of one repeated character ("AAAA…", "0000…") is filler.
	body := v
	if i := strings.LastIndexAny(v, "_-"); i >= 0 && i < len(v)-1 {
		body = v[i+1:]
	}
	return len(body) >= 8 && strings.Count(body, body[:1]) == len(body)
}
