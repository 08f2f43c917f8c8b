package auth

import "testing"

// JWTs in tests are fixtures signed with a test key: not reported.
func TestParse(t *testing.T) {
	token := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.azU3iQOpMN0PZLqy1WwMZaMKA3P744B8vkKQlENCzsd"
	t.Setenv("API_TOKEN", "fake-f3Jk9QzL2mXw8RtV5nBc7HyD4pGs")
	_ = token
}
