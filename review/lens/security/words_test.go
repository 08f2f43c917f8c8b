package security

import (
	"slices"
	"testing"
)

func TestIdentWords(t *testing.T) {
	for in, want := range map[string][]string{
		"signingKey":         {"signing", "key"},
		"session_id":         {"session", "id"},
		"APIToken":           {"api", "token"},
		"hashed := md5.Sum(": {"hashed", "md5", "sum"},
		"HTTPServer2":        {"http", "server2"},
	} {
		if got := identWords(in); !slices.Equal(got, want) {
			t.Errorf("identWords(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"cacheKey := md5.Sum(b)":     "",
		"apiKey := rand.Int63()":     "api key",
		"resetCode = rand.Intn(1e6)": "reset code",
		"func signPayload(b []byte)": "sign",
		"func objectID(":             "",
		"sessionToken":               "session",
	} {
		if got := secretContext(in); got != want {
			t.Errorf("secretContext(%q) = %q, want %q", in, got, want)
		}
	}
}
