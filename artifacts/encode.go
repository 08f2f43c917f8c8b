package artifacts

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/secret"
	"github.com/reviewls/reviewls/schemas"
)

// newRedactor returns the redactor of every document written for res: the
// run's own, the raw secrets that findings cite (so that a secret the run
// forgot to register is still hidden), and the secret rules' detector as a
// final pass over every text, whichever side of the diff it came from.
func newRedactor(res *review.Result) *review.Redactor {
	var secrets []string
	add := func(f *review.Finding) {
		if f != nil {
			secrets = append(secrets, f.Secrets...)
		}
	}
	for _, f := range res.Findings {
		add(f)
	}
	for _, r := range res.Rejected {
		add(r.Finding)
	}
	for _, s := range res.Suppressed {
		add(s.Finding)
	}
	return res.Redactor.With(secrets...).WithDetector(secret.Find)
}

// encodeJSON marshals v as indented JSON with every string, keys included,
// passed through r, and a final newline. Redacting decoded strings rather
// than the encoded bytes also catches secrets that JSON escaping would
// disguise (a quote, a backslash, a control character).
func encodeJSON(v any, r *review.Redactor) ([]byte, error) {
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// Redacting the indented document replaces whole string tokens, so
	// the indentation stays as the encoder made it. No byte-level pass on
	// top: a secret that looks like a number would turn a line number into
	// invalid JSON. Every string is redacted here, and numbers, booleans
	// and null carry no text.
	return r.JSON(raw.Bytes())
}

// encodeValid encodes v and validates the result against schema: a
// violation is a bug in this package, reported as an error naming the
// schema.
func encodeValid(schema string, v any, r *review.Redactor) ([]byte, error) {
	data, err := encodeJSON(v, r)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", schema, err)
	}
	if err := schemas.Validate(schema, data); err != nil {
		return nil, fmt.Errorf("encode %s: %w", schema, err)
	}
	return data, nil
}
