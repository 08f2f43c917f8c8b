// Package scan holds the pieces of JavaScript scanning that the tokenizers
// of review/lens and review/symbol share: bracket pairing and regular
// expression literals. It works on a string or a byte slice alike.
package scan

// Text is source text: a string or a byte slice.
type Text interface{ ~string | ~[]byte }

// Brackets is the stack of open brackets while pairing (), [] and {} in
// token order. An opener closed by the wrong kind is abandoned and a stray
// closer matches nothing, so one lexing slip (an apostrophe in JSX text,
// say) does not unbalance the rest of the file. Open and Close return the
// updated stack, like append; nil is empty. Both are inlined, which keeps
// the stack in the caller's frame.
type Brackets []opener

type opener struct {
	tok int32
	c   byte
}

// Open pushes the opener c, "(", "[" or "{", of token i.
func (b Brackets) Open(i int, c byte) Brackets {
	return append(b, opener{int32(i), c})
}

// Close pops the innermost opener that the closer c, ")", "]" or "}",
// matches, with any left open above it, and returns its token, or -1
// when there is none.
func (b Brackets) Close(c byte) (Brackets, int) {
	want := byte('(')
	switch c {
	case ']':
		want = '['
	case '}':
		want = '{'
	}
	for k := len(b) - 1; k >= 0; k-- {
		if b[k].c == want {
			return b[:k], int(b[k].tok)
		}
	}
	return b, -1
}

// RegexAfter reports whether a "/" at src[i] starts a regular expression
// rather than a division, judging by the token before it: its text prev,
// and whether it is an identifier or a punctuator (a literal is neither).
// identByte tells the bytes of an identifier.
func RegexAfter[T Text](src T, i int, prev T, ident, punct bool, identByte func(byte) bool) bool {
	switch {
	case ident:
		return regexKeyword(string(prev))
	case punct:
		switch string(prev) {
		case ")", "]", "}", "++", "--":
			// After a closer or a postfix increment a "/" divides.
			return false
		case "<":
			// A JSX closing tag (</div>, </>) is not a regular expression.
			if i+1 < len(src) && (identByte(src[i+1]) || src[i+1] == '>') {
				return false
			}
		}
		return true
	}
	return false
}

// regexKeyword reports whether s is a keyword after which "/" starts a
// regular expression.
func regexKeyword(s string) bool {
	switch s {
	case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
		"case", "do", "else", "yield", "await":
		return true
	}
	return false
}

// RegexEnd returns the end of the regular expression literal whose "/" is
// at src[i], flags (bytes identByte accepts) included, or 0 when none
// closes on this line.
func RegexEnd[T Text](src T, i int, identByte func(byte) bool) int {
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\n':
			return 0
		case '\\':
			if j+1 < len(src) && src[j+1] == '\n' {
				return 0 // an escape never continues a regexp onto the next line
			}
			j++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if inClass {
				continue
			}
			j++
			for j < len(src) && identByte(src[j]) {
				j++
			}
			return j
		}
	}
	return 0
}
