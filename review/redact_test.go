package review

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		got, err := (*Redactor)(nil).JSON([]byte(doc))
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
	got, _ := (*Redactor)(nil).JSON([]byte(`{"z":1,"a":2}`))
	if string(got) != `{"z":1,"a":2}` {
		t.Errorf("key order changed: %s", got)
	}
}

// TestRedactorLongestFirst checks that a secret holding another is
// replaced whole, whatever the order the secrets were given in.
func TestRedactorLongestFirst(t *testing.T) {
	for _, secrets := range [][]string{{"abcd1234", "abcd1234efgh5678"}, {"abcd1234efgh5678", "abcd1234"}} {
		got := NewRedactor(secrets).String("k=abcd1234efgh5678")
		if want := "k=" + Redact("abcd1234efgh5678"); got != want {
			t.Errorf("%q: got %q, want %q", secrets, got, want)
		}
	}
}

// TestRedactorDetector checks that a detector's finds are redacted in
// strings, bytes and JSON (escaped or not), and that With keeps it.
func TestRedactorDetector(t *testing.T) {
	const secret = `tok"en\1234567`
	detect := func(text string) []string {
		if bytes.Contains([]byte(text), []byte(secret)) {
			return []string{secret}
		}
		return nil
	}
	r := NewRedactor([]string{"known-secret-1"}).WithDetector(detect).With("known-secret-2")
	if r.Empty() {
		t.Fatal("the redactor knows two secrets but reports none")
	}
	in := "a " + secret + " b known-secret-1 known-secret-2"
	want := "a " + Redact(secret) + " b " + Redact("known-secret-1") + " " + Redact("known-secret-2")
	if got := r.String(in); got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got := string(r.Bytes([]byte(in))); got != want {
		t.Errorf("Bytes = %q, want %q", got, want)
	}
	doc, _ := json.Marshal(map[string]string{secret: in})
	out, err := r.JSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("invalid JSON %s: %v", out, err)
	}
	if diff := cmp.Diff(map[string]string{Redact(secret): want}, got); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
	if (*Redactor)(nil).String(in) != in || !(*Redactor)(nil).Empty() {
		t.Error("a nil redactor must redact nothing")
	}
}
