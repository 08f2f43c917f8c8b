package security

import (
	"fmt"
	"go/ast"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// WeakCrypto finds broken hashes used to protect secrets and broken
// ciphers used at all.
var WeakCrypto = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/weak-crypto",
		Perspective: review.Security,
		Category:    CatSecrets,
		Severity:    review.SeverityHigh,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Skill:       "CWE-327",
		Summary:     "Broken cryptographic algorithm",
		Doc: "MD5 and SHA-1 are broken for security: collisions are cheap, and as fast unsalted hashes they let " +
			"a leaked password database be brute-forced at billions of guesses per second; DES, 3DES and RC4 are " +
			"broken ciphers whose traffic can be decrypted. Hash passwords with bcrypt, scrypt or Argon2, sign " +
			"and derive tokens with HMAC-SHA-256 or SHA-256, and encrypt with AES-GCM or ChaCha20-Poly1305. " +
			"MD5 and SHA-1 have many harmless uses (git object ids, cache keys, checksums, ETags), so they are " +
			"reported only when the statement or its function names a secret (password, token, secret, " +
			"signature, session, nonce, salt, api key, ...), and never with Python's usedforsecurity=False. " +
			"HMAC-SHA-1 (hmac.New(sha1.New, key)) is not reported: HMAC does not rely on collision resistance " +
			"and TOTP requires it. DES, 3DES and RC4 are reported wherever they are used, except in test files, " +
			"whose test vectors exercise legacy algorithms on purpose.",
		Bad:  "sum := md5.Sum([]byte(password))\nuser.PasswordHash = hex.EncodeToString(sum[:])",
		Good: "hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)",
	},
	Run: runWeakCrypto,
}

// hashAdvice is what to use instead of a broken hash for a given use.
func hashAdvice(noun string) string {
	switch noun {
	case "password", "credential":
		return "Hash passwords with a slow, salted password hash: bcrypt, scrypt or Argon2id."
	case "signature", "MAC":
		return "Sign with HMAC-SHA-256 (or an asymmetric signature) and compare with a constant-time comparison."
	}
	return "Use SHA-256 (or HMAC-SHA-256 when a key is involved), and crypto-strength random values for tokens and nonces."
}

func weakHashMessage(alg, noun string) string {
	return fmt.Sprintf("%s protects a secret here (%s). %s is broken: collisions are cheap to compute, and as a fast unsalted hash "+
		"it lets anyone who obtains the stored values brute-force them at billions of guesses per second, or forge a "+
		"value with the same digest.", alg, noun, alg)
}

const cipherSuggested = "Encrypt with AES-GCM or ChaCha20-Poly1305 (crypto/cipher NewGCM, golang.org/x/crypto/chacha20poly1305) with a fresh random nonce per message."

func cipherMessage(alg string) string {
	return fmt.Sprintf("%s is a broken cipher: its small block or key size (or biased keystream) lets an attacker who "+
		"captures enough ciphertext recover plaintext or keys (Sweet32, RC4 biases), so the data it protects is readable.", alg)
}

func runWeakCrypto(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return // test vectors exercise legacy algorithms on purpose
	}
	switch lang := p.File.Language; {
	case lang == review.LangGo:
		weakCryptoGo(p)
	case lang == review.LangPython:
		if p.Contains("hashlib") || p.Contains("DES") || p.Contains("ARC4") {
			weakCryptoScript(p, pyWeakHash, pyWeakCipher)
		}
	case lang.IsJS():
		if p.Contains("createHash") || p.Contains("createCipher") {
			weakCryptoScript(p, jsWeakHash, jsWeakCipher)
		}
	}
}

