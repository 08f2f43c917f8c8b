package security

import (
	"go/ast"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/secret"
	"github.com/reviewls/reviewls/review/syntax"
)

// identWords splits the identifiers of s into lower-case words:
// "signingKey", "session_id" and "APIToken" give "signing", "key",
// "session", "id", "api", "token".
func identWords(s string) []string { return secret.Words(s, nil) }

// secretWords mark values that protect something: a weak hash or a
// predictable random number there is exploitable.
var secretWords = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "passphrase": true, "secret": true, "secrets": true,
	"token": true, "tokens": true, "nonce": true, "salt": true, "session": true, "sessionid": true, "sid": true,
	"csrf": true, "xsrf": true, "otp": true, "totp": true, "apikey": true, "credential": true, "credentials": true,
	"sign": true, "signed": true, "signing": true, "signature": true, "auth": true, "authenticate": true,
	"authentication": true, "authorization": true, "hmac": true, "login": true, "cookie": true, "iv": true,
}

// keyQualifiers make "key" a secret ("apiKey", "privateKey") rather than a
// lookup key ("cacheKey").
var keyQualifiers = map[string]bool{
	"api": true, "private": true, "secret": true, "signing": true, "encryption": true, "crypto": true,
	"aes": true, "hmac": true, "access": true, "master": true, "session": true, "auth": true,
}

// codeQualifiers make "code" a secret ("resetCode", "verificationCode").
var codeQualifiers = map[string]bool{
	"reset": true, "verification": true, "verify": true, "invite": true, "invitation": true,
	"confirmation": true, "confirm": true, "auth": true, "otp": true, "recovery": true, "activation": true,
}

// secretContext returns the first word of texts that marks a security use,
// or "".
func secretContext(texts ...string) string {
	for _, t := range texts {
		words := identWords(t)
		for i, w := range words {
			switch {
			case secretWords[w]:
				return w
			case w == "key" && i > 0 && keyQualifiers[words[i-1]]:
				return words[i-1] + " key"
			case w == "code" && i > 0 && codeQualifiers[words[i-1]]:
				return words[i-1] + " code"
			}
		}
	}
	return ""
}

// codeOf returns the code part of line n of f: the text before a comment,
// or "" when the whole line is a comment.
func codeOf(f *review.File, n int, line string) string {
	cs := syntax.Comments(f)
	if n >= 1 && n <= len(cs) && cs[n-1].Col > 0 {
		return line[:min(cs[n-1].Col-1, len(line))]
	}
	return line
}

var (
	pyDefRE = regexp.MustCompile(`^\s*(?:async\s+)?def\s+(\w+)`)
	jsFnRE  = regexp.MustCompile(`(?:function\s*\*?\s*(\w+)|(\w+)\s*[:=]\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)|^\s*(?:async\s+)?(\w+)\s*\([^)]*\)\s*\{)`)
)

// enclosingScriptFunc returns the name of the Python or JavaScript function
// that most likely holds line n: the nearest definition above it, looking
// back at most 80 lines.
func enclosingScriptFunc(lines []string, n int, lang review.Language) string {
	re := jsFnRE
	if lang == review.LangPython {
		re = pyDefRE
	}
	for i := n - 1; i >= 0 && i >= n-80; i-- {
		if m := re.FindStringSubmatch(lines[i]); m != nil {
			for _, g := range m[1:] {
				if g != "" && g != "if" && g != "for" && g != "while" && g != "switch" && g != "catch" {
					return g
				}
			}
		}
	}
	return ""
}

// secretNoun names the secret a context word points at, for messages.
func secretNoun(word string) string {
	switch {
	case strings.HasPrefix(word, "pass") || word == "pwd":
		return "password"
	case strings.HasPrefix(word, "sign"):
		return "signature"
	case strings.HasPrefix(word, "auth") || word == "login" || strings.HasPrefix(word, "credential"):
		return "credential"
	case word == "session" || word == "sid" || word == "sessionid":
		return "session id"
	case word == "csrf" || word == "xsrf":
		return "CSRF token"
	case word == "otp" || word == "totp":
		return "one-time password"
	case word == "iv":
		return "IV"
	case word == "hmac":
		return "MAC"
	case word == "secrets" || word == "tokens":
		return strings.TrimSuffix(word, "s")
	}
	return word
}

// pkgCall returns n as a call of a function of one of pkgs (keyed by local
// package name, as from lens.GoUses) with the package's local name and the
// function's name, or a nil call.
func pkgCall(n ast.Node, pkgs map[string]string) (call *ast.CallExpr, pkg, name string) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return nil, "", ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, "", ""
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok || pkgs[x.Name] == "" {
		return nil, "", ""
	}
	return call, x.Name, sel.Sel.Name
}
