package main

import (
	"slices"
	"testing"
)

func TestParseCounts(t *testing.T) {
	got, err := parseCounts(" 1,10, 100,1000,")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 10, 100, 1000}; !slices.Equal(got, want) {
		t.Errorf("parseCounts = %v, want %v", got, want)
	}
	if got, err := parseCounts(""); err != nil || len(got) != 0 {
		t.Errorf("parseCounts(\"\") = %v, %v; want no counts", got, err)
	}
	for _, bad := range []string{"0", "-5", "ten", "1,,x"} {
		if _, err := parseCounts(bad); err == nil {
			t.Errorf("parseCounts(%q): no error", bad)
		}
	}
}
