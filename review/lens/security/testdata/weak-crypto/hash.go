package hash

import (
	"crypto/des"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
)

type User struct{ PasswordHash string }

func SetPassword(u *User, password string) {
	sum := md5.Sum([]byte(password)) // want "MD5 protects a secret \(password\)"
	u.PasswordHash = hex.EncodeToString(sum[:])
}

func signPayload(body []byte) []byte {
	h := sha1.New() // want "SHA-1 protects a secret \(signature\)"
	h.Write(body)
	return h.Sum(nil)
}

func SessionID(seed string) string {
	return fmt.Sprintf("%x", md5.Sum([]byte(seed))) // want "session id"
}

func Encrypt(key, data []byte) {
	block, _ := des.NewTripleDESCipher(key) // want "Broken cipher 3DES"
	_ = block
	c, _ := rc4.NewCipher(key) // want "Broken cipher RC4"
	_ = c
}

// Near misses: identifiers, cache keys and checksums.

func objectID(kind string, content []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", kind, len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

func cacheKey(url string) string {
	sum := md5.Sum([]byte(url))
	return hex.EncodeToString(sum[:])
}

func totp(secret []byte, counter []byte) []byte {
	mac := hmac.New(sha1.New, secret)
	mac.Write(counter)
	return mac.Sum(nil)
}
