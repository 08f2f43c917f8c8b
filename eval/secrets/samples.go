package main

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
)

// A sample is one credential: its kind and its value.
type sample struct{ kind, value string }

const (
	alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	hex   = "0123456789abcdef"
	urlb  = alnum + "-_"
)

func rnd(r *rand.Rand, set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[r.IntN(len(set))]
	}
	return string(b)
}

// samples returns one credential of each format, the formats as the
// providers document them.
func samples(r *rand.Rand) []sample {
	jwtPart := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	pem := "-----BEGIN RSA PRIVATE KEY-----\n"
	for range 6 {
		pem += rnd(r, alnum+"+/", 64) + "\n"
	}
	pem += "-----END RSA PRIVATE KEY-----"
	return []sample{
		{"AWS access key ID", "AKIA" + rnd(r, upper, 16)},
		{"GitHub classic token", "ghp_" + rnd(r, alnum, 36)},
		{"GitHub fine-grained token", "github_pat_" + rnd(r, alnum, 22) + "_" + rnd(r, alnum, 59)},
		{"GitLab token", "glpat-" + rnd(r, urlb, 20)},
		{"Slack bot token", "xoxb-" + rnd(r, "0123456789", 12) + "-" + rnd(r, "0123456789", 13) + "-" + rnd(r, alnum, 24)},
		{"Slack webhook", "https://hooks.slack.com/services/T" + rnd(r, upper, 8) + "/B" + rnd(r, upper, 10) + "/" + rnd(r, alnum, 24)},
		{"Stripe secret key", "sk_live_" + rnd(r, alnum, 24)},
		{"Google API key", "AIza" + rnd(r, urlb, 35)},
		{"OpenAI key", "sk-proj-" + rnd(r, urlb, 74) + "T3BlbkFJ" + rnd(r, urlb, 74)},
		{"Anthropic key", "sk-ant-api03-" + rnd(r, urlb, 93) + "AA"},
		{"npm token", "npm_" + rnd(r, alnum, 36)},
		{"PyPI token", "pypi-AgEIcHlwaS5vcmc" + rnd(r, urlb, 60)},
		{"SendGrid key", "SG." + rnd(r, urlb, 22) + "." + rnd(r, urlb, 43)},
		{"Twilio API key", "SK" + rnd(r, hex, 32)},
		{"Shopify token", "shpat_" + rnd(r, hex, 32)},
		{"DigitalOcean token", "dop_v1_" + rnd(r, hex, 64)},
		{"Databricks token", "dapi" + rnd(r, hex, 32)},
		{"Vault token", "hvs." + rnd(r, urlb, 90)},
		{"Telegram bot token", rnd(r, "123456789", 10) + ":AA" + rnd(r, urlb, 33)},
		{"Mailgun key", "key-" + rnd(r, hex, 32)},
		{"Azure storage key", "DefaultEndpointsProtocol=https;AccountName=" + strings.ToLower(rnd(r, upper[:26], 10)) + ";AccountKey=" + rnd(r, alnum+"+/", 86) + "==;EndpointSuffix=core.windows.net"},
		{"private key", pem},
		{"JWT", jwtPart(`{"alg":"HS256","typ":"JWT"}`) + "." + jwtPart(`{"sub":"`+rnd(r, "0123456789", 10)+`","name":"svc","iat":1700000000}`) + "." + rnd(r, urlb, 43)},
		{"password in config", rnd(r, alnum, 6) + "#" + rnd(r, alnum, 5) + "$" + rnd(r, alnum, 6)},
		{"generic API key", rnd(r, alnum, 32)},
	}
}

// contexts write a sample into a file the way code holds credentials: a
// Go constant, a Python setting, a JavaScript config object, a .env line,
// a YAML key, and an argument no name explains. Samples whose value only a keyword identifies (a
// password, a generic key) get a keyword name in every context.
var contexts = []func(s sample) (path, text string){
	func(s sample) (string, string) {
		return "internal/config/config.go", "package config\n\nconst " + name(s, "goCamel") + " = `" + s.value + "`\n"
	},
	func(s sample) (string, string) {
		return "app/settings.py", "import os\n\n" + name(s, "UPPER") + " = \"\"\"" + s.value + "\"\"\"\n"
	},
	func(s sample) (string, string) {
		return "src/client.js", "export const client = new Client({\n  " + name(s, "jsCamel") + ": `" + s.value + "`,\n});\n"
	},
	func(s sample) (string, string) {
		return ".env", name(s, "UPPER") + "=" + strings.ReplaceAll(s.value, "\n", "\\n") + "\n"
	},
	func(s sample) (string, string) {
		v := s.value
		if strings.Contains(v, "\n") {
			v = "|\n    " + strings.ReplaceAll(v, "\n", "\n    ")
		} else {
			v = "\"" + v + "\""
		}
		return "deploy/values.yaml", "service:\n  " + name(s, "snake") + ": " + v + "\n"
	},
	func(s sample) (string, string) {
		// No name says what the value is: only its format can.
		return "cmd/sync/main.go", "package main\n\nfunc main() {\n\tc := upstream.New(`" + s.value + "`)\n\tc.Run()\n}\n"
	},
}

// name is the variable a sample is stored under, in a casing.
func name(s sample, casing string) string {
	words := []string{"api", "key"}
	switch {
	case strings.Contains(s.kind, "password"):
		words = []string{"db", "password"}
	case strings.Contains(s.kind, "token") || s.kind == "JWT":
		words = []string{"auth", "token"}
	case strings.Contains(s.kind, "webhook"):
		words = []string{"webhook", "url"}
	case strings.Contains(s.kind, "private key"):
		words = []string{"signing", "key"}
	}
	switch casing {
	case "UPPER":
		return strings.ToUpper(strings.Join(words, "_"))
	case "snake":
		return strings.Join(words, "_")
	case "goCamel", "jsCamel":
		return words[0] + strings.ToUpper(words[1][:1]) + words[1][1:]
	}
	return strings.Join(words, "")
}
