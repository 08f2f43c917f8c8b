package secret

import (
	"bufio"
	"errors"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"

	"github.com/reviewls/reviewls/review"
)

// scanner finds every secret of one file from its lines, given in order:
// the formats of both rules on every line, key blocks across lines. It
// holds one key block's lines at most, so it reads a file of any size in
// bounded memory. It is not safe for concurrent use.
type scanner struct {
	d    *Detector
	n    int
	keys keyBlocks
	hits []Hit
	// signs is what the lines said of a public client configuration so
	// far.
	signs publicSigns
}

// newScanner returns a scanner for the file at path ("" reads text of no
// file, as configuration: the widest reading).
func newScanner(path string) *scanner {
	lang := review.LangUnknown
	if path != "" {
		lang = review.DetectLanguage(path, nil)
	}
	return &scanner{d: NewDetector(path, lang, nil)}
}

// line takes the next line, without its terminator.
func (s *scanner) line(text string) {
	s.n++
	s.take(s.n, text, 0, 0)
}

// take detects in text, the part of line n that starts at byte off of the
// line: a long line comes in parts that overlap by skip bytes, and a hit
// that ends in the overlap was found in the part before.
func (s *scanner) take(n int, text string, off, skip int) {
	start := len(s.hits)
	s.hits = s.d.Fixed(n, text, s.hits)
	s.hits = s.d.Generic(n, text, s.hits)
	kept := s.hits[:start]
	for _, h := range s.hits[start:] {
		if h.To <= skip {
			continue
		}
		h.Excerpt = cut(text, h.From, h.To)
		h.From += off
		h.To += off
		kept = append(kept, h)
	}
	s.hits = kept
	if off == 0 {
		s.hits = s.keys.line(n, text, s.hits)
	}
	s.signs.see(func(word string) bool { return strings.Contains(text, word) })
}

// finish ends the scan and returns what it found, in line order.
func (s *scanner) finish() []Hit {
	s.hits = s.keys.flush(s.n, s.hits)
	s.hits = slices.DeleteFunc(s.hits, func(h Hit) bool { return s.signs.moot(h.public) })
	return s.hits
}

// maxPart is the longest part of a line a [Scan] detects in at once; a
// longer line (minified code, a data file) is read in parts that overlap
// by partOverlap bytes, longer than any value the formats match whole.
const (
	maxPart     = 64 << 10
	partOverlap = 2 << 10
)

// Scan reads the UTF-8 text of the file at path from r, line by line in
// bounded memory, and returns its secrets.
func Scan(r io.Reader, path string) ([]Hit, error) {
	s := newScanner(path)
	br := bufio.NewReaderSize(r, maxPart)
	var carry string // the tail of the previous part of a long line
	off := 0         // where the current part starts in its line
	for {
		part, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			text := carry + string(part)
			if off == 0 {
				s.n++
			}
			s.take(s.n, text, off-len(carry), len(carry))
			off += len(part)
			carry = text[max(0, len(text)-partOverlap):]
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if len(part) > 0 || off > 0 {
			text := strings.TrimSuffix(strings.TrimSuffix(carry+string(part), "\n"), "\r")
			if off == 0 {
				s.n++
			}
			s.take(s.n, text, off-len(carry), len(carry))
		}
		carry, off = "", 0
		if err != nil {
			return s.finish(), nil
		}
	}
}

// excerptMax is the longest excerpt of a hit: the value and some of the
// code around it, enough to recognise the line.
const excerptMax = 160

// cut returns line, or on a long line a window of it around [from, to)
// that does not split a UTF-8 character.
func cut(line string, from, to int) string {
	if len(line) <= excerptMax {
		return line
	}
	room := max(0, excerptMax-(to-from))
	lo := max(0, from-room/2)
	hi := min(len(line), max(to, lo+excerptMax))
	for lo > 0 && !utf8.RuneStart(line[lo]) {
		lo--
	}
	for hi < len(line) && !utf8.RuneStart(line[hi]) {
		hi++
	}
	return line[lo:hi]
}

// ErrBinary is returned by [Decode] for content that is not text.
var ErrBinary = errors.New("binary content")

// sniffLen is how much of a file [Decode] reads to tell its encoding, as
// git reads 8000 bytes to tell binary files.
const sniffLen = 8000

