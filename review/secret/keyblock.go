package secret

import (
	"regexp"
	"strings"
)

var (
	keyBeginRE = regexp.MustCompile(`-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----`)
	keyEndRE   = regexp.MustCompile(`-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----`)
)

// maxKeyLines bounds the lines read after a BEGIN line in search of its
// END: the largest RSA keys (8192 bits) take about 100 lines of base64.
const maxKeyLines = 200

// KeyBlocks returns the private key blocks of a file's lines, each a hit
// from its BEGIN line to its END line whose values are the lines of key
// material. A header without key material (documentation, a parser's
// constant) is no block.
func KeyBlocks(lines []string) []Hit {
	var b keyBlocks
	var out []Hit
	for i, l := range lines {
		out = b.line(i+1, l, out)
	}
	return b.flush(len(lines), out)
}

// keyBlocks follows private key blocks through the lines of a file.
type keyBlocks struct {
	open    bool
	begin   int // line of the BEGIN
	col     int // byte column of the BEGIN in its line
	excerpt string
	body    []string
}

// line takes line n and appends the block it ends, if any, to out.
func (b *keyBlocks) line(n int, line string, out []Hit) []Hit {
	if strings.Contains(line, "-----BEGIN") {
		if loc := keyBeginRE.FindStringIndex(line); loc != nil {
			out = b.flush(n-1, out)
			*b = keyBlocks{open: true, begin: n, col: loc[0], excerpt: cut(line, loc[0], loc[1])}
			return out
		}
	}
	if !b.open {
		return out
	}
	l := strings.TrimSpace(stripQuoting(line))
	switch {
	case keyEndRE.MatchString(l):
		return b.flush(n, out)
	case l == "" || strings.Contains(l, ":"): // headers such as Proc-Type
	case isKeyMaterial(l):
		b.body = append(b.body, l)
	}
	if n >= b.begin+maxKeyLines {
		return b.flush(n, out)
	}
	return out
}

// flush closes the open block, which ends at line end, appending its hit
// to out when it holds key material.
func (b *keyBlocks) flush(end int, out []Hit) []Hit {
	if b.open && len(b.body) > 0 {
		out = append(out, Hit{Class: Fixed, Kind: "private key", Line: b.begin, EndLine: end, From: b.col,
			Values: b.body, Excerpt: b.excerpt})
	}
	*b = keyBlocks{}
	return out
}

// stripQuoting removes string quotes, concatenation and escaped newlines
// around a key line embedded in code.
func stripQuoting(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, `"'+`)
	s = strings.TrimRight(s, `"',+;`)
	s = strings.TrimSuffix(s, `\n`)
	return s
}

var keyMaterialRE = regexp.MustCompile(`^[A-Za-z0-9+/=]{16,}$`)

func isKeyMaterial(s string) bool {
	return keyMaterialRE.MatchString(s) && !placeholder(s)
}
