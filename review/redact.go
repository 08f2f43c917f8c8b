package review

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
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
// detector, review/secret.Find, provides the one every run uses; this
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

// JSON redacts every string of a JSON document, keys included, and
// keeps everything else — key order, numbers, white space — as it is; a
// document with nothing to redact is returned unchanged. Redacting the
// decoded strings rather than the encoded bytes catches secrets that JSON
// escaping would disguise (a quote, a backslash, a control character),
// and never touches numbers, so a secret that looks like one cannot break
// the document. The detector runs once over all the strings together.
// doc must be valid JSON; a string that does not end is an error.
func (r *Redactor) JSON(doc []byte) ([]byte, error) {
	strs, err := jsonStrings(doc)
	if err != nil || r == nil || len(strs) == 0 {
		return doc, err
	}
	rr := r
	if r.detect != nil {
		var all strings.Builder
		for _, s := range strs {
			all.WriteString(s.value)
			all.WriteByte('\n')
		}
		rr = r.With(r.detect(all.String())...)
		rr.detect = nil
	}
	if rr.r == nil {
		return doc, nil
	}
	var out []byte
	last := 0
	for _, s := range strs {
		red := rr.r.Replace(s.value)
		if red == s.value {
			continue
		}
		enc, err := marshalNoEscape(red)
		if err != nil {
			return nil, err
		}
		out = append(append(out, doc[last:s.from]...), enc...)
		last = s.to
	}
	if out == nil {
		return doc, nil
	}
	return append(out, doc[last:]...), nil
}

// jsonString is a string token of a JSON document: its byte range, quotes
// included, and its decoded value.
type jsonString struct {
	from, to int
	value    string
}

// jsonStrings returns the string tokens of a valid JSON document. Outside
// strings a valid document holds no quote, so every quote opens one.
func jsonStrings(doc []byte) ([]jsonString, error) {
	var out []jsonString
	for i := 0; i < len(doc); i++ {
		if doc[i] != '"' {
			continue
		}
		escaped := false
		j := i + 1
		for ; j < len(doc) && doc[j] != '"'; j++ {
			if doc[j] == '\\' {
				escaped = true
				j++
			}
		}
		if j >= len(doc) {
			return nil, fmt.Errorf("unterminated JSON string at byte %d", i)
		}
		s := jsonString{from: i, to: j + 1, value: string(doc[i+1 : j])}
		if escaped {
			if err := json.Unmarshal(doc[i:j+1], &s.value); err != nil {
				return nil, fmt.Errorf("JSON string at byte %d: %w", i, err)
			}
		}
		out = append(out, s)
		i = j
	}
	return out, nil
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
