package scan

import (
	"bytes"
	"testing"
)

// FuzzScan checks both scanners on arbitrary bytes. Bracket pairing, with
// every byte a token: pairs are of one kind and nested. Regular
// expressions: a literal ends on its line with a "/" before its flags, and
// reads the same from a string and a byte slice.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"", "([{}])]([){", "x = /[/]\\/+/g.test(s)", "a / b / c", "/[\n]/", "/\\"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		match := pairAll(src)
		var open []int // matched openers not yet closed
		for i, j := range match {
			switch {
			case j < 0:
			case j > i:
				if pair := string([]byte{src[i], src[j]}); pair != "()" && pair != "[]" && pair != "{}" {
					t.Fatalf("%d and %d pair %q", i, j, pair)
				}
				open = append(open, i)
			case len(open) == 0 || open[len(open)-1] != j:
				t.Fatalf("pair %d-%d crosses another", j, i)
			default:
				open = open[:len(open)-1]
			}
		}
		for i, c := range src {
			if c != '/' {
				continue
			}
			end := RegexEnd(src, i, identByte)
			if end != RegexEnd(string(src), i, identByte) {
				t.Fatalf("RegexEnd at %d differs between []byte and string", i)
			}
			if end == 0 {
				continue
			}
			if end < i+2 || end > len(src) || bytes.IndexByte(src[i:end], '\n') >= 0 {
				t.Fatalf("regexp at %d ends at %d: %q", i, end, src[i:min(end, len(src))])
			}
			k := end
			for k > i+1 && identByte(src[k-1]) {
				k--
			}
			if src[k-1] != '/' || k-1 == i {
				t.Fatalf("regexp %q does not close with a slash before its flags", src[i:end])
			}
			prev := src[max(i-1, 0):i]
			RegexAfter(src, i, prev, len(prev) == 1 && identByte(prev[0]), len(prev) == 1 && !identByte(prev[0]), identByte)
		}
	})
}
