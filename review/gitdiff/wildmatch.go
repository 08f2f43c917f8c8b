package gitdiff

import "strings"

// Results of dowild.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch reports whether text matches the gitignore glob pattern. With
// pathname set, '*' and '?' do not match '/' and "**" matches across
// directories only as a whole path component. It is a port of git's
// wildmatch.c (without case folding), so that ignore rules behave exactly
// as they do for git.
func wildmatch(pattern, text string, pathname bool) bool {
	return dowild(pattern, text, pathname) == wmMatch
}

func dowild(p, text string, pathname bool) int {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pch := p[pi]
		if ti >= len(text) && pch != '*' {
			return wmAbortAll
		}
		var tch byte
		if ti < len(text) {
			tch = text[ti]
		}
		switch pch {
		case '\\':
			// Literal match with the following character.
			pi++
			if pi >= len(p) || tch != p[pi] {
				return wmNoMatch
			}
		default:
			if tch != pch {
				return wmNoMatch
			}
		case '?':
			if pathname && tch == '/' {
				return wmNoMatch
			}
		case '*':
			var matchSlash bool
			pi++
			if pi < len(p) && p[pi] == '*' {
				prev := pi - 2 // the character before "**"
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				switch {
				case !pathname:
					matchSlash = true
				case (prev < 0 || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/'):
					// "**/" may match nothing at all: "foo/**/bar"
					// matches "foo/bar" too.
					if pi < len(p) && p[pi] == '/' && dowild(p[pi+1:], text[ti:], pathname) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				default:
					matchSlash = false
				}
			} else {
				matchSlash = !pathname
			}
			if pi == len(p) {
				// A trailing "**" matches everything; a trailing '*' only
				// if no slash follows.
				if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// A single '*' followed by a slash matches the rest of
				// this path component.
				slash := strings.IndexByte(text[ti:], '/')
				if slash < 0 {
					return wmNoMatch
				}
				ti += slash
				continue // the loop steps over both slashes
			}
			for ti < len(text) {
				// Skip ahead to the next occurrence of a literal that
				// follows the star: what comes before it belongs to '*'.
				if c := p[pi]; !isGlobSpecial(c) {
					for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != c {
						ti++
					}
					if ti >= len(text) || text[ti] != c {
						return wmNoMatch
					}
				}
				if m := dowild(p[pi:], text[ti:], pathname); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			pi++
			if pi >= len(p) {
				return wmAbortAll
			}
			negated := p[pi] == '!' || p[pi] == '^'
			if negated {
				pi++
			}
			var prev byte
			matched := false
			for {
				if pi >= len(p) {
					return wmAbortAll
				}
				c := p[pi]
				switch {
				case c == '\\':
					pi++
					if pi >= len(p) {
						return wmAbortAll
					}
					c = p[pi]
					if tch == c {
						matched = true
					}
				case c == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
					pi++
					c = p[pi]
					if c == '\\' {
						pi++
						if pi >= len(p) {
							return wmAbortAll
						}
						c = p[pi]
					}
					if tch <= c && tch >= prev {
						matched = true
					}
					c = 0 // a range cannot start a range
				case c == '[' && pi+1 < len(p) && p[pi+1] == ':':
					start := pi + 2
					end := strings.IndexByte(p[start:], ']')
					if end < 0 {
						return wmAbortAll
					}
					end += start
					if end == start || p[end-1] != ':' {
						// Not "[:class:]": a literal '['.
						if tch == '[' {
							matched = true
						}
						break
					}
					ok, known := charClass(p[start:end-1], tch)
					if !known {
						return wmAbortAll
					}
					if ok {
						matched = true
					}
					pi = end
					c = 0
				default:
					if tch == c {
						matched = true
					}
				}
				prev = c
				pi++
				if pi < len(p) && p[pi] == ']' {
					break
				}
			}
			if matched == negated || pathname && tch == '/' {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// charClass reports whether c belongs to the POSIX class name, and whether
// the class is known.
func charClass(name string, c byte) (ok, known bool) {
	upper := 'A' <= c && c <= 'Z'
	lower := 'a' <= c && c <= 'z'
	digit := '0' <= c && c <= '9'
	switch name {
	case "alnum":
		return upper || lower || digit, true
	case "alpha":
		return upper || lower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return 0x21 <= c && c <= 0x7e, true
	case "lower":
		return lower, true
	case "print":
		return 0x20 <= c && c <= 0x7e, true
	case "punct":
		return 0x21 <= c && c <= 0x7e && !upper && !lower && !digit, true
	case "space":
		return c == ' ' || '\t' <= c && c <= '\r', true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F', true
	}
	return false, false
}
