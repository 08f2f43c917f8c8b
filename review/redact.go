package review

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Redact renders a secret as a prefix of at most four characters and its
// length, so no output ever carries the value.
func Redact(secret string) string {
	n := len([]rune(secret))
	keep := 4
	if n <= 8 {
		keep = min(2, n)
	}
	return fmt.Sprintf("%s…[redacted, %d chars]", string([]rune(secret)[:keep]), n)
}

// Detector returns the raw secret values it recognises in text. The secret
// rules provide the one every run uses (review/lens/security.Find); this
// package knows no secret formats.
type Detector func(text string) []string

// Redactor replaces secret values with their redacted form: the values it
// was given and, when it has a [Detector], the values the detector finds in
// the text being redacted, so a secret nobody registered (a file name, a
// line quoted from the base version) is hidden too. A nil *Redactor
// redacts nothing. It is immutable and safe for concurrent use.
type Redactor struct {
	secrets []string // distinct, longest first
	r       *strings.Replacer
	detect  Detector
}

// NewRedactor returns a redactor for the given secrets.
func NewRedactor(secrets []string) *Redactor {
	return (*Redactor)(nil).With(secrets...)
}

// With returns a redactor that also knows secrets, with r's detector.
func (r *Redactor) With(secrets ...string) *Redactor {
	out := &Redactor{}
	if r != nil {
		out.detect = r.detect
		out.secrets = r.secrets
	}
	added := false
	for _, s := range secrets {
		if s != "" && !slices.Contains(out.secrets, s) {
			if !added {
				out.secrets = slices.Clone(out.secrets)
				added = true
			}
			out.secrets = append(out.secrets, s)
		}
	}
	if !added {
		if r != nil {
			out.r = r.r
		}
		return out
	}
	// Longest first: a secret that holds another is replaced whole.
	slices.SortFunc(out.secrets, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	pairs := make([]string, 0, 2*len(out.secrets))
	for _, s := range out.secrets {
		pairs = append(pairs, s, Redact(s))
	}
	out.r = strings.NewReplacer(pairs...)
	return out
}

// Join returns a redactor that knows the secrets of r and o, with r's
// detector, or o's when r has none.
func (r *Redactor) Join(o *Redactor) *Redactor {
	if o == nil {
		return r.With()
	}
	out := r.With(o.secrets...)
	if out.detect == nil {
		out.detect = o.detect
	}
	return out
}

// WithDetector returns a redactor with r's secrets that also redacts what d
// finds in each text it is given.
func (r *Redactor) WithDetector(d Detector) *Redactor {
	out := r.With()
	out.detect = d
	return out
}

// String redacts s.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	if r.r != nil {
		s = r.r.Replace(s)
	}
	if r.detect != nil {
		if found := r.detect(s); len(found) > 0 {
			s = NewRedactor(found).String(s)
		}
	}
	return s
}

// Bytes redacts b.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil || r.r == nil && r.detect == nil {
		return b
	}
	s := string(b)
	if out := r.String(s); out != s {
		return []byte(out)
	}
	return b
}

// Empty reports whether the redactor knows no secret value (its detector
// may still find some).
func (r *Redactor) Empty() bool { return r == nil || len(r.secrets) == 0 }

// JSON rewrites a JSON document with every string, keys included,
// redacted, keeping the key order; the result is compact. Redacting the
// decoded strings rather than the encoded bytes catches secrets that JSON
// escaping would disguise (a quote, a backslash, a control character), and
// never touches numbers, so a secret that looks like one cannot break the
// document. The detector runs once over all the strings together.
func (r *Redactor) JSON(doc []byte) ([]byte, error) {
	toks, err := jsonTokens(doc)
	if err != nil {
		return nil, err
	}
	rr := r
	if r != nil && r.detect != nil {
		var all strings.Builder
		for _, t := range toks {
			if s, ok := t.tok.(string); ok {
				all.WriteString(s)
				all.WriteByte('\n')
			}
		}
		rr = r.With(r.detect(all.String())...)
		rr.detect = nil
	}
	return writeJSON(toks, rr)
}

// jsonToken is one token of a document and whether it is an object key.
type jsonToken struct {
	tok   json.Token
	isKey bool
}

// jsonTokens splits a JSON document into its tokens.
func jsonTokens(doc []byte) ([]jsonToken, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var out []jsonToken
	// isObject[i] tells whether the container at depth i is an object, where
	// keys and values alternate; expectValue[i] whether a value comes next.
	var isObject, expectValue []bool
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		depth := len(isObject)
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			isObject, expectValue = isObject[:depth-1], expectValue[:depth-1]
			out = append(out, jsonToken{tok: tok})
			continue
		}
		isKey := depth > 0 && isObject[depth-1] && !expectValue[depth-1]
		if depth > 0 && isObject[depth-1] {
			expectValue[depth-1] = isKey
		}
		out = append(out, jsonToken{tok: tok, isKey: isKey})
		if d, ok := tok.(json.Delim); ok {
			isObject = append(isObject, d == '{')
			expectValue = append(expectValue, false)
		}
	}
}

// writeJSON writes tokens back as compact JSON, redacting strings with r.
func writeJSON(toks []jsonToken, r *Redactor) ([]byte, error) {
	var out bytes.Buffer
	// needComma[i] tells whether the container at depth i already holds a
	// value.
	var needComma []bool
	prevKey := false
	for _, t := range toks {
		depth := len(needComma)
		if d, ok := t.tok.(json.Delim); ok && (d == '}' || d == ']') {
			out.WriteRune(rune(d))
			needComma = needComma[:depth-1]
			continue
		}
		switch {
		case prevKey:
			out.WriteByte(':')
		case depth > 0 && needComma[depth-1]:
			out.WriteByte(',')
		}
		switch v := t.tok.(type) {
		case json.Delim:
			out.WriteRune(rune(v))
		case string:
			b, err := marshalNoEscape(r.String(v))
			if err != nil {
				return nil, err
			}
			out.Write(b)
		case json.Number:
			out.WriteString(v.String())
		case bool:
			fmt.Fprint(&out, v)
		case nil:
			out.WriteString("null")
		}
		if depth > 0 && !t.isKey {
			needComma[depth-1] = true
		}
		prevKey = t.isKey
		if d, ok := t.tok.(json.Delim); ok && (d == '{' || d == '[') {
			needComma = append(needComma, false)
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
