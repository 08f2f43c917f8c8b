package secret

import (
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// placeholder reports values that are documentation examples or fillers
// rather than real credentials: they name EXAMPLE, XXXXXXXX or
// PLACEHOLDER, or are one character repeated (after a "prefix_").
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

// judge decides whether v, assigned to a key of class, looks like a real
// secret; it returns why, in words, and the confidence.
func judge(class keyClass, v string) (why string, conf review.Confidence, ok bool) {
	if class == keyToken {
		for _, scheme := range []string{"Bearer ", "bearer ", "Basic ", "Token ", "token "} {
			v = strings.TrimPrefix(v, scheme)
		}
	}
	if len(v) < 8 || len(v) > 1000 || strings.ContainsAny(v, " \t") || placeholderValue(v) || placeholder(v) ||
		envNameRE.MatchString(v) || knownFormat(v) || strings.Contains(v, "://") {
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

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
