package secret

import (
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review/syntax"
)

// assignment is a literal value assigned to (or keyed by) a secret-named
// key on one line.
type assignment struct {
	key      string
	class    keyClass
	value    string
	from, to int // byte range of value in the line
}

// assignments finds the secret-keyed literals of a line: a quoted string
// after key =, key:, key :=, key =>, "key": or "key", (a call such as
// Setenv("API_TOKEN", "...")), the text of an XML element named like a
// secret (<password>…</password>), and in configuration languages also
// unquoted KEY=value, key = value (INI, Java properties, AWS credentials),
// key: value and .npmrc's //registry/:_authToken=value.
func assignments(line string, cfg bool) []assignment {
	var out []assignment
	if cfg {
		out = unquoted(line)
		out = npmrcAuth(line, out)
	}
	if secretClosingTag(line) {
		out = xmlElements(line, out)
	}
	if strings.IndexByte(line, '"') < 0 && strings.IndexByte(line, '\'') < 0 && strings.IndexByte(line, '`') < 0 {
		return out
	}
	for i := 0; i < len(line); i++ {
		q := line[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		end := syntax.QuoteEnd(line, i)
		if end < 0 {
			return out
		}
		if key, class := keyBefore(line, i); class != keyNone {
			out = appendAssignment(out, assignment{key: key, class: class, value: line[i+1 : end], from: i + 1, to: end})
		}
		i = end
	}
	return out
}

// appendAssignment appends a unless it overlaps one of as.
func appendAssignment(as []assignment, a assignment) []assignment {
	for _, b := range as {
		if a.from < b.to && b.from < a.to {
			return as
		}
	}
	return append(as, a)
}

// keyBefore returns the secret-named key that a string literal starting at
// i is assigned to, if any.
func keyBefore(line string, i int) (string, keyClass) {
	j := skipSpaceBack(line, i)
	// The operator: =, :=, ==, ===, !=, =>, :, or "," after a quoted key.
	comma := false
	switch {
	case j > 0 && line[j-1] == ',':
		comma = true
		j--
	case j > 0 && line[j-1] == ':':
		j--
	case j > 1 && line[j-2:j] == "=>":
		j -= 2
	case j > 0 && line[j-1] == '=':
		for j > 0 && (line[j-1] == '=' || line[j-1] == '!' || line[j-1] == ':') {
			j--
		}
	default:
		return "", keyNone
	}
	j = skipSpaceBack(line, j)
	if !comma && j > 0 && line[j-1] == ']' { // env['API_KEY'] = ...
		j--
	}
	quoted := j > 0 && (line[j-1] == '"' || line[j-1] == '\'')
	if comma && !quoted {
		return "", keyNone
	}
	if quoted { // "key": ...
		j--
	}
	end := j
	for j > 0 && keyByte(line[j-1]) {
		j--
	}
	if j == end || quoted && (j == 0 || line[j-1] != line[end]) {
		return "", keyNone // a quoted key must be a whole identifier, not prose
	}
	key := line[j:end]
	return key, secretKey(key)
}

func skipSpaceBack(line string, j int) int {
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	return j
}

func keyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// unquoted finds KEY=value and key: value pairs of a configuration line:
// .env, shell (export), Dockerfile ENV and ARG (also ENV KEY value), YAML,
// and the "key = value" of INI files, Java properties and AWS credentials.
func unquoted(line string) []assignment {
	s := strings.TrimLeft(line, " \t")
	off := len(line) - len(s)
	legacyENV := strings.HasPrefix(s, "ENV ")
	for _, prefix := range []string{"export ", "- ", "ENV ", "ARG ", "env ", "arg ", "set "} {
		if strings.HasPrefix(s, prefix) {
			s = strings.TrimLeft(s[len(prefix):], " \t")
			off = len(line) - len(s)
			break
		}
	}
	var out []assignment
	for s != "" {
		k := 0
		for k < len(s) && keyByte(s[k]) {
			k++
		}
		if k == 0 || k == len(s) {
			return out
		}
		key := s[:k]
		rest := s[k:]
		// Blanks around the operator: "key = value" and "key : value"
		// (INI, properties); "key= value" only when nothing after the
		// blank is another assignment, as "A= B=x" is in shell.
		op := strings.TrimLeft(rest, " \t")
		spaced := len(op) < len(rest)
		switch {
		case op != "" && op[0] == '=':
			rest = op[1:]
			if after := strings.TrimLeft(rest, " \t"); spaced || len(after) < len(rest) && !strings.Contains(after, "=") {
				rest = after
			}
		case op != "" && op[0] == ':' && len(op) > 1 && (op[1] == ' ' || op[1] == '\t'):
			rest = strings.TrimLeft(op[1:], " \t")
		case spaced && legacyENV:
			rest = op // legacy ENV KEY value
		default:
			return out
		}
		vOff := off + len(s) - len(rest)
		if rest == "" || strings.ContainsRune("\"'`", rune(rest[0])) {
			return out // quoted values are handled by the caller
		}
		v := 0
		for v < len(rest) && rest[v] != ' ' && rest[v] != '\t' && rest[v] != ',' && rest[v] != ';' && rest[v] != '}' {
			v++
		}
		if class := secretKey(key); class != keyNone {
			out = append(out, assignment{key: key, class: class, value: rest[:v], from: vOff, to: vOff + v})
		}
		s = strings.TrimLeft(rest[v:], " \t")
		off = len(line) - len(s)
	}
	return out
}

// npmrcRE matches the credentials of an .npmrc line, bare or scoped to a
// registry ("//registry.npmjs.org/:_authToken=…").
var npmrcRE = regexp.MustCompile(`(?:^|:)(_authToken|_auth|_password)[ \t]*=[ \t]*([^\s#;"']+)`)

// npmrcAuth appends the .npmrc credentials of line to out.
func npmrcAuth(line string, out []assignment) []assignment {
	if !strings.Contains(line, "_auth") && !strings.Contains(line, "_password") {
		return out
	}
	for _, m := range npmrcRE.FindAllStringSubmatchIndex(line, -1) {
		key := line[m[2]:m[3]]
		out = appendAssignment(out, assignment{key: key, class: secretKey(key), value: line[m[4]:m[5]], from: m[4], to: m[5]})
	}
	return out
}

// xmlElementRE matches an element with text content on one line: the
// opening tag's name, the text, the closing tag's name.
var xmlElementRE = regexp.MustCompile(`<([A-Za-z_][\w.:-]*)(?:\s[^<>]*)?>([^<>]+)</([A-Za-z_][\w.:-]*)\s*>`)

// secretClosingTag reports whether line closes an element named like a
// secret: the cheap test before xmlElements, since markup and JSX close
// elements on most lines.
func secretClosingTag(line string) bool {
	for i := strings.Index(line, "</"); i >= 0; {
		j := i + 2
		for j < len(line) && (keyByte(line[j]) || line[j] == ':') {
			j++
		}
		if name := line[i+2 : j]; hasSecretStem(name) && secretKey(name) != keyNone {
			return true
		}
		k := strings.Index(line[j:], "</")
		if k < 0 {
			break
		}
		i = j + k
	}
	return false
}

// xmlElements appends the text of the elements of line named like a
// secret (<password>, <apiKey>, <client-secret>) to out; blanks around
// the text are not part of the value.
func xmlElements(line string, out []assignment) []assignment {
	for _, m := range xmlElementRE.FindAllStringSubmatchIndex(line, -1) {
		name := line[m[2]:m[3]]
		if name != line[m[6]:m[7]] {
			continue
		}
		class := secretKey(name)
		if class == keyNone {
			continue
		}
		from, to := m[4], m[5]
		for from < to && (line[from] == ' ' || line[from] == '\t') {
			from++
		}
		for to > from && (line[to-1] == ' ' || line[to-1] == '\t') {
			to--
		}
		out = appendAssignment(out, assignment{key: name, class: class, value: line[from:to], from: from, to: to})
	}
	return out
}
