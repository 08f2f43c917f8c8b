package secret

import (
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestSecretsEveryLine checks that the detector reads every line of a text,
// whatever its place in a diff, and returns only the values.
func TestSecretsEveryLine(t *testing.T) {
	for _, tc := range []struct {
		path, text string
		want       []string
	}{
		{"a.go", "package a\n\nconst k = \"AKIAZ7Q2R5T6W3X4Y6B2\"\n", []string{"AKIAZ7Q2R5T6W3X4Y6B2"}},
		{"settings.py", "API_TOKEN = \"f3Jk9QzL2mXw8RtV5nBc7HyD4pGs\"\n", []string{"f3Jk9QzL2mXw8RtV5nBc7HyD4pGs"}},
		{"", "feature/ghp_Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa0SdFgHjKlZ", []string{"ghp_Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa0SdFgHjKlZ"}},
		{"", "keys/AIzaSyD4rT7uI0oP3aS6dF9gH2jK5lZ8xC1vB4n.json", []string{"AIzaSyD4rT7uI0oP3aS6dF9gH2jK5lZ8xC1vB4n"}},
		{"", "remote: https://deploy:Zq8vN3xR7tK2mW9p@git.acme-corp.net/app.git", []string{"Zq8vN3xR7tK2mW9p"}},
		{"", "DB_PASSWORD=Vq7#pL2m!xR9Kz", []string{"Vq7#pL2m!xR9Kz"}},
		// Near misses: placeholders, examples, no secret at all.
		{"", "https://user:password@git.acme-corp.net/app.git", nil},
		{"", "AKIAIOSFODNN7EXAMPLE", nil},
		{"a.go", "package a\n\nfunc f() {}\n", nil},
		{"", "feature/add-login-page", nil},
		{"", "", nil},
	} {
		got := Values(tc.path, tc.text)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Values(%q, %q) = %q, want %q", tc.path, tc.text, got, tc.want)
		}
	}
}

// TestSecretsIgnoresComments checks that redaction does not depend on
// inline ignore comments: an ignored secret is still a secret.
func TestSecretsIgnoresComments(t *testing.T) {
	text := "const k = \"AKIAZ7Q2R5T6W3X4Y6B2\" // reviewls:ignore security/hardcoded-secret fixture for the parser tests\n"
	if got := Values("a.go", text); !slices.Equal(got, []string{"AKIAZ7Q2R5T6W3X4Y6B2"}) {
		t.Errorf("Values = %q, want the key", got)
	}
}

func BenchmarkFindShort(b *testing.B) {
	texts := []string{"lsp/session.go", "feature/add-login-page", "Fix finding 3, Hardcoded secret (a.go:12).", "refs/heads/main"}
	for b.Loop() {
		for _, s := range texts {
			Find(s)
		}
	}
}

func BenchmarkFindDiff(b *testing.B) {
	var sb strings.Builder
	for i := range 2000 {
		sb.WriteString("-\tx := compute(a, b) // line ")
		sb.WriteString(strings.Repeat("y", i%40))
		sb.WriteString("\n")
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Find(text)
	}
}

func TestSecretKey(t *testing.T) {
	for key, want := range map[string]keyClass{
		"password": keyPassword, "DB_PASSWORD": keyPassword, "db_pass": keyPassword, "passwordHint": keyNone,
		"clientSecret": keyAPIKey, "SECRET_KEY_BASE": keyAPIKey, "x-api-key": keyAPIKey, "APIKey": keyAPIKey,
		"apikey": keyAPIKey, "access_key": keyAPIKey, "privateKeyPath": keyNone, "cache_key": keyNone,
		"idempotencyKey": keyNone, "github_token": keyToken, "next_page_token": keyNone, "max_tokens": keyNone,
		"auth": keyToken, "author": keyNone, "oauth_url": keyNone, "auth_method": keyNone,
		"Authorization": keyToken, "credentials": keyToken, "token_type": keyNone, "bypass": keyNone,
		"spring.datasource.password": keyPassword, "key": keyNone, "integrity": keyNone,
	} {
		if got := secretKey(key); got != want {
			t.Errorf("secretKey(%q) = %d, want %d", key, got, want)
		}
	}
}

