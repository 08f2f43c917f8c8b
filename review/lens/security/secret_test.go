package security

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
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

// TestSecretFingerprintIsItsPlace checks issue 26 item 10: nothing printed
// or stored lets anyone test a guess of a secret. The fingerprint
// allow-secrets takes, and the finding ID derived from it, stand for the
// secret's place: two values on the same line give one fingerprint, which
// no hash of the rule, path and value reproduces; two secrets on lines
// that read the same apart from the value are told apart by their rank.
func TestSecretFingerprintIsItsPlace(t *testing.T) {
	const (
		summer = "Summer2024!x"
		winter = "W1nter#2025q"
	)
	find := func(values ...string) []*review.Finding {
		var src strings.Builder
		for _, v := range values {
			src.WriteString("DB_PASSWORD=" + v + "\n")
		}
		return lenstest.Check(t, GenericSecret, lenstest.NewFile("conf/app.env", []byte(src.String())), 0, nil)
	}
	a, b := find(summer), find(winter)
	if len(a) != 1 || len(b) != 1 {
		t.Fatalf("got %d and %d findings, want 1 each", len(a), len(b))
	}
	fa, fb := a[0], b[0]
	if fa.SecretFingerprint() != fb.SecretFingerprint() || fa.ID != fb.ID {
		t.Errorf("one place, two values: fingerprints %s and %s, IDs %s and %s; want one of each",
			fa.SecretFingerprint(), fb.SecretFingerprint(), fa.ID, fb.ID)
	}
	for _, guess := range []string{summer, "wrong guess"} {
		for _, parts := range [][]string{
			{"reviewls secret", fa.RuleID, fa.Span.Path, guess},
			{fa.RuleID, fa.Span.Path, guess},
			{guess},
		} {
			h := sha256.New()
			for _, p := range parts {
				h.Write([]byte(p))
				h.Write([]byte{0})
			}
			hexed := hex.EncodeToString(h.Sum(nil))
			plain := sha256.Sum256([]byte(guess))
			for _, d := range []string{hexed, hex.EncodeToString(plain[:])} {
				if strings.HasSuffix(fa.SecretFingerprint(), ":"+d[:16]) || strings.Contains(fa.ID, d[:12]) {
					t.Errorf("a hash of %q reproduces the fingerprint %s or ID %s", parts, fa.SecretFingerprint(), fa.ID)
				}
			}
		}
	}
	two := find(summer, winter)
	if len(two) != 2 || two[0].SecretFingerprint() == two[1].SecretFingerprint() {
		t.Errorf("two secrets on lines that read the same share a fingerprint: %d findings", len(two))
	}
}

// TestPrivateKeyReplacedInPlace checks issue 26 item 3: a key whose BEGIN
// line stays while lines of key material change is still a private key
// committed to source; an edit next to an unchanged key is not.
func TestPrivateKeyReplacedInPlace(t *testing.T) {
	key := func(body ...string) string {
		return "# deploy key\n-----BEGIN EC PRIVATE KEY-----\n" + strings.Join(body, "\n") + "\n-----END EC PRIVATE KEY-----\nuser: deploy\n"
	}
	const (
		l1 = "MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oW8vB2K2lqmMoAoGCCqGSM49"
		l2 = "AwEHoUQDQgAEYzp8mR4Ek3QvT7rN1sLdW2eH9kXcJ0uV6aB5yZ3fGhPqLmNsTtUv"
		l3 = "Wx2Yz4Ab6Cd8Ef0Gh2Ij4Kl6Mn8Op0Qr2St4Uv6Wx8Yz0Ab2Cd4Ef6Gh8Ij0Kl2Mn"
	)
	old := key(l1, l2)
	for _, tc := range []struct {
		name, new string
		want      int
	}{
		{"a line of key material replaced", key(l1, l3), 1},
		{"a line of key material added", key(l1, l2, l3), 1},
		{"the line after the block edited", strings.Replace(old, "user: deploy", "user: release", 1), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := lenstest.Check(t, HardcodedSecret, lenstest.Modified("deploy/id_ec.pem", old, tc.new), 0, nil)
			if len(got) != tc.want {
				t.Fatalf("got %d findings, want %d", len(got), tc.want)
			}
			if tc.want == 1 && (got[0].Span.StartLine != 2 || got[0].Title != "Hardcoded private key") {
				t.Errorf("finding %q at line %d, want the private key at its BEGIN line 2", got[0].Title, got[0].Span.StartLine)
			}
		})
	}
}
