package review

import "testing"

func TestApplyEdits(t *testing.T) {
	src := "one\ntwo\nthree\n"
	for _, tt := range []struct {
		name  string
		edits []TextEdit
		want  string
	}{
		{"replace a line", []TextEdit{{Span{StartLine: 2}, "2\n"}}, "one\n2\nthree\n"},
		{"delete lines", []TextEdit{{Span{StartLine: 1, EndLine: 2}, ""}}, "three\n"},
		{"columns", []TextEdit{{Span{StartLine: 3, StartCol: 1, EndLine: 3, EndCol: 4}, "THR"}}, "one\ntwo\nTHRee\n"},
		{"insert before a line", []TextEdit{{Span{StartLine: 2, StartCol: 1, EndLine: 2, EndCol: 1}, "// x\n"}}, "one\n// x\ntwo\nthree\n"},
		{"two edits", []TextEdit{{Span{StartLine: 3}, ""}, {Span{StartLine: 1}, "1\n"}}, "1\ntwo\n"},
		{"append at end", []TextEdit{{Span{StartLine: 4, StartCol: 1, EndLine: 4, EndCol: 1}, "four\n"}}, "one\ntwo\nthree\nfour\n"},
	} {
		got, err := ApplyEdits([]byte(src), tt.edits)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if string(got) != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	if _, err := ApplyEdits([]byte(src), []TextEdit{{Span{StartLine: 1}, ""}, {Span{StartLine: 1, EndLine: 2}, ""}}); err == nil {
		t.Error("overlapping edits: want an error")
	}
	if _, err := ApplyEdits([]byte(src), []TextEdit{{Span{StartLine: 9}, ""}}); err == nil {
		t.Error("line out of range: want an error")
	}
}
