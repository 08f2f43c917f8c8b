package lsp

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// mapper converts between the engine's positions (1-based lines, 1-based
// byte columns) and LSP positions (0-based lines, UTF-16 code units) for
// one version of a document's text. It is the only place that knows about
// UTF-16. Lines end at "\n"; a "\r" before it belongs to the line's
// terminator, as editors see CRLF files.
type mapper struct {
	content []byte
	starts  []int // byte offset of each line start
}

func newMapper(content []byte) *mapper {
	m := &mapper{content: content, starts: []int{0}}
	for i, c := range content {
		if c == '\n' {
			m.starts = append(m.starts, i+1)
		}
	}
	return m
}

// lineText returns line l (0-based) without its terminator.
func (m *mapper) lineText(l int) []byte {
	if l < 0 || l >= len(m.starts) {
		return nil
	}
	end := len(m.content)
	if l+1 < len(m.starts) {
		end = m.starts[l+1] - 1 // the "\n"
		if end > m.starts[l] && m.content[end-1] == '\r' {
			end--
		}
	}
	return m.content[m.starts[l]:end]
}

// utf16Len counts the UTF-16 code units of b; invalid UTF-8 bytes count as
// one unit each, as U+FFFD would.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// position converts a 1-based line and 1-based byte column (0 = start of
// the line) to an LSP position. Columns past the end of the line clamp to
// its end.
func (m *mapper) position(line, col int) protocol.Position {
	l := max(line-1, 0)
	if l >= len(m.starts) {
		l = len(m.starts) - 1
		col = 1 << 30
	}
	text := m.lineText(l)
	b := min(max(col-1, 0), len(text))
	return protocol.Position{Line: uint32(l), Character: uint32(utf16Len(text[:b]))}
}

// lineRange returns the range of whole lines [start, end] (1-based),
// ending at the end of line end's text.
func (m *mapper) lineRange(start, end int) protocol.Range {
	return protocol.Range{Start: m.position(start, 1), End: m.position(max(end, start), 1<<30)}
}

// offset converts an LSP position to a byte offset in the content. A
// character past the end of the line clamps to the line's end (before its
// terminator); a line past the end of the content maps to its length.
func (m *mapper) offset(p protocol.Position) (int, error) {
	l := int(p.Line)
	if l >= len(m.starts) {
		if l == len(m.starts) && p.Character == 0 {
			return len(m.content), nil
		}
		return 0, fmt.Errorf("line %d is past the end of the document (%d lines)", l+1, len(m.starts))
	}
	text := m.lineText(l)
	units, i := 0, 0
	for i < len(text) && units < int(p.Character) {
		r, size := utf8.DecodeRune(text[i:])
		units += utf16.RuneLen(r)
		if r == utf8.RuneError && size == 1 {
			units = units - utf16.RuneLen(r) + 1
		}
		i += size
	}
	return m.starts[l] + i, nil
}

// byteCol converts an LSP position to the engine's 1-based line and byte
// column.
func (m *mapper) byteCol(p protocol.Position) (line, col int, err error) {
	off, err := m.offset(p)
	if err != nil {
		return 0, 0, err
	}
	l := int(p.Line)
	if l >= len(m.starts) {
		l = len(m.starts) - 1
	}
	return l + 1, off - m.starts[l] + 1, nil
}

// contentChange is one entry of didChange's contentChanges. The range is a
// pointer because its absence (a whole-document replacement) must be told
// apart from an insertion at 0:0, which protocol.TextDocumentContentChangeEvent
// cannot do.
type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// applyChanges applies content changes in order and returns the new text.
func applyChanges(text []byte, changes []contentChange) ([]byte, error) {
	for _, c := range changes {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		m := newMapper(text)
		start, err := m.offset(c.Range.Start)
		if err != nil {
			return nil, fmt.Errorf("change start: %w", err)
		}
		end, err := m.offset(c.Range.End)
		if err != nil {
			return nil, fmt.Errorf("change end: %w", err)
		}
		if end < start {
			return nil, fmt.Errorf("change range %d:%d-%d:%d ends before it starts", c.Range.Start.Line, c.Range.Start.Character, c.Range.End.Line, c.Range.End.Character)
		}
		next := make([]byte, 0, len(text)-(end-start)+len(c.Text))
		next = append(next, text[:start]...)
		next = append(next, c.Text...)
		text = append(next, text[end:]...)
	}
	return text, nil
}
