package secret

import (
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
// Setenv("API_TOKEN", "...")), and in configuration languages also
// unquoted KEY=value and key: value.
func assignments(line string, cfg bool) []assignment {
	var out []assignment
	if cfg {
		out = unquoted(line)
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
// .env, shell (export), Dockerfile ENV and ARG (also ENV KEY value), YAML.
func unquoted(line string) []assignment {
	s := strings.TrimLeft(line, " \t")
	off := len(line) - len(s)
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
		switch {
		case rest[0] == '=':
			rest = rest[1:]
		case rest[0] == ':' && len(rest) > 1 && (rest[1] == ' ' || rest[1] == '\t'):
			rest = strings.TrimLeft(rest[1:], " \t")
		case rest[0] == ' ' && strings.HasPrefix(strings.TrimLeft(line, " \t"), "ENV "):
			rest = strings.TrimLeft(rest, " ") // legacy ENV KEY value
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
