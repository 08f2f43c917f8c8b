package secret

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

const token = "ghp_Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa0SdFgHjKlZ"

// places returns where each hit is: "line:from-to".
func places(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%d:%d-%d", h.Line, h.From, h.To))
	}
	return out
}

// TestScanLongLines checks that a line longer than a part is read in
// overlapping parts without losing a value across the cut, reporting it
// once, at its place in the whole line, with an excerpt around it.
func TestScanLongLines(t *testing.T) {
	for _, at := range []int{0, maxPart - 10, maxPart - len(token), maxPart + 5, 3*maxPart - 20} {
		line := strings.Repeat("x", at) + " " + token + " " + strings.Repeat("y", maxPart)
		text := "first line\n" + line + "\nlast " + token[:20] + "\n"
		hits, err := Scan(strings.NewReader(text), "")
		if err != nil {
			t.Fatal(err)
		}
		want := []string{fmt.Sprintf("2:%d-%d", at+1, at+1+len(token))}
		if diff := cmp.Diff(want, places(hits)); diff != "" {
			t.Errorf("token at %d: places (-want +got):\n%s", at, diff)
			continue
		}
		if ex := hits[0].Excerpt; !strings.Contains(ex, token) || len(ex) > excerptMax+len(token) {
			t.Errorf("token at %d: excerpt of %d bytes %q", at, len(ex), ex)
		}
	}
}

// TestScanKeyBlock checks that a key block is followed across lines by a
// scan, from its BEGIN line to its END line.
func TestScanKeyBlock(t *testing.T) {
	const body = "MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oW8vB2K2lqmMoAoGCCqGSM49"
	text := "x\n-----BEGIN EC PRIVATE KEY-----\n" + body + "\n-----END EC PRIVATE KEY-----\n"
	hits, err := Scan(strings.NewReader(text), "k.pem")
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Line != 2 || hits[0].EndLine != 4 || !cmp.Equal(hits[0].Values, []string{body}) {
		t.Errorf("hits = %+v, want the block at lines 2-4", hits)
	}
}

// TestDecode checks what Decode makes of each kind of content: UTF-16
// with and without a byte order mark, a working-tree encoding, UTF-8 with
// a byte order mark or a stray NUL byte, and a binary.
func TestDecode(t *testing.T) {
	line := "API_TOKEN=" + token + "\n"
	le, _ := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(line)
	be, _ := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder().String(line)
	leBare, _ := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().String(line)
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("# 設定\n" + line)
	elf := strings.Repeat("\x7fELF\x00\x01\x02\x00\x00\x00\x03\x00", 100) + line
	for _, tc := range []struct {
		name, content, encoding string
		want                    string // "" for binary
	}{
		{"UTF-16LE with a BOM", le, "", line},
		{"UTF-16BE without a BOM", be, "", line},
		{"UTF-16LE without a BOM", leBare, "", line},
		{"working-tree-encoding UTF-16LE", leBare, "UTF-16LE", line},
		{"working-tree-encoding SHIFT-JIS", sjis, "SHIFT-JIS", "# 設定\n" + line},
		{"an encoding git does not know either", line, "X-UNKNOWN", line},
		{"UTF-8 with a BOM", "\xef\xbb\xbf" + line, "", line},
		{"text with a stray NUL", "a\x00b\n" + line, "", "a\x00b\n" + line},
		{"Latin-1 text", "caf\xe9\n" + line, "", "caf\xe9\n" + line},
		{"a binary", elf, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Decode(strings.NewReader(tc.content), tc.encoding)
			if tc.want == "" {
				if !errors.Is(err, ErrBinary) {
					t.Errorf("error %v, want ErrBinary", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("decoded %q, want %q", got, tc.want)
			}
		})
	}
}
