package secret

import "strings"

// keyClass is the kind of secret a key names.
type keyClass uint8

const (
	keyNone     keyClass = iota
	keyToken             // token, auth, credential, bearer
	keyAPIKey            // api_key, access_key, private_key, secret, client_secret
	keyPassword          // password, passwd, pwd, pass, passphrase
)

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
	words := Words(key, buf[:0])
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

// Words splits an identifier or key into lower-case words at separators
// and case changes, appending them to out: "clientSecret" gives client,
// secret; "API_KEY" api, key; "APIKey" api, key.
func Words(key string, out []string) []string {
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

// publicKeyName reports the key names of browser-side API keys (apiKey,
// searchApiKey) in public client configurations.
func publicKeyName(key string) bool {
	switch strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(key)) {
	case "apikey", "searchapikey", "searchkey":
		return true
	}
	return false
}
