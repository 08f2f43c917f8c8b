package secret

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// Detector finds the secrets on the lines of one file. It is not safe for
// concurrent use: it keeps what it learns of the file's content.
type Detector struct {
	// cfg reads unquoted values (KEY=value, key: value): configuration
	// languages, and text of no known language.
	cfg bool
	// test marks a test file, where the formats that need a context word
	// are not reported.
	test bool
	// notebook marks a Jupyter notebook, whose cells are JSON strings.
	notebook bool
	// content is the whole file when known; nil in a scanner, which
	// settles the hits that depend on it at the end.
	content []byte
	// signs is what content says of a public client configuration, once
	// read (read).
	signs publicSigns
	read  bool
}

// NewDetector returns the detector of the file at path in language lang
// (its reading of values depends on both); content is the whole file, or
// nil when the caller does not have it (the hits that depend on it are
// then kept).
func NewDetector(path string, lang review.Language, content []byte) *Detector {
	return &Detector{
		cfg:      lang.Info().Config,
		test:     path != "" && review.IsTestPath(path),
		notebook: strings.HasSuffix(strings.ToLower(path), ".ipynb"),
		content:  content,
	}
}

// Fixed appends to out the values of line n in the formats of
// security/hardcoded-secret (cloud keys, GitHub and Slack tokens, webhook
// URLs). Private key blocks span lines: see [KeyBlocks].
func (d *Detector) Fixed(n int, line string, out []Hit) []Hit {
	for i := range fixedFormats {
		fm := &fixedFormats[i]
		if !strings.Contains(line, fm.hint) {
			continue
		}
		fm.each(line, func(from, to int) {
			if v := line[from:to]; !placeholder(v) {
				out = append(out, Hit{Class: Fixed, Kind: fm.kind, Line: n, From: from, To: to, Values: []string{v}})
			}
		})
	}
	return out
}

// Generic appends to out the secrets of line n that security/generic-secret
// reports: provider formats, passwords of URLs, and random-looking values
// under secret-named keys (in code, configuration, XML elements, .npmrc
// and notebook cells). Values in the formats of [Detector.Fixed] are left
// to it; two hits of one line never overlap.
func (d *Detector) Generic(n int, line string, out []Hit) []Hit {
	start := len(out)
	if longRun(line, minProviderRun) {
		for i := range providerFormats {
			fm := &providerFormats[i]
			if !strings.Contains(line, fm.hint) || fm.context != nil && (d.test || !containsFold(line, fm.context)) {
				continue
			}
			need := publicNone
			if fm.hint == "AIza" {
				need = publicFirebase
			}
			if d.moot(need) {
				continue
			}
			fm.each(line, func(from, to int) {
				v := line[from:to]
				if placeholder(v) || placeholderValue(v) || v == azuriteKey || overlaps(out[start:], n, from, to) {
					return
				}
				out = append(out, Hit{Class: Generic, Kind: fm.kind, Severity: fm.sev, Line: n, From: from, To: to,
					Values: []string{v}, public: need})
			})
		}
	}
	if strings.Contains(line, "://") {
		for _, c := range urlPasswords(line) {
			if !overlaps(out[start:], n, c.from, c.to) {
				out = append(out, Hit{Class: Generic, URL: &c.URLPassword, Line: n, From: c.from, To: c.to, Values: []string{c.password}})
			}
		}
	}
	for _, a := range assignments(line, d.cfg) {
		out = d.assigned(n, a, []string{a.value}, out, start)
	}
	if d.notebook {
		out = d.notebookLine(n, line, out, start)
	}
	return out
}

// assigned appends the hit of assignment a on line n to out when its value
// looks real and overlaps no hit of out[start:]; values are the forms to
// redact.
func (d *Detector) assigned(n int, a assignment, values []string, out []Hit, start int) []Hit {
	need := publicNone
	if publicKeyName(a.key) {
		need = publicConfig
	}
	if d.moot(need) {
		return out
	}
	why, conf, ok := judge(a.class, a.value)
	if !ok || overlaps(out[start:], n, a.from, a.to) {
		return out
	}
	return append(out, Hit{Class: Generic, Key: a.key, Why: why, Confidence: conf, Line: n, From: a.from, To: a.to,
		Values: values, public: need})
}

// notebookLine reads the JSON string that begins line n of a Jupyter
// notebook — a line of a cell's source, or of a text output — as the code
// it holds, and appends the secrets under secret-named keys in it: the
// raw line shows their quotes escaped (API_KEY = \"…\"), which hides
// them from a reading of the line itself.
func (d *Detector) notebookLine(n int, line string, out []Hit, start int) []Hit {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || line[i] != '"' {
		return out
	}
	end := syntax.QuoteEnd(line, i)
	if end < 0 {
		return out
	}
	var code string
	if json.Unmarshal([]byte(line[i:end+1]), &code) != nil {
		return out
	}
	for _, a := range assignments(strings.TrimRight(code, "\r\n"), false) {
		raw, values := a.value, []string{a.value}
		at := strings.Index(line[i:end], raw)
		if at < 0 {
			raw = jsonEscape(a.value)
			at = strings.Index(line[i:end], raw)
			values = []string{raw, a.value}
		}
		if at < 0 {
			continue
		}
		a.from = i + at
		a.to = a.from + len(raw)
		out = d.assigned(n, a, values, out, start)
	}
	return out
}

// jsonEscape returns s as a JSON string literal writes it, without the
// quotes.
func jsonEscape(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) != nil {
		return s
	}
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(b.String(), "\n"), `"`), `"`)
}

// moot reports whether a hit that needs a public client configuration
// ruled out is moot in d's content. Without the content nothing is moot:
// the scanner settles it at the end.
func (d *Detector) moot(need publicNeed) bool {
	if need == publicNone || d.content == nil {
		return false
	}
	if !d.read {
		d.signs.see(func(word string) bool { return bytes.Contains(d.content, []byte(word)) })
		d.read = true
	}
	return d.signs.moot(need)
}

// publicSigns is what a file says of a public client configuration:
// browser-side API keys of Firebase web configs and Algolia search
// configs are public by design.
type publicSigns struct {
	firebase, algolia, indexName bool
}

// see adds the signs of a text, of which has tells whether it holds a
// word.
func (p *publicSigns) see(has func(word string) bool) {
	p.firebase = p.firebase || has("firebaseapp.com") || has("authDomain")
	p.algolia = p.algolia || has("algolia")
	p.indexName = p.indexName || has("indexName")
}

// moot reports whether the signs make a hit that needs need moot.
func (p *publicSigns) moot(need publicNeed) bool {
	switch need {
	case publicFirebase:
		return p.firebase
	case publicConfig:
		return p.firebase || p.algolia && p.indexName
	}
	return false
}