func weakCryptoGo(p *lens.Pass) {
	g := syntax.Go(p.File)
	algorithms := map[string]string{"crypto/md5": "MD5", "crypto/sha1": "SHA-1", "crypto/des": "DES", "crypto/rc4": "RC4"}
	paths, decls := lens.GoUses(p.File, []string{"crypto/md5", "crypto/sha1", "crypto/des", "crypto/rc4"})
	names := map[string]string{} // local package name -> algorithm
	for n, path := range paths {
		names[n] = algorithms[path]
	}
	for _, d := range decls {
		fn := ""
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
		}
		ast.Inspect(d, func(n ast.Node) bool {
			call, pkg, name := pkgCall(n, names)
			if call == nil {
				return true
			}
			line := g.Line(call.Pos())
			if !p.Changed(line) {
				return true
			}
			alg := names[pkg]
			switch alg {
			case "DES", "RC4":
				if alg == "DES" && name == "NewTripleDESCipher" {
					alg = "3DES"
				}
				p.Report(lens.Report{
					Line: line, Col: g.Col(call.Pos()), EndLine: g.Line(call.End()), EndCol: g.Col(call.End()),
					Symbol: fn, Title: fmt.Sprintf("Broken cipher %s", alg),
					Message: cipherMessage(alg), Suggested: cipherSuggested,
				})
			default:
				if name != "New" && name != "Sum" {
					return true
				}
				word := secretContext(codeOf(p.File, line, p.Line(line)), fn)
				if word == "" {
					return true
				}
				word = secretNoun(word)
				p.Report(lens.Report{
					Line: line, Col: g.Col(call.Pos()), EndLine: g.Line(call.End()), EndCol: g.Col(call.End()),
					Symbol: fn, Title: fmt.Sprintf("%s protects a secret (%s)", alg, word),
					Message: weakHashMessage(alg, word), Suggested: hashAdvice(word),
				})
			}
			return true
		})
	}
}

var (
	pyWeakHash   = regexp.MustCompile(`\bhashlib\.(md5|sha1)\s*\(|\bhashlib\.new\(\s*['"](md5|sha1|MD5|SHA1)['"]`)
	pyWeakCipher = regexp.MustCompile(`\b(DES3|DES|ARC4)\.new\s*\(`)
	jsWeakHash   = regexp.MustCompile(`\bcreateHash\(\s*['"](md5|sha1|MD5|SHA1)['"]`)
	jsWeakCipher = regexp.MustCompile(`\bcreateCipheriv\(\s*['"]((?i:des|rc4|bf|blowfish)[\w-]*)['"]|\bcreateCipher\(`)
)

// algName normalises a matched algorithm name.
func algName(s string) string {
	switch strings.ToLower(s) {
	case "md5":
		return "MD5"
	case "sha1":
		return "SHA-1"
	case "des3":
		return "3DES"
	case "arc4":
		return "RC4"
	}
	return strings.ToUpper(s)
}

func weakCryptoScript(p *lens.Pass, hashRE, cipherRE *regexp.Regexp) {
	lines := p.Lines()
	lens.EachChangedLine(p.File, func(n int, line string) {
		code := codeOf(p.File, n, line)
		if m := cipherRE.FindStringSubmatchIndex(code); m != nil {
			alg := "the legacy createCipher API"
			if m[2] >= 0 {
				alg = algName(code[m[2]:m[3]])
			}
			msg := cipherMessage(alg)
			if m[2] < 0 {
				msg = "crypto.createCipher derives its key with a single unsalted MD5 and reuses the IV for every message, so " +
					"the ciphertext can be decrypted by brute-forcing the password or comparing messages; it was removed in Node 22."
			}
			p.Report(lens.Report{
				Line: n, Col: m[0] + 1, EndCol: m[1] + 1,
				Title: fmt.Sprintf("Broken cipher %s", strings.TrimPrefix(alg, "the ")), Message: msg,
				Suggested: "Encrypt with AES-256-GCM (or ChaCha20-Poly1305) using a random key and a fresh random nonce per message.",
			})
			return
		}
		m := hashRE.FindStringSubmatchIndex(code)
		if m == nil || strings.Contains(code, "usedforsecurity=False") || strings.Contains(code, "usedforsecurity = False") {
			return
		}
		alg := ""
		for i := 2; i+1 < len(m); i += 2 {
			if m[i] >= 0 {
				alg = algName(code[m[i]:m[i+1]])
			}
		}
		word := secretContext(code, enclosingScriptFunc(lines, n, p.File.Language))
		if word == "" {
			return
		}
		word = secretNoun(word)
		p.Report(lens.Report{
			Line: n, Col: m[0] + 1, EndCol: m[1] + 1,
			Title:   fmt.Sprintf("%s protects a secret (%s)", alg, word),
			Message: weakHashMessage(alg, word), Suggested: hashAdvice(word),
		})
	})
}
