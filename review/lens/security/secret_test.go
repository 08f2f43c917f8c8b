package security

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestHardcodedSecretRedacted checks that no part of a finding carries the
// secret value, and that the raw value is kept only for redaction.
func TestHardcodedSecretRedacted(t *testing.T) {
	const secret = "ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123"
	f := lenstest.NewFile("a.go", []byte("package a\n\nvar tok = \""+secret+"\"\n"))
	got := lenstest.Check(t, HardcodedSecret, f, 0, nil)
	if len(got) != 1 {
		t.Fatalf("got %d findings, want 1", len(got))
	}
	fd := got[0]
	for name, s := range map[string]string{"title": fd.Title, "message": fd.Message, "code": fd.CurrentCode, "fix": fd.SuggestedFix, "id": fd.ID} {
		if strings.Contains(s, secret) || strings.Contains(s, secret[4:20]) {
			t.Errorf("%s carries the secret: %q", name, s)
		}
	}
	if !strings.Contains(fd.Message, "ghp_…[redacted, 40 chars]") {
		t.Errorf("message %q does not show the redacted prefix and length", fd.Message)
	}
	if len(fd.Secrets) != 1 || fd.Secrets[0] != secret {
		t.Errorf("Secrets = %q, want the raw value for redaction", fd.Secrets)
	}
	if fd.Span.StartCol != 12 || fd.Span.EndCol != 12+len(secret) {
		t.Errorf("span columns = %d-%d, want 12-%d", fd.Span.StartCol, fd.Span.EndCol, 12+len(secret))
	}
}

func TestPrivateKeyBodyIsRedacted(t *testing.T) {
	src := "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oW8vB2K2lqmMoAoGCCqGSM49\n-----END EC PRIVATE KEY-----\n"
	f := lenstest.NewFile("k.pem", []byte(src))
	got := lenstest.Check(t, HardcodedSecret, f, 0, nil)
	if len(got) != 1 {
		t.Fatalf("got %d findings, want 1", len(got))
	}
	if got[0].Span.EndLine != 3 {
		t.Errorf("EndLine = %d, want 3", got[0].Span.EndLine)
	}
	if len(got[0].Secrets) != 1 || !strings.HasPrefix(got[0].Secrets[0], "MHcCAQEE") {
		t.Errorf("Secrets = %q, want the key body line", got[0].Secrets)
	}
}
