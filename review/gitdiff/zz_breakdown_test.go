package gitdiff

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestBreakdown(t *testing.T) {
	dir := os.Getenv("BREAKDOWN_DIR")
	if dir == "" {
		t.Skip()
	}
	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "")
	for round := 0; round < 2; round++ {
		for _, w := range []int{2, 4, 8, 16, 32} {
			walkWorkers = w
			var ds []time.Duration
			for i := 0; i < 15; i++ {
				t0 := time.Now()
				if _, err := r.Status(t.Context(), tg); err != nil {
					t.Fatal(err)
				}
				ds = append(ds, time.Since(t0))
			}
			fmt.Printf("workers %2d: median %v\n", w, median(ds))
		}
	}
}

func median(d []time.Duration) time.Duration {
	for i := range d {
		for j := i + 1; j < len(d); j++ {
			if d[j] < d[i] {
				d[i], d[j] = d[j], d[i]
			}
		}
	}
	return d[len(d)/2]
}
