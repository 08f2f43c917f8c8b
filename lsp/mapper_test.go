package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

func pos(l, c uint32) protocol.Position { return protocol.Position{Line: l, Character: c} }

func TestMapperUTF16(t *testing.T) {
	// Line 2 holds a 2-byte é (1 unit), a 3-byte € (1 unit) and a 4-byte
	// emoji (2 units); line 3 is CRLF-terminated; line 4 has invalid UTF-8.
	src := "package a\nx := \"é€😀z\" // TODO\r\ny\r\n\xffq\n"
	m := newMapper([]byte(src))
	for _, tt := range []struct {
		line, col int
		want      protocol.Position
	}{
		{1, 1, pos(0, 0)},
		{2, 7, pos(1, 6)},   // é starts at byte 7
		{2, 9, pos(1, 7)},   // € after é (2 bytes, 1 unit)
		{2, 12, pos(1, 8)},  // emoji after € (3 bytes, 1 unit)
		{2, 16, pos(1, 10)}, // z after the emoji (4 bytes, 2 units)
		{2, 999, pos(1, 20)},
		{3, 999, pos(2, 1)}, // the \r is not part of the line
		{4, 2, pos(3, 1)},   // an invalid byte counts as one unit
		{99, 1, pos(4, 0)},  // clamps to the empty last line
	} {
		if got := m.position(tt.line, tt.col); got != tt.want {
			t.Errorf("position(%d, %d) = %v, want %v", tt.line, tt.col, got, tt.want)
		}
	}
	// offset is the inverse on character boundaries.
	for _, tt := range []struct {
		p    protocol.Position
		want int
	}{
		{pos(1, 6), 16},
		{pos(1, 7), 18},
		{pos(1, 8), 21},
		{pos(1, 10), 25},
		{pos(2, 5), 38}, // past the end of "y" clamps before \r\n
		{pos(4, 0), len(src)},
	} {
		got, err := m.offset(tt.p)
		if err != nil || got != tt.want {
			t.Errorf("offset(%v) = %d, %v, want %d", tt.p, got, err, tt.want)
		}
	}
	if _, err := m.offset(pos(9, 0)); err == nil {
		t.Error("offset past the end: want an error")
	}
}

func TestApplyChanges(t *testing.T) {
	r := func(sl, sc, el, ec uint32) *protocol.Range {
		return &protocol.Range{Start: pos(sl, sc), End: pos(el, ec)}
	}
	for _, tt := range []struct {
		name    string
		text    string
		changes []contentChange
		want    string
	}{
		{"full", "a\nb\n", []contentChange{{Text: "c\n"}}, "c\n"},
		{"insert at 0:0 is not a full replacement", "a\n", []contentChange{{Range: r(0, 0, 0, 0), Text: "x"}}, "xa\n"},
		{"replace after an astral char", "😀ab\n", []contentChange{{Range: r(0, 2, 0, 3), Text: "Z"}}, "😀Zb\n"},
		{"delete a CRLF line", "a\r\nb\r\nc\r\n", []contentChange{{Range: r(1, 0, 2, 0), Text: ""}}, "a\r\nc\r\n"},
		{"sequential edits", "abc\n", []contentChange{{Range: r(0, 1, 0, 2), Text: "XY"}, {Range: r(0, 0, 0, 1), Text: ""}}, "XYc\n"},
		{"append a line at the end", "a\n", []contentChange{{Range: r(1, 0, 1, 0), Text: "b\n"}}, "a\nb\n"},
	} {
		got, err := applyChanges([]byte(tt.text), tt.changes)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	if _, err := applyChanges([]byte("a\n"), []contentChange{{Range: r(5, 0, 5, 1), Text: "x"}}); err == nil {
		t.Error("a change past the end: want an error")
	}
}
