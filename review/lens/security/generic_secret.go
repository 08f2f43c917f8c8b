package security

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
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
			"code, JSON, YAML, .env, shell or Dockerfile ENV) that look random: hex of at least 32 characters with " +
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

// providerPattern is a credential format with a fixed shape; the first
// group of re is the secret.
type providerPattern struct {
	kind string
	re   *regexp.Regexp
	// hint is a substring every match contains, checked on the whole file
	// first.
	hint string
	sev  review.Severity
	// context, when set, is required on the line (case-insensitively) for
	// a match to count.
	context []string
}

var providerPatterns = []providerPattern{
	{kind: "Stripe live secret key", re: regexp.MustCompile(`\b((?:sk|rk)_live_[0-9A-Za-z]{24,99})\b`), hint: "_live_", sev: review.SeverityCritical},
	{kind: "GitLab personal access token", re: regexp.MustCompile(`\b(glpat-[0-9A-Za-z_\-]{20,})`), hint: "glpat-", sev: review.SeverityCritical},
	{kind: "npm access token", re: regexp.MustCompile(`\b(npm_[A-Za-z0-9]{36})\b`), hint: "npm_", sev: review.SeverityCritical},
	{kind: "OpenAI API key", re: regexp.MustCompile(`\b(sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_\-]{16,}T3BlbkFJ[A-Za-z0-9_\-]{16,})`), hint: "T3BlbkFJ", sev: review.SeverityCritical},
	{kind: "OpenAI project key", re: regexp.MustCompile(`\b(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{40,})`), hint: "sk-", sev: review.SeverityCritical},
	{kind: "Anthropic API key", re: regexp.MustCompile(`\b(sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_\-]{80,})`), hint: "sk-ant-", sev: review.SeverityCritical},
	{kind: "SendGrid API key", re: regexp.MustCompile(`\b(SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43})\b`), hint: "SG.", sev: review.SeverityCritical},
	{kind: "Twilio API key", re: regexp.MustCompile(`\b(SK[0-9a-fA-F]{32})\b`), hint: "SK", sev: review.SeverityHigh},
	{kind: "Azure storage account key", re: regexp.MustCompile(`AccountKey=([A-Za-z0-9+/]{86}==)`), hint: "AccountKey=", sev: review.SeverityCritical},
	{kind: "Google API key", re: regexp.MustCompile(`\b(AIza[0-9A-Za-z_\-]{35})(?:[^0-9A-Za-z_\-]|$)`), hint: "AIza", sev: review.SeverityHigh},
	{kind: "PyPI API token", re: regexp.MustCompile(`\b(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,})`), hint: "pypi-AgEIcHlwaS5vcmc", sev: review.SeverityCritical},
	{kind: "Shopify access token", re: regexp.MustCompile(`\b(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})\b`), hint: "shp", sev: review.SeverityCritical},
	{kind: "DigitalOcean token", re: regexp.MustCompile(`\b(do[opr]_v1_[a-f0-9]{64})\b`), hint: "_v1_", sev: review.SeverityCritical},
	{kind: "Databricks access token", re: regexp.MustCompile(`\b(dapi[a-f0-9]{32}(?:-\d)?)\b`), hint: "dapi", sev: review.SeverityCritical},
	{kind: "HashiCorp Vault token", re: regexp.MustCompile(`\b(hv[sb]\.[A-Za-z0-9_\-]{90,})`), hint: "hv", sev: review.SeverityCritical},
	{kind: "Mailgun API key", re: regexp.MustCompile(`\b(key-[0-9a-f]{32})\b`), hint: "key-", sev: review.SeverityHigh},
	{kind: "private key", re: regexp.MustCompile(`-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY-----\\n([A-Za-z0-9+/=]{40,})`), hint: `PRIVATE KEY-----\n`, sev: review.SeverityCritical},
	{kind: "JSON web token", re: regexp.MustCompile(`\b(eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,})`), hint: "eyJ", sev: review.SeverityHigh,
		context: []string{"token", "jwt", "bearer", "authorization", "auth", "secret", "session", "cookie"}},
}

// azuriteKey is the Azure Storage emulator's published account key.
const azuriteKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

