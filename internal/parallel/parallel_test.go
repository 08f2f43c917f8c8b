package parallel

import (
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	seen := make([]atomic.Int32, 100)
	Each(len(seen), nil, func(i int) { seen[i].Add(1) })
	for i := range seen {
		if n := seen[i].Load(); n != 1 {
			t.Fatalf("item %d ran %d times, want 1", i, n)
		}
	}
	var ran atomic.Int32
	Each(100, func() bool { return ran.Load() >= 1 }, func(int) { ran.Add(1) })
	if n := ran.Load(); n < 1 || n > 100 {
		t.Errorf("with a stop after the first item, %d items ran", n)
	}
	Each(0, nil, func(int) { t.Error("an item ran for n = 0") })
}
