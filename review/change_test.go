package review

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestChangedLines checks both ways ChangedLines orders the lines (marking
// dense line numbers, sorting sparse ones) against a plain sort.
func TestChangedLines(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		f := &File{Lines: map[int]LineState{}}
		span := 1 + r.IntN(50)
		if i%2 == 1 {
			span = 1 + r.IntN(100000) // sparse
		}
		for range r.IntN(40) {
			f.Lines[1+r.IntN(span)] = LineUnstaged
		}
		var want []int
		for n := range f.Lines {
			want = append(want, n)
		}
		slices.Sort(want)
		if got := f.ChangedLines(); !slices.Equal(got, want) {
			t.Fatalf("ChangedLines() = %v, want %v", got, want)
		}
	}
}
