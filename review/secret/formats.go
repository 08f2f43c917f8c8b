package secret

import (
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// format is one credential format in the style of gitleaks rules: a
// regexp whose first group is the secret value.
type format struct {
	kind string
	re   *regexp.Regexp
	// hint is a substring every match contains, checked on the line
	// first.
	hint string
	// left and right require the value to stand apart from letters and
	// digits on that side. An underscore may touch it, unlike with \b: a
	// token that follows "wip_" in a branch or file name is still one.
	left, right bool
	sev         review.Severity
	// context, when set, is required on the line (case-insensitively) for
	// a match to count, and the format is not reported in test files.
	context []string
}

// fixedFormats are the formats of security/hardcoded-secret.
var fixedFormats = []format{
	{kind: "AWS access key ID", re: regexp.MustCompile(`((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})`), hint: "A", left: true, right: true},
	{kind: "GitHub token", re: regexp.MustCompile(`((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36})`), hint: "_", left: true, right: true},
	{kind: "GitHub fine-grained token", re: regexp.MustCompile(`(github_pat_[A-Za-z0-9_]{82})`), hint: "github_pat_", left: true, right: true},
	{kind: "Slack token", re: regexp.MustCompile(`(xox[abposr]-[0-9A-Za-z]{8,}(?:-[0-9A-Za-z]{4,})+)`), hint: "xox", left: true, right: true},
	{kind: "Slack webhook URL", re: regexp.MustCompile(`(https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9]{8,}/[A-Za-z0-9]{8,}/[A-Za-z0-9]{16,})`), hint: "hooks.slack.com"},
}

// providerFormats are the fixed-shape formats of security/generic-secret.
var providerFormats = []format{
	{kind: "Stripe live secret key", re: regexp.MustCompile(`((?:sk|rk)_live_[0-9A-Za-z]{24,99})`), hint: "_live_", left: true, right: true, sev: review.SeverityCritical},
	{kind: "GitLab personal access token", re: regexp.MustCompile(`(glpat-[0-9A-Za-z_\-]{20,})`), hint: "glpat-", left: true, sev: review.SeverityCritical},
	{kind: "npm access token", re: regexp.MustCompile(`(npm_[A-Za-z0-9]{36})`), hint: "npm_", left: true, right: true, sev: review.SeverityCritical},
	{kind: "OpenAI API key", re: regexp.MustCompile(`(sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_\-]{16,}T3BlbkFJ[A-Za-z0-9_\-]{16,})`), hint: "T3BlbkFJ", left: true, sev: review.SeverityCritical},
	{kind: "OpenAI project key", re: regexp.MustCompile(`(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{40,})`), hint: "sk-", left: true, sev: review.SeverityCritical},
	{kind: "Anthropic API key", re: regexp.MustCompile(`(sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_\-]{80,})`), hint: "sk-ant-", left: true, sev: review.SeverityCritical},
	{kind: "SendGrid API key", re: regexp.MustCompile(`(SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43})`), hint: "SG.", left: true, right: true, sev: review.SeverityCritical},
	{kind: "Twilio API key", re: regexp.MustCompile(`(SK[0-9a-fA-F]{32})`), hint: "SK", left: true, right: true, sev: review.SeverityHigh},
	{kind: "Azure storage account key", re: regexp.MustCompile(`AccountKey=([A-Za-z0-9+/]{86}==)`), hint: "AccountKey=", sev: review.SeverityCritical},
	{kind: "Google API key", re: regexp.MustCompile(`(AIza[0-9A-Za-z_\-]{35})(?:[^0-9A-Za-z_\-]|$)`), hint: "AIza", left: true, sev: review.SeverityHigh},
	{kind: "PyPI API token", re: regexp.MustCompile(`(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,})`), hint: "pypi-AgEIcHlwaS5vcmc", left: true, sev: review.SeverityCritical},
	{kind: "Shopify access token", re: regexp.MustCompile(`(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})`), hint: "shp", left: true, right: true, sev: review.SeverityCritical},
	{kind: "DigitalOcean token", re: regexp.MustCompile(`(do[opr]_v1_[a-f0-9]{64})`), hint: "_v1_", left: true, right: true, sev: review.SeverityCritical},
	{kind: "Databricks access token", re: regexp.MustCompile(`(dapi[a-f0-9]{32}(?:-\d)?)`), hint: "dapi", left: true, right: true, sev: review.SeverityCritical},
	{kind: "HashiCorp Vault token", re: regexp.MustCompile(`(hv[sb]\.[A-Za-z0-9_\-]{90,})`), hint: "hv", left: true, sev: review.SeverityCritical},
	{kind: "Mailgun API key", re: regexp.MustCompile(`(key-[0-9a-f]{32})`), hint: "key-", left: true, right: true, sev: review.SeverityHigh},
	{kind: "private key", re: regexp.MustCompile(`-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY-----\\n([A-Za-z0-9+/=]{40,})`), hint: `PRIVATE KEY-----\n`, sev: review.SeverityCritical},
	{kind: "JSON web token", re: regexp.MustCompile(`(eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,})`), hint: "eyJ", left: true, sev: review.SeverityHigh,
		context: []string{"token", "jwt", "bearer", "authorization", "auth", "secret", "session", "cookie"}},
}

// azuriteKey is the Azure Storage emulator's published account key.
const azuriteKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// each calls fn with the value range of every match of fm on line.
func (fm *format) each(line string, fn func(from, to int)) {
	for _, m := range fm.re.FindAllStringSubmatchIndex(line, -1) {
		from, to := m[2], m[3]
		if fm.left && from > 0 && alnum(line[from-1]) || fm.right && to < len(line) && alnum(line[to]) {
			continue
		}
		fn(from, to)
	}
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

// knownFormat reports whether v is a whole value of a format of
// security/hardcoded-secret or a provider format, which the assignment
// reader leaves to them.
func knownFormat(v string) bool {
	if strings.Contains(v, "-----BEGIN") {
		return true
	}
	for _, fs := range [][]format{fixedFormats, providerFormats} {
		for i := range fs {
			if fm := &fs[i]; strings.Contains(v, fm.hint) && fm.re.MatchString(v) {
				return true
			}
		}
	}
	return false
}

// minProviderRun is the shortest run of token characters a line needs
// before the provider formats are tried: every provider token holds a
// run at least this long (its random body), and few lines of code do, so
// the check skips the regular expressions on almost every line.
const minProviderRun = 16

// longRun reports whether line holds at least n consecutive token
// characters (letters, digits, "_", "-", "+", "/", "=").
func longRun(line string, n int) bool {
	run := 0
	for i := 0; i < len(line); i++ {
		if runByte[line[i]] {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// runByte holds the bytes of a token run: letters, digits and _-+/=.
var runByte = func() (t [256]bool) {
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+/=") {
		t[c] = true
	}
	return t
}()

// containsFold reports whether s contains any of words (lower case),
// ignoring case.
func containsFold(s string, words []string) bool {
	lower := strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
