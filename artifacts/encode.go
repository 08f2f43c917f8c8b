package artifacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/schemas"
)

// redactor applies every redactor of a result in turn: the run's own and
// one built from the raw secrets that findings cite, so that a secret the
// run forgot to register is still hidden.
type redactor []*review.Redactor

func newRedactor(res *review.Result) redactor {
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
	r := redactor{res.Redactor}
	if extra := review.NewRedactor(secrets); !extra.Empty() {
		r = append(r, extra)
	}
	return r
}

func (r redactor) String(s string) string {
	for _, x := range r {
		s = x.String(s)
	}
	return s
}

func (r redactor) Bytes(b []byte) []byte {
	for _, x := range r {
		b = x.Bytes(b)
	}
	return b
}

// encodeJSON marshals v as indented JSON with every string, keys included,
// passed through r, and a final newline. Redacting decoded strings rather
// than the encoded bytes also catches secrets that JSON escaping would
// disguise (a quote, a backslash, a control character).
func encodeJSON(v any, r redactor) ([]byte, error) {
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	compact, err := redactJSON(raw.Bytes(), r)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	// No byte-level pass on top: a secret that looks like a number would
	// turn a line number into invalid JSON. Every string is redacted above,
	// and numbers, booleans and null carry no text.
	return out.Bytes(), nil
}

// redactJSON rewrites a JSON document token by token, redacting every
// string and keeping the key order.
func redactJSON(doc []byte, r redactor) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var out bytes.Buffer
	// needComma[i] tells whether the container at depth i already holds a
	// value; isObject[i] whether it is an object, where keys and values
	// alternate.
	var needComma, isObject, expectValue []bool
	writeString := func(s string) error {
		b, err := marshalNoEscape(r.String(s))
		if err != nil {
			return err
		}
		out.Write(b)
		return nil
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		depth := len(needComma)
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			out.WriteRune(rune(d))
			needComma, isObject, expectValue = needComma[:depth-1], isObject[:depth-1], expectValue[:depth-1]
			continue
		}
		// Separator before a key or an array element; a colon before an
		// object value.
		if depth > 0 {
			switch {
			case isObject[depth-1] && expectValue[depth-1]:
				out.WriteByte(':')
			case needComma[depth-1]:
				out.WriteByte(',')
			}
		}
		isKey := depth > 0 && isObject[depth-1] && !expectValue[depth-1]
		switch t := tok.(type) {
		case json.Delim:
			out.WriteRune(rune(t))
		case string:
			if err := writeString(t); err != nil {
				return nil, err
			}
		case json.Number:
			out.WriteString(t.String())
		case bool:
			fmt.Fprint(&out, t)
		case nil:
			out.WriteString("null")
		}
		if depth > 0 {
			if isObject[depth-1] {
				expectValue[depth-1] = isKey
			}
			if !isKey {
				needComma[depth-1] = true
			}
		}
		if d, ok := tok.(json.Delim); ok {
			needComma = append(needComma, false)
			isObject = append(isObject, d == '{')
			expectValue = append(expectValue, false)
		}
	}
	return out.Bytes(), nil
}

func marshalNoEscape(s string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// encodeValid encodes v and validates the result against schema: a
// violation is a bug in this package, reported as an error naming the
// schema.
func encodeValid(schema string, v any, r redactor) ([]byte, error) {
	data, err := encodeJSON(v, r)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", schema, err)
	}
	if err := schemas.Validate(schema, data); err != nil {
		return nil, fmt.Errorf("encode %s: %w", schema, err)
	}
	return data, nil
}
