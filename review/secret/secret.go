// Package secret is the secret detector: the credential formats, the
// reader of values assigned to secret-named keys, the judgement of
// placeholders and randomness, private key blocks, and a scanner that
// reads a whole file line by line in bounded memory, decoding UTF-16 and
// working-tree encodings.
//
// Three users share it, so a format it learns is found, gated and
// redacted at once: the two secret rules of review/lens/security report
// its hits on changed lines; the engine scans with it every changed file
// whose content the review does not read (the gate's scan); and the
// redactor ([review.Detector], [Find]) runs it over every text that leaves
// the process. It knows no rule ids and writes no messages: a [Hit] says
// what was found, where, and why.
package secret

import (
	"github.com/reviewls/reviewls/review"
)

// Class says which rule reports a hit.
type Class uint8

const (
	// Fixed is a credential of a fixed, well-known shape (cloud access
	// keys, GitHub and Slack tokens, webhook URLs) or a private key block:
	// security/hardcoded-secret.
	Fixed Class = iota
	// Generic is any other: more provider formats, the password of a URL,
	// a random-looking value under a secret-named key:
	// security/generic-secret.
	Generic
)

// Hit is one secret found in a file.
type Hit struct {
	Class Class
	// Kind names the credential ("GitHub token", "private key"); for a
	// value under a secret-named key it is "" and Key names the key.
	Kind string
	// Key is the secret-named key the value is assigned to, or "".
	Key string
	// URL describes the URL whose password the value is, or is nil.
	URL *URLPassword
	// Why says, for a value under a key, what makes it look real.
	Why string
	// Severity is the kind's severity when it differs from the rule's
	// (0 otherwise); Confidence is "" for high.
	Severity   review.Severity
	Confidence review.Confidence
	// Line is the 1-based line of the value; EndLine is the last line of
	// a key block (0 for a single line).
	Line, EndLine int
	// From and To are the byte range of the value in its line (0-based,
	// To exclusive); a key block has none.
	From, To int
	// Values are the raw secret values: the token, or each line of key
	// material of a key block. A value written with escapes (a JSON
	// string) is there both as written and decoded.
	Values []string
	// Excerpt is the cited text of a hit found by [Scan] or [ScanText]: its line,
	// cut to a window around the value on a long line.
	Excerpt string

	// public marks a browser-side API key, dropped when the file turns
	// out to be a public client configuration (Firebase, Algolia).
	public publicNeed
}

// URLPassword is the password of a URL and the parts of the URL a
// message names.
type URLPassword struct {
	Scheme, User, Host string
	// Database reports a database or broker scheme.
	Database bool
}

// publicNeed says which public client configuration makes a hit moot.
type publicNeed uint8

const (
	publicNone     publicNeed = iota
	publicFirebase            // a Google API key in a Firebase web config
	publicConfig              // an apiKey of a Firebase or Algolia search config
)

// overlaps reports whether [from, to) overlaps a value of hits on line n.
func overlaps(hits []Hit, n, from, to int) bool {
	for _, h := range hits {
		if h.Line == n && h.EndLine == 0 && from < h.To && h.From < to {
			return true
		}
	}
	return false
}
