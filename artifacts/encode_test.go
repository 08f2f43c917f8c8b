package artifacts

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reviewls/reviewls/review"
)

// TestRedactJSONKeepsStructure rewrites documents with no secret and
// checks that the result is the same document, keys in the same order.
func TestRedactJSONKeepsStructure(t *testing.T) {
	docs := []string{
		`{}`,
		`[]`,
		`"s"`,
		`{"a":1,"b":[true,false,null,{"c":[[],{}]}],"d":{"e":"f","g":-1.5e3}}`,
		`[{"z":1,"a":2},[1,[2,[3]]],"x\u003cy","é\n\t\"q\""]`,
	}
	for _, doc := range docs {
		got, err := redactJSON([]byte(doc), nil)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		var a, b bytes.Buffer
		if err := json.Compact(&a, []byte(doc)); err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&b, got); err != nil {
			t.Fatalf("%s: rewritten document is invalid: %v\n%s", doc, err, got)
		}
		var x, y any
		json.Unmarshal(a.Bytes(), &x)
		json.Unmarshal(b.Bytes(), &y)
		if diff := cmp.Diff(x, y); diff != "" {
			t.Errorf("%s changed (-want +got):\n%s", doc, diff)
		}
	}
	got, _ := redactJSON([]byte(`{"z":1,"a":2}`), nil)
	if string(got) != `{"z":1,"a":2}` {
		t.Errorf("key order changed: %s", got)
	}
}

// TestEncodeJSONRedactsEscapedSecrets covers secrets that JSON escaping
// would hide from a byte-level redaction: quotes, backslashes, control
// characters, and secrets used as keys.
func TestEncodeJSONRedactsEscapedSecrets(t *testing.T) {
	secrets := []string{`a"b\c` + "\x01" + `secret-1`, "tab\tsecret-22", "key-secret-333"}
	r := redactor{review.NewRedactor(secrets)}
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
