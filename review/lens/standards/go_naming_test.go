package standards

import (
	"slices"
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestGoNamingFixes(t *testing.T) {
	if n := lenstest.CheckFixes(t, GoNaming, lenstest.Input(t, "testdata/go-naming/user.go", "user/user.go")); n < 3 {
		t.Errorf("checked %d fixes, want the 3 local renames", n)
	}
}

func TestMixedCaps(t *testing.T) {
	for name, want := range map[string][]string{
		"getHTTPServer_id": {"get", "HTTP", "Server", "id"},
		"MAX_SIZE":         {"MAX", "SIZE"},
		"UserIds":          {"User", "Ids"},
		"utf8Len":          {"utf8", "Len"},
	} {
		if got := mixedCaps(name); !slices.Equal(got, want) {
			t.Errorf("mixedCaps(%q) = %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]string{
		"MAX_RETRY_COUNT": "MaxRetryCount",
		"max_retry":       "maxRetry",
		"user_id":         "userID",
		"HTTP_TIMEOUT":    "HTTPTimeout",
		"GetUserId":       "GetUserID",
		"ApiKeys":         "APIKeys",
		"UserIds":         "UserIDs",
		"userId":          "",
		"ServeHTTP":       "",
		"_":               "",
		"EOF":             "",
	} {
		if got, _ := goNameFix(name); got != want {
			t.Errorf("goNameFix(%q) = %q, want %q", name, got, want)
		}
	}
}
