package artifacts

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestEncodeJSONRedactsEscapedSecrets covers secrets that JSON escaping
// would hide from a byte-level redaction: quotes, backslashes, control
// characters, and secrets used as keys.
func TestEncodeJSONRedactsEscapedSecrets(t *testing.T) {
	secrets := []string{`a"b\c` + "\x01" + `secret-1`, "tab\tsecret-22", "key-secret-333"}
	r := review.NewRedactor(secrets)
	doc := map[string]any{
		"plain":         "x " + secrets[0] + " y",
		"nested":        []any{map[string]any{"v": secrets[1]}},
		secrets[2]:      "as a key",
		"html-ish <&>":  "<b>" + secrets[1] + "</b>",
		"pointer value": &secrets[0],
	}
	out, err := encodeJSON(doc, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		for _, form := range secretForms(s) {
			if bytes.Contains(out, []byte(form)) {
				t.Errorf("output holds %q:\n%s", form, out)
			}
		}
	}
	if !json.Valid(out) {
		t.Errorf("invalid JSON:\n%s", out)
	}
	if !bytes.Contains(out, []byte(`"html-ish <&>"`)) {
		t.Errorf("HTML characters were escaped:\n%s", out)
	}
}