func runGenericSecret(p *lens.Pass) {
	content := p.File.Content
	urls := bytes.Contains(content, []byte("://"))
	cfg := configLang(p.File.Language)
	test := review.IsTestPath(p.File.Path)
	// Firebase web configs and Algolia search configs carry API keys that
	// are public by design: they identify a project to browsers. Computed
	// only when a candidate needs it.
	var firebase, publicConfig *bool
	isFirebase := func() bool {
		if firebase == nil {
			v := bytes.Contains(content, []byte("firebaseapp.com")) || bytes.Contains(content, []byte("authDomain"))
			firebase = &v
		}
		return *firebase
	}
	isPublicConfig := func() bool {
		if publicConfig == nil {
			v := isFirebase() || bytes.Contains(content, []byte("algolia")) && bytes.Contains(content, []byte("indexName"))
			publicConfig = &v
		}
		return *publicConfig
	}
	eachChangedLine(p, func(n int, line string) {
		var taken [][2]int // value ranges already reported on this line
		report := func(from, to int, r lens.Report) {
			for _, t := range taken {
				if from < t[1] && t[0] < to {
					return
				}
			}
			taken = append(taken, [2]int{from, to})
			r.Line, r.Col, r.EndCol = n, from+1, to+1
			p.Report(r)
		}
		if longRun(line, minProviderRun) {
			for i := range providerPatterns {
				pp := &providerPatterns[i]
				if !strings.Contains(line, pp.hint) || pp.context != nil && (test || !containsFold(line, pp.context)) {
					continue
				}
				if pp.hint == "AIza" && isFirebase() {
					continue
				}
				for _, m := range pp.re.FindAllStringSubmatchIndex(line, -1) {
					v := line[m[2]:m[3]]
					if placeholder(v) || placeholderValue(v) || v == azuriteKey {
						continue
					}
					report(m[2], m[3], lens.Report{
						Title:    "Hardcoded " + pp.kind,
						Severity: pp.sev,
						Message: fmt.Sprintf("%s %s is hardcoded. Anyone who can read the repository or its history "+
							"can use it until it is rotated.", article(pp.kind), review.Redact(v)),
						Suggested: "Remove the value, load it from the environment or a secret manager at run time, and rotate the exposed credential.",
						Fix:       envFix(p, n, m[2], m[3], pp.kind),
						Secrets:   []string{v},
					})
				}
			}
		}
		if urls {
			for _, c := range urlCredentials(line) {
				report(c.from, c.to, c.report())
			}
		}
		for _, a := range assignments(line, cfg) {
			if publicKeyName(a.key) && isPublicConfig() {
				continue
			}
			why, conf, ok := secretValue(a.class, a.value)
			if !ok {
				continue
			}
			report(a.from, a.to, lens.Report{
				Title:  fmt.Sprintf("Possible hardcoded secret in %s", a.key),
				Symbol: a.key,
				Message: fmt.Sprintf("%s is assigned %s, which %s. Anyone who can read the repository or its "+
					"history can use it until it is rotated.", a.key, review.Redact(a.value), why),
				Suggested:  "Load the value from the environment or a secret manager at run time (os.Getenv, process.env, a mounted secret), and rotate the exposed value.",
				Confidence: conf,
				Fix:        envFix(p, n, a.from, a.to, a.key),
				Secrets:    []string{a.value},
			})
		}
	})
}

// minProviderRun is the shortest run of token characters a line needs
// before the provider patterns are tried: every provider token holds a
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

// publicKeyName reports the key names of browser-side API keys (apiKey,
// searchApiKey) in public client configurations.
func publicKeyName(key string) bool {
	switch strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(key)) {
	case "apikey", "searchapikey", "searchkey":
		return true
	}
	return false
}

func article(kind string) string {
	if strings.ContainsRune("AEIOU", rune(kind[0])) {
		return "An " + kind
	}
	return "A " + kind
}

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

// remoteHost reports a host name that is neither loopback nor a bare
// service name (docker compose "db"), whose credentials are local
// development defaults.
func remoteHost(host string) bool {
	host = strings.ToLower(strings.Trim(host, "[]"))
	switch host {
	case "localhost", "127.0.0.1", "0.0.0.0", "::1", "host.docker.internal":
		return false
	}
	return strings.Contains(host, ".") && !strings.HasSuffix(host, ".local") && !strings.HasSuffix(host, ".localhost")
}