func TestWordy(t *testing.T) {
	for v, want := range map[string]bool{
		"myapp_auth_token_v2": true, "accessTokenStorageKey": true, "ThisIsNotARealSecretValue1": true,
		"MY_SUPER_SECRET_TOKEN_VALUE1": true, "f3Jk9QzL2mXw8RtV5nBc7HyD4pGs": false,
		"prvu5IfijoySjTneAAvIDAdn": false, "1XcW9aTMX1C+CI3+dXRZv7qdYdk2r7xgHWPB6PRW": false,
	} {
		if got := wordy(v); got != want {
			t.Errorf("wordy(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestFormats checks issue 26 item 4: the credential formats a review
// missed are found (and so redacted), each beside near misses that stay
// quiet.
func TestFormats(t *testing.T) {
	const (
		aws    = "wJalrXUtnFEMI7K7MDENGbPxRfiCYzq9Lm2Tk4Vx"
		pw     = "Summer2024!x"
		npm    = "f3Jk9QzL2mXw8RtV5nBc7HyD4pGsA1eU"
		ghp    = "ghp_Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa0SdFgHjKlZ"
		akia   = "AKIA5XRILAV5FVCYK43K"
		xmlPW  = "p4ss-W0rd-9qz!Lk"
		jupyPW = "Jx7#kQ2m!Lp9vR"
	)
	for _, tc := range []struct {
		name, path, text string
		want             []string
	}{
		{"AWS credentials", ".aws/credentials", "[default]\naws_access_key_id = " + akia + "\naws_secret_access_key = " + aws + "\n", []string{akia, aws}},
		{"INI password", "conf/app.ini", "[db]\npassword = " + pw + "\nhost = db.internal\n", []string{pw}},
		{"properties", "src/main/resources/application.properties", "spring.datasource.password = " + pw + "\nspring.datasource.url=jdbc:postgresql://db/app\n", []string{pw}},
		{"properties with a colon", "app.properties", "db.password : " + pw + "\n", []string{pw}},
		{"XML element", "settings.xml", "<server>\n  <id>nexus</id>\n  <password>" + xmlPW + "</password>\n</server>\n", []string{xmlPW}},
		{"XML element in code", "Config.java", `String cfg = "<apiKey>` + npm + `</apiKey>";` + "\n", []string{npm}},
		{".npmrc scoped token", ".npmrc", "//registry.acme-corp.net/:_authToken=" + npm + "\nalways-auth=true\n", []string{npm}},
		{".npmrc bare token", ".npmrc", "_authToken=" + npm + "\n", []string{npm}},
		{"notebook cell", "analysis.ipynb", "   \"source\": [\n    \"import os\\n\",\n    \"API_TOKEN = \\\"" + npm + "\\\"\\n\",\n    \"db_password = '" + jupyPW + "'\"\n   ]\n", []string{npm, jupyPW}},
		{"token after an underscore", "", "wip_" + ghp, []string{ghp}},
		{"token between underscores", "", "keys/old_" + akia + "_backup.txt", []string{akia}},
		// Near misses.
		{"INI placeholder", "conf/app.ini", "password = ${DB_PASSWORD}\npassword = changeme\npassword =\n", nil},
		{"INI prose", "conf/app.ini", "token = the token of the service\n", nil},
		{"empty XML element", "settings.xml", "<password></password>\n<password>${env.PASSWORD}</password>\n<token>{{ token }}</token>\n", nil},
		{"XML element not named like a secret", "pom.xml", "<version>3f8a9c2e7b1d4f6a0e5c9b2d7f3a1e8c</version>\n", nil},
		{".npmrc from the environment", ".npmrc", "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n", nil},
		{"notebook outputs", "analysis.ipynb", "     \"output_type\": \"stream\",\n     \"text\": [\n      \"sha256: 3f8a9c2e7b1d4f6a0e5c9b2d7f3a1e8c4b6d9f2a\\n\",\n      \"token count: 4096\\n\"\n     ]\n    },\n    {\n     \"data\": {\n      \"image/png\": \"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\"\n     },\n     \"execution_count\": 3,\n", nil},
		{"a word that ends in a token prefix", "", "wip_ghp_short", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Values(tc.path, tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("Values(%q) = %q, want %q", tc.path, got, tc.want)
			}
		})
	}
}

// TestPublicClientConfig checks that the API keys of a Firebase web config
// and of an Algolia search config, public by design, are no secrets,
// whether the detector is given the whole file (as the rules are) or
// reads it line by line (as a scan does, learning what the file is only
// after the key); elsewhere the same keys are secrets.
func TestPublicClientConfig(t *testing.T) {
	const (
		google = "AIza8Cz6SNDCdyZQJiJSZQdoHwHen3SO3oXyGf3"
		search = "10e7a8b13e6aec4007343338ab134e05"
	)
	firebase := "const config = {\n  apiKey: \"" + google + "\",\n  authDomain: \"acme-app.firebaseapp.com\",\n};\n"
	algolia := "// algolia\nconst search = {\n  apiKey: '" + search + "',\n  indexName: 'docs',\n};\n"
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"Firebase web config", firebase, nil},
		{"Algolia search config", algolia, nil},
		{"a Google API key elsewhere", strings.Replace(firebase, "authDomain: \"acme-app.firebaseapp.com\"", "region: \"eu\"", 1), []string{google}},
		{"a key in a Firebase config", strings.Replace(algolia, "// algolia", "// authDomain", 1), nil},
		{"Algolia without an index", strings.Replace(algolia, "indexName", "index", 1), []string{search}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Values("config.js", tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("line by line: %q, want %q", got, tc.want)
			}
			d := NewDetector("config.js", review.DetectLanguage("config.js", nil), []byte(tc.text))
			var hits []Hit
			for i, line := range strings.Split(tc.text, "\n") {
				hits = d.Generic(i+1, line, hits)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.Values...)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("with the whole file: %q, want %q", got, tc.want)
			}
		})
	}
}