// Decode returns a reader of r's content as UTF-8: converted from
// encodingName when it names an encoding (a working-tree-encoding, as git
// names it: UTF-16LE, SHIFT-JIS, ...), else from UTF-16 or UTF-32 when a
// byte order mark or the pattern of NUL bytes says so, else as it is. A
// UTF-8 byte order mark is dropped. Content that is none of these — many
// control bytes (NUL among them) or much invalid UTF-8 in its first 8000
// bytes — is binary: the error is [ErrBinary].
func Decode(r io.Reader, encodingName string) (io.Reader, error) {
	br := bufio.NewReaderSize(r, sniffLen)
	head, err := br.Peek(sniffLen)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	if encodingName != "" {
		if enc := lookupEncoding(encodingName); enc != nil {
			return transform.NewReader(br, enc.NewDecoder()), nil
		}
		// An encoding git would not know either: read what is there.
	}
	var enc encoding.Encoding
	switch {
	case strings.HasPrefix(string(head), "\xef\xbb\xbf"):
		br.Discard(3)
		return br, nil
	case strings.HasPrefix(string(head), "\xff\xfe\x00\x00"):
		enc = utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM)
	case strings.HasPrefix(string(head), "\x00\x00\xfe\xff"):
		enc = utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM)
	case strings.HasPrefix(string(head), "\xff\xfe"):
		enc = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	case strings.HasPrefix(string(head), "\xfe\xff"):
		enc = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	default:
		switch utf16Order(head) {
		case 'L':
			enc = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
		case 'B':
			enc = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
		default:
			if binary(head) {
				return nil, ErrBinary
			}
			return br, nil
		}
	}
	return transform.NewReader(br, enc.NewDecoder()), nil
}

// utf16Order tells UTF-16 text without a byte order mark by its NUL
// bytes: text mostly in ASCII has a NUL in the high byte of most
// characters and none in the low one. It returns 'L' (little-endian), 'B'
// (big-endian) or 0.
func utf16Order(head []byte) byte {
	n := len(head) / 2
	if n < 2 {
		return 0
	}
	var even, odd int
	for i := 0; i+1 < len(head); i += 2 {
		if head[i] == 0 {
			even++
		}
		if head[i+1] == 0 {
			odd++
		}
	}
	switch {
	case odd*10 >= n*7 && even*20 <= n:
		return 'L'
	case even*10 >= n*7 && odd*20 <= n:
		return 'B'
	}
	return 0
}

// binary reports content that is not text: more than one byte in ten a
// control character (NUL included) or not part of valid UTF-8. A text file
// with a stray NUL byte is still read.
func binary(head []byte) bool {
	bad := 0
	for i := 0; i < len(head); {
		c := head[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && !strings.ContainsRune("\t\n\r\f\v\b\x1b", rune(c)) || c == 0x7f {
				bad++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size <= 1 {
			if len(head)-i < utf8.UTFMax && !utf8.FullRune(head[i:]) {
				break // a character cut by the end of the sample
			}
			bad++
		}
		i += max(size, 1)
	}
	return bad*10 > len(head)
}

// lookupEncoding returns the encoding git names name (iconv's names:
// UTF-16, UTF-16LE-BOM, SHIFT-JIS, ISO-8859-1, ...), or nil.
func lookupEncoding(name string) encoding.Encoding {
	switch strings.ToUpper(strings.TrimSpace(name)) {
	case "UTF-16", "UTF16":
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	case "UTF-16LE", "UTF-16LE-BOM", "UTF16LE":
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	case "UTF-16BE", "UTF-16BE-BOM", "UTF16BE":
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	case "UTF-32", "UTF32":
		return utf32.UTF32(utf32.BigEndian, utf32.UseBOM)
	case "UTF-32LE", "UTF-32LE-BOM":
		return utf32.UTF32(utf32.LittleEndian, utf32.UseBOM)
	case "UTF-32BE", "UTF-32BE-BOM":
		return utf32.UTF32(utf32.BigEndian, utf32.UseBOM)
	case "UTF-8", "UTF8":
		return unicode.UTF8BOM
	}
	if enc, err := ianaindex.IANA.Encoding(name); err == nil && enc != nil {
		return enc
	}
	if enc, err := htmlindex.Get(name); err == nil {
		return enc
	}
	return nil
}

// Values returns the raw secret values in text, read as the content of
// the file at path (the path picks the language, which decides how values
// are found; "" reads text as configuration, the widest reading). Every
// line counts: it is the detector behind the redactor, run over what
// leaves the process besides the added lines the rules see — removed and
// context lines, quoted code, names, messages.
func Values(path, text string) []string {
	var out []string
	for _, h := range ScanText(path, text) {
		out = append(out, h.Values...)
	}
	return out
}

// ScanText returns the secrets of text, read as the content of the file
// at path, as [Values] reads it.
func ScanText(path, text string) []Hit {
	if !mayHoldSecret(text) {
		return nil
	}
	s := newScanner(path)
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		s.line(strings.TrimSuffix(line, "\r"))
		text = rest
	}
	return s.finish()
}

// Find returns the raw secret values in text that is not a file's
// content: a branch or file name, a commit message, a rendered document, a
// log line. It is the [review.Detector] of every redactor.
func Find(text string) []string { return Values("", text) }

// minSecret is the length of the shortest value reported (a password of a
// URL or under a secret-named key, eight characters); a text without a
// run of token characters that long holds no secret, which spares almost
// every short string the detector's set-up.
const minSecret = 8

// mayHoldSecret reports whether text has a run of at least minSecret
// characters other than white space and ASCII punctuation that delimits
// values.
func mayHoldSecret(text string) bool {
	run := 0
	for i := 0; i < len(text); i++ {
		if strings.IndexByte(" \t\r\n\"'`,;()[]{}<>|", text[i]) >= 0 {
			run = 0
			continue
		}
		if run++; run >= minSecret {
			return true
		}
	}
	return false
}
