package security

import (
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/secret"
)

// GenericSecret finds credentials beyond the fixed formats of
// [HardcodedSecret]: more provider token formats, URLs with an inline
// password, and high-entropy literals assigned to secret-named keys.
var GenericSecret = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/generic-secret",
		Perspective: review.Security,
		Category:    CatSecrets,
		Severity:    review.SeverityHigh,
		Depth:       review.DepthBasic,
		Skill:       "CWE-798",
		Summary:     "Hardcoded secret",
		Doc: "A credential in a changed line can be read and used by everyone with access to the repository and its " +
			"history until it is rotated. The rule reports provider tokens with a fixed shape (Stripe live keys, " +
			"GitLab and npm tokens, OpenAI and Anthropic keys, SendGrid and Twilio keys, Azure storage account keys, " +
			"Google API keys, inline private keys: Critical for live keys that move money, publish packages or " +
			"grant account access, High otherwise), JSON web tokens next to a token-like word outside tests, " +
			"URLs with an inline password for a remote host (databases, brokers, HTTP, FTP; only the password is redacted), and string values assigned to a secret-named " +
			"key (password, secret, token, api_key, access_key, private_key, client_secret, auth, credential, in " +
			"code, JSON, YAML, .env, shell, Dockerfile ENV, INI and Java properties (key = value), AWS credentials files, " +
			"XML elements (<password>…</password>), .npmrc (_authToken=) and Jupyter notebook cells) that look random: hex of at least 32 characters with " +
			"at least 3.0 bits of Shannon entropy per character, base64 or base62 of at least 20 characters with at " +
			"least 3.5 bits (4.0 from 32 characters on, so random tokens pass more than 99% of the time), or, for " +
			"password keys, at least 10 characters mixing three character classes. Load the value from the " +
			"environment or a secret manager and rotate it; where the value is a whole string literal in Go, Python, " +
			"JavaScript/TypeScript or shell the fix reads it from the environment, as for security/hardcoded-secret, " +
			"and an inline reviewls:ignore never lets it through the gate. Not reported: values that security/hardcoded-secret " +
			"already reports, placeholders and documentation examples (changeme, example, xxxx, <your-token>, " +
			"${VAR}, $(cmd), {{ secrets.X }}, values naming fake, dummy, sample or test), environment lookups, " +
			"words, identifiers and file paths, hashes under non-secret keys (cache keys, lockfile integrity), " +
			"UUIDs except under an API-key, secret or password key, Stripe test keys, the API keys of Firebase web " +
			"and Algolia search configs (public by design), and URLs on localhost, a compose service name or a documentation domain (example.com, .test). Every output shows " +
			"the value redacted to a prefix and its length.",
		Bad:     `API_TOKEN = "f3Jk9QzL2mXw8RtV5nBc7HyD4pGs"`,
		Good:    `API_TOKEN = os.environ["API_TOKEN"]`,
		Fixable: true,
	},
	Run: runGenericSecret,
}

func runGenericSecret(p *lens.Pass) {
	d := secret.NewDetector(p.File.Path, p.File.Language, p.File.Content)
	var hits []secret.Hit
	eachChangedLine(p, func(n int, line string) {
		hits = d.Generic(n, line, hits[:0])
		for _, h := range hits {
			r := report(h)
			fixName := h.Kind
			if h.Key != "" {
				fixName = h.Key
			}
			if h.URL == nil {
				r.Fix = envFix(p, n, h.From, h.To, fixName)
			}
			p.Report(r)
		}
	})
}

// eachChangedLine calls fn for each changed line in order, like
// [lens.Pass.EachChanged] but cheaper on new files: when every line
// changed it needs neither the sorted line numbers nor a map lookup per
// line, and when most did it walks the lines asking the change map.
func eachChangedLine(p *lens.Pass, fn func(n int, line string)) {
	lines := p.Lines()
	switch changed := len(p.File.Lines); {
	case changed*4 < len(lines):
		p.EachChanged(fn)
	case changed == len(lines): // line numbers are 1..len(lines): all changed
		for i, line := range lines {
			fn(i+1, line)
		}
	default:
		for i, line := range lines {
			if p.Changed(i + 1) {
				fn(i+1, line)
			}
		}
	}
}

// article puts "A" or "An" before kind, as it is read aloud: "an npm
// access token", "an OpenAI key".
func article(kind string) string {
	if strings.ContainsRune("AEIOU", rune(kind[0])) || strings.HasPrefix(kind, "npm") {
		return "An " + kind
	}
	return "A " + kind
}
