package security

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestGenericSecretRedacted checks the redaction contract: no output
// carries the value, which is kept only in Secrets.
func TestGenericSecretRedacted(t *testing.T) {
	const secret = "f3Jk9QzL2mXw8RtV5nBc7HyD4pGs"
	for _, src := range []string{
		"API_TOKEN = \"" + secret + "\"\n",
		"{\"client_secret\": \"" + secret + "\"}\n",
	} {
		f := lenstest.NewFile("settings.json", []byte(src))
		got := lenstest.Check(t, GenericSecret, f, 0, nil)
		if len(got) != 1 {
			t.Fatalf("%q: got %d findings, want 1", src, len(got))
		}
		fd := got[0]
		for name, s := range map[string]string{"title": fd.Title, "message": fd.Message, "code": fd.CurrentCode, "fix": fd.SuggestedFix, "id": fd.ID} {
			if strings.Contains(s, secret) || strings.Contains(s, secret[4:16]) {
				t.Errorf("%s carries the secret: %q", name, s)
			}
		}
		if !strings.Contains(fd.Message, "f3Jk…[redacted, 28 chars]") {
			t.Errorf("message %q does not show the redacted prefix and length", fd.Message)
		}
		if len(fd.Secrets) != 1 || fd.Secrets[0] != secret {
			t.Errorf("Secrets = %q, want the raw value", fd.Secrets)
		}
		if col := strings.Index(src, secret) + 1; fd.Span.StartCol != col || fd.Span.EndCol != col+len(secret) {
			t.Errorf("span columns %d-%d, want %d-%d", fd.Span.StartCol, fd.Span.EndCol, col, col+len(secret))
		}
	}
}

// TestGenericSecretSeverity checks that live provider keys are Critical and
// heuristic findings High with medium confidence.
func TestGenericSecretSeverity(t *testing.T) {
	src := "a = \"sk_live_OhbVrpoiVgRV5IfLBcbfnoGM\"\nAPI_TOKEN = \"f3Jk9QzL2mXw8RtV5nBc7HyD4pGs\"\n"
	got := lenstest.Check(t, GenericSecret, lenstest.NewFile("a.py", []byte(src)), 0, nil)
	if len(got) != 2 {
		t.Fatalf("got %d findings, want 2", len(got))
	}
	if got[0].Severity != review.SeverityCritical || got[0].Confidence != "high" {
		t.Errorf("provider key: %v/%s, want Critical/high", got[0].Severity, got[0].Confidence)
	}
	if got[1].Severity != review.SeverityHigh || got[1].Confidence != "medium" {
		t.Errorf("heuristic: %v/%s, want High/medium", got[1].Severity, got[1].Confidence)
	}
}

// TestGenericSecretNoDoubleReport checks that values security/hardcoded-secret
// reports are left to it.
func TestGenericSecretNoDoubleReport(t *testing.T) {
	src := "GITHUB_TOKEN = \"ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123\"\naws_secret = \"AKIAZ7Q2R5T6W3X4Y6B2\"\n"
	f := lenstest.NewFile("a.py", []byte(src))
	if got := lenstest.Check(t, GenericSecret, f, 0, nil); len(got) != 0 {
		t.Errorf("got %d findings, want 0 (hardcoded-secret reports these)", len(got))
	}
	if got := lenstest.Check(t, HardcodedSecret, f, 0, nil); len(got) != 2 {
		t.Errorf("hardcoded-secret: got %d findings, want 2", len(got))
	}
}
