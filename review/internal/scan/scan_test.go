package scan

import "testing"

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// pairAll pairs the brackets of src, every byte a token, and returns the
// index each byte is paired with, or -1.
func pairAll(src []byte) []int {
	match := make([]int, len(src))
	var b Brackets
	for i, c := range src {
		match[i] = -1
		switch c {
		case '(', '[', '{':
			b = b.Open(i, c)
		case ')', ']', '}':
			var j int
			if b, j = b.Close(c); j >= 0 {
				match[i], match[j] = j, i
			}
		}
	}
	return match
}

func TestBrackets(t *testing.T) {
	// Tokens: ( [ { } ] ) ] ( [ ) {
	src := "([{}])]([){"
	want := []int{5, 4, 3, 2, 1, 0, -1, 9, -1, 7, -1}
	got := pairAll([]byte(src))
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("match of %d (%c) = %d, want %d", i, src[i], got[i], want[i])
		}
	}
}

func TestRegexEnd(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{`/ab/g;`, 5},
		{`/a[/]b/ x`, 7},
		{`/a\/b/i`, 7},
		{"/ab\n/", 0},
		{"/a\\\n/", 0}, // a backslash does not continue a regexp onto the next line (found by fuzzing)
		{`/ab`, 0},
		{`/`, 0},
	} {
		if got := RegexEnd(tc.src, 0, identByte); got != tc.want {
			t.Errorf("RegexEnd(%q) = %d, want %d", tc.src, got, tc.want)
		}
		if got := RegexEnd([]byte(tc.src), 0, identByte); got != tc.want {
			t.Errorf("RegexEnd([]byte(%q)) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

func TestRegexAfter(t *testing.T) {
	for _, tc := range []struct {
		src, prev    string
		ident, punct bool
		want         bool
	}{
		{"/x/", "return", true, false, true},
		{"/ 2", "x", true, false, false},
		{"/x/", "(", false, true, true},
		{"/ 2", ")", false, true, false},
		{"/div>", "<", false, true, false},
		{"/>", "<", false, true, false},
		{"/ x/", "<", false, true, true},
		{"/ 2", "1", false, false, false},
	} {
		if got := RegexAfter(tc.src, 0, tc.prev, tc.ident, tc.punct, identByte); got != tc.want {
			t.Errorf("RegexAfter(%q after %q) = %v, want %v", tc.src, tc.prev, got, tc.want)
		}
		if got := RegexAfter([]byte(tc.src), 0, []byte(tc.prev), tc.ident, tc.punct, identByte); got != tc.want {
			t.Errorf("RegexAfter([]byte(%q) after %q) = %v, want %v", tc.src, tc.prev, got, tc.want)
		}
	}
}

func TestRegexAfterBytesDoesNotAllocate(t *testing.T) {
	src, prev := []byte("/x/"), []byte("instanceof")
	if n := testing.AllocsPerRun(100, func() { RegexAfter(src, 0, prev, true, false, identByte) }); n != 0 {
		t.Errorf("RegexAfter allocates %v times", n)
	}
}