// defaultPassword reports database passwords that are placeholders or
// well-known defaults rather than real credentials.
func defaultPassword(user, pw string) bool {
	if pw == user || placeholderValue(pw) || placeholder(pw) {
		return true
	}
	switch strings.ToLower(pw) {
	case "password", "pass", "passwd", "postgres", "root", "admin", "secret", "mysql", "guest", "user", "test", "changeme":
		return true
	}
	return false
}

// keyClass is the kind of secret a key names.
type keyClass uint8

const (
	keyNone     keyClass = iota
	keyToken             // token, auth, credential, bearer
	keyAPIKey            // api_key, access_key, private_key, secret, client_secret
	keyPassword          // password, passwd, pwd, pass, passphrase
)

// assignment is a literal value assigned to (or keyed by) a secret-named
// key on one line.
type assignment struct {
	key      string
	class    keyClass
	value    string
	from, to int // byte range of value in the line
}

// configLang reports languages whose values may be unquoted (KEY=value,
// key: value).
func configLang(lang review.Language) bool { return lang.Info().Config }

// assignments finds the secret-keyed literals of a line: a quoted string
// after key =, key:, key :=, key =>, "key": or "key", (a call such as
// Setenv("API_TOKEN", "...")), and in configuration languages also
// unquoted KEY=value and key: value.
func assignments(line string, cfg bool) []assignment {
	var out []assignment
	if cfg {
		out = unquoted(line)
	}
	if strings.IndexByte(line, '"') < 0 && strings.IndexByte(line, '\'') < 0 && strings.IndexByte(line, '`') < 0 {
		return out
	}
	for i := 0; i < len(line); i++ {
		q := line[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		end := syntax.QuoteEnd(line, i)
		if end < 0 {
			return out
		}
		if key, class := keyBefore(line, i); class != keyNone {
			if !overlaps(out, i+1, end) {
				out = append(out, assignment{key: key, class: class, value: line[i+1 : end], from: i + 1, to: end})
			}
		}
		i = end
	}
	return out
}

func overlaps(as []assignment, from, to int) bool {
	for _, a := range as {
		if from < a.to && a.from < to {
			return true
		}
	}
	return false
}

// keyBefore returns the secret-named key that a string literal starting at
// i is assigned to, if any.
func keyBefore(line string, i int) (string, keyClass) {
	j := skipSpaceBack(line, i)
	// The operator: =, :=, ==, ===, !=, =>, :, or "," after a quoted key.
	comma := false
	switch {
	case j > 0 && line[j-1] == ',':
		comma = true
		j--
	case j > 0 && line[j-1] == ':':
		j--
	case j > 1 && line[j-2:j] == "=>":
		j -= 2
	case j > 0 && line[j-1] == '=':
		for j > 0 && (line[j-1] == '=' || line[j-1] == '!' || line[j-1] == ':') {
			j--
		}
	default:
		return "", keyNone
	}
	j = skipSpaceBack(line, j)
	if !comma && j > 0 && line[j-1] == ']' { // env['API_KEY'] = ...
		j--
	}
	quoted := j > 0 && (line[j-1] == '"' || line[j-1] == '\'')
	if comma && !quoted {
		return "", keyNone
	}
	if quoted { // "key": ...
		j--
	}
	end := j
	for j > 0 && keyByte(line[j-1]) {
		j--
	}
	if j == end || quoted && (j == 0 || line[j-1] != line[end]) {
		return "", keyNone // a quoted key must be a whole identifier, not prose
	}
	key := line[j:end]
	return key, secretKey(key)
}

func skipSpaceBack(line string, j int) int {
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	return j
}

func keyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// unquoted finds KEY=value and key: value pairs of a configuration line:
// .env, shell (export), Dockerfile ENV and ARG (also ENV KEY value), YAML.
func unquoted(line string) []assignment {
	s := strings.TrimLeft(line, " \t")
	off := len(line) - len(s)
	for _, prefix := range []string{"export ", "- ", "ENV ", "ARG ", "env ", "arg ", "set "} {
		if strings.HasPrefix(s, prefix) {
			s = strings.TrimLeft(s[len(prefix):], " \t")
			off = len(line) - len(s)
			break
		}
	}
	var out []assignment
	for s != "" {
		k := 0
		for k < len(s) && keyByte(s[k]) {
			k++
		}
		if k == 0 || k == len(s) {
			return out
		}
		key := s[:k]
		rest := s[k:]
		switch {
		case rest[0] == '=':
			rest = rest[1:]
		case rest[0] == ':' && len(rest) > 1 && (rest[1] == ' ' || rest[1] == '\t'):
			rest = strings.TrimLeft(rest[1:], " \t")
		case rest[0] == ' ' && strings.HasPrefix(strings.TrimLeft(line, " \t"), "ENV "):
			rest = strings.TrimLeft(rest, " ") // legacy ENV KEY value
		default:
			return out
		}
		vOff := off + len(s) - len(rest)
		if rest == "" || strings.ContainsRune("\"'`", rune(rest[0])) {
			return out // quoted values are handled by the caller
		}
		v := 0
		for v < len(rest) && rest[v] != ' ' && rest[v] != '\t' && rest[v] != ',' && rest[v] != ';' && rest[v] != '}' {
			v++
		}
		if class := secretKey(key); class != keyNone {
			out = append(out, assignment{key: key, class: class, value: rest[:v], from: vOff, to: vOff + v})
		}
		s = strings.TrimLeft(rest[v:], " \t")
		off = len(line) - len(s)
	}
	return out
}

// notSecretSuffix lists last words of a key that name data about a secret
// rather than the secret itself (token_url, password_hint, secret_name).
var notSecretSuffix = map[string]bool{
	"url": true, "uri": true, "endpoint": true, "path": true, "file": true, "filename": true, "dir": true,
	"name": true, "type": true, "id": true, "ids": true, "len": true, "length": true, "count": true,
	"header": true, "field": true, "env": true, "var": true, "ttl": true, "expiry": true, "expires": true,
	"expiration": true, "method": true, "mode": true, "format": true, "prefix": true, "suffix": true,
	"ref": true, "hash": true, "hashed": true, "label": true, "placeholder": true, "regex": true,
	"pattern": true, "policy": true, "enabled": true, "required": true, "min": true, "max": true,
	"size": true, "limit": true, "timeout": true, "version": true, "input": true, "hint": true,
	"message": true, "msg": true, "error": true, "text": true, "title": true, "description": true,
	"help": true, "prompt": true, "icon": true, "page": true, "route": true, "form": true, "button": true,
	"link": true, "index": true, "kind": true, "store": true, "provider": true, "service": true,
	"manager": true, "handler": true, "callback": true, "param": true, "schema": true, "visible": true,
	"strength": true, "rule": true, "rules": true, "column": true, "table": true, "location": true,
	"source": true, "arn": true, "secretref": true, "selector": true, "mount": true, "class": true,
	"address": true, "addr": true, "contract": true,
}

// keyPrefixes are the words before "key" that make it a secret key.
var keyPrefixes = map[string]bool{
	"api": true, "access": true, "private": true, "secret": true, "signing": true, "encryption": true,
	"master": true, "auth": true, "client": true, "account": true, "service": true, "app": true,
	"storage": true, "subscription": true, "admin": true, "consumer": true, "webhook": true, "hmac": true,
	"jwt": true, "license": true, "session": true,
}

// nonSecretTokens are words before "token" that name something other than
// a credential (a pagination cursor, an LLM token budget).
var nonSecretTokens = map[string]bool{
	"page": true, "next": true, "continuation": true, "cursor": true, "cancellation": true, "sync": true,
	"max": true, "num": true, "total": true, "input": true, "output": true, "completion": true,
	"prompt": true, "csrf": true, "xsrf": true,
}

// secretKey classifies a key name by the secret it names, if any.
func secretKey(key string) keyClass {
	if len(key) < 3 || len(key) > 80 || !hasSecretStem(key) {
		return keyNone
	}
	var buf [12]string
	words := splitWords(key, buf[:0])
	if len(words) == 0 || notSecretSuffix[words[len(words)-1]] {
		return keyNone
	}
	class := keyNone
	last := len(words) - 1
	for i, w := range words {
		prev := ""
		if i > 0 {
			prev = words[i-1]
		}
		c := keyNone
		switch w {
		case "password", "passwd", "pwd", "passphrase", "passcode":
			c = keyPassword
		case "pass":
			if i == last {
				c = keyPassword
			}
		case "secret", "secrets", "apikey", "apikeys":
			c = keyAPIKey
		case "key", "keys":
			if keyPrefixes[prev] {
				c = keyAPIKey
			}
		case "token", "tokens":
			if !nonSecretTokens[prev] {
				c = keyToken
			}
		case "credential", "credentials", "bearer", "authorization":
			c = keyToken
		case "auth":
			if i == last {
				c = keyToken
			}
		}
		class = max(class, c)
	}
	return class
}

// secretStems are substrings every secret-named key contains.
var secretStems = []string{"pass", "pwd", "secret", "token", "key", "auth", "cred", "bearer"}

// hasSecretStem reports, without allocating, whether key contains a secret
// stem in any case.
func hasSecretStem(key string) bool {
	for i := 0; i < len(key); i++ {
		c := key[i] | 0x20 // lower case for letters
		switch c {
		case 'p', 's', 't', 'k', 'a', 'c', 'b':
		default:
			continue
		}
		for _, stem := range secretStems {
			if stem[0] == c && len(key)-i >= len(stem) && strings.EqualFold(key[i:i+len(stem)], stem) {
				return true
			}
		}
	}
	return false
}

// splitWords splits a key into lower-case words at separators and case
// changes: "clientSecret" -> client, secret; "API_KEY" -> api, key;
// "APIKey" -> api, key.
func splitWords(key string, out []string) []string {
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(key[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'A' && c <= 'Z':
			// A new word starts at an upper-case letter after a lower-case one,
			// or before a lower-case one that follows upper-case letters.
			if start >= 0 && (isLower(key[i-1]) || i+1 < len(key) && isLower(key[i+1]) && i-1 >= start && isUpper(key[i-1])) {
				flush(i)
			}
			if start < 0 {
				start = i
			}
		case isLower(c) || c >= '0' && c <= '9':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(key))
	return out
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// placeholderWords mark values that are examples, fillers or fakes.
var placeholderWords = []string{
	"example", "changeme", "change_me", "change-me", "placeholder", "your", "xxxx", "****", "....",
	"redacted", "dummy", "fake", "sample", "test", "todo", "replace", "insert", "secret", "password",
	"passw0rd", "mock", "stub", "lorem", "demo", "default", "abcdefgh", "12345678", "sha256:", "sha512-",
	"sha384-", "sha1-", "md5:", "enc[", "vault:", "arn:", "projects/", "getenv", "environ", "process.env",
}

// placeholderValue reports values that are not credentials: templates and
// variable references, examples and fakes, booleans and nulls.
func placeholderValue(v string) bool {
	if v == "" {
		return true
	}
	switch v[0] {
	case '$', '%', '<', '{', '@', '!', '&', '*', '|', '>', '/', '~', '.':
		return true
	}
	if strings.Contains(v, "${") || strings.Contains(v, "{{") || strings.Contains(v, "$(") || strings.Contains(v, "%s") {
		return true
	}
	lower := strings.ToLower(v)
	for _, w := range placeholderWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return strings.Count(v, v[:1]) == len(v)
}

// uuidRE matches a UUID.
var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// jwtShapeRE matches a JSON web token, signed or not.
var jwtShapeRE = regexp.MustCompile(`^eyJ[A-Za-z0-9_\-]+\.eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*$`)

// ethAddressRE matches an Ethereum address, which is public.
var ethAddressRE = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// decodesToPlaceholder reports a base64 value (a Kubernetes Secret's data,
// a Basic credential) whose decoded text is a placeholder, a default or a
// single word: "cXVvYnl0ZQ==" is "quobyte".
func decodesToPlaceholder(v string) bool {
	if len(v) > 200 || len(v)%4 != 0 {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil || !printableASCII(string(b)) {
		return false
	}
	d := string(b)
	if placeholderValue(d) || placeholder(d) {
		return true
	}
	if user, pw, ok := strings.Cut(d, ":"); ok && defaultPassword(user, pw) {
		return true
	}
	for i := 0; i < len(d); i++ {
		if !isLower(d[i]) && !isUpper(d[i]) {
			return len(d) < 8
		}
	}
	return true // one word
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// envNameRE matches a value that names an environment variable.
var envNameRE = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// secretValue decides whether v, assigned to a key of class, looks like a
// real secret; it returns why, in words, and the confidence.
func secretValue(class keyClass, v string) (why string, conf review.Confidence, ok bool) {
	if class == keyToken {
		for _, scheme := range []string{"Bearer ", "bearer ", "Basic ", "Token ", "token "} {
			v = strings.TrimPrefix(v, scheme)
		}
	}
	if len(v) < 8 || len(v) > 1000 || strings.ContainsAny(v, " \t") || placeholderValue(v) || placeholder(v) ||
		envNameRE.MatchString(v) || hardcodedMatch(v) || strings.Contains(v, "://") {
		return "", "", false
	}
	if jwtShapeRE.MatchString(v) || ethAddressRE.MatchString(v) || decodesToPlaceholder(v) {
		// JWTs are judged by their own pattern (with its context rules); an
		// unsigned one carries no secret. A 0x address is public.
		return "", "", false
	}
	if uuidRE.MatchString(v) {
		if class == keyToken {
			return "", "", false // usually a tenant, client or correlation id
		}
		return "is a UUID (the credential format of Heroku and several other APIs)", review.ConfidenceMedium, true
	}
	h := entropy(v)
	var lower, upper, digit, other int
	hex, b64 := true, true
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower++
			hex = hex && c <= 'f'
		case c >= 'A' && c <= 'Z':
			upper++
			hex = hex && c <= 'F'
		case c >= '0' && c <= '9':
			digit++
		default:
			other++
			hex = false
			b64 = b64 && strings.IndexByte("+/=_-.~", c) >= 0
		}
	}
	hex = hex && !(lower > 0 && upper > 0)
	switch {
	case hex && len(v) >= 32 && h >= 3.0:
		return fmt.Sprintf("is a %d-character hex string with %.1f bits of entropy per character", len(v), h), review.ConfidenceMedium, true
	case b64 && len(v) >= 20 && digit > 0 && lower+upper > 0 && h >= b64Threshold(len(v)) && !wordy(v):
		return fmt.Sprintf("is a %d-character random-looking string with %.1f bits of entropy per character", len(v), h), review.ConfidenceMedium, true
	case class == keyPassword && len(v) >= 10 && h >= 3.0 && classes(lower, upper, digit, other) >= 3 && !wordy(v) &&
		printableASCII(v):
		return "looks like a real password (mixed character classes, not a placeholder)", review.ConfidenceMedium, true
	}
	return "", "", false
}

// b64Threshold is the least entropy, in bits per character, of a base64
// or base62 secret of length n: random 20-character tokens reach 3.5 more
// than 99% of the time, 32-character ones 4.0.
func b64Threshold(n int) float64 {
	if n >= 32 {
		return 4.0
	}
	return 3.5
}

func classes(counts ...int) int {
	n := 0
	for _, c := range counts {
		if c > 0 {
			n++
		}
	}
	return n
}

// entropy returns the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var freq [256]int
	for i := 0; i < len(s); i++ {
		freq[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, f := range freq {
		if f > 0 {
			p := float64(f) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// wordy reports values made mostly of words, such as identifiers and
// storage keys ("myapp_auth_token_v2", "accessTokenStorageKey"): at least
// 60% of their characters are in words of four or more letters, and they
// hold at most three digits. Random tokens rarely have letter runs that
// long, because their case and digits change every few characters.
func wordy(v string) bool {
	digits, inWords := 0, 0
	for i := 0; i < len(v); {
		c := v[i]
		if c >= '0' && c <= '9' {
			digits++
		}
		if !isLower(c) && !isUpper(c) {
			i++
			continue
		}
		// A word: an optional capital and lower-case letters, or capitals.
		j := i + 1
		if isUpper(c) && j < len(v) && isUpper(v[j]) {
			for j < len(v) && isUpper(v[j]) && !(j+1 < len(v) && isLower(v[j+1])) {
				j++
			}
		} else {
			for j < len(v) && isLower(v[j]) {
				j++
			}
		}
		if j-i >= 4 {
			inWords += j - i
		}
		i = j
	}
	return digits <= 3 && inWords*10 >= len(v)*6
}

// hardcodedMatch reports values that security/hardcoded-secret reports.
func hardcodedMatch(v string) bool {
	if strings.Contains(v, "-----BEGIN") {
		return true
	}
	for _, sp := range secretPatterns {
		if strings.Contains(v, sp.hint) && sp.re.MatchString(v) {
			return true
		}
	}
	for i := range providerPatterns {
		if pp := &providerPatterns[i]; strings.Contains(v, pp.hint) && pp.re.MatchString(v) {
			return true
		}
	}
	return false
}
