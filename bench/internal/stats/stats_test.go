package stats

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- { // 100..1 ms, reversed so sorting matters
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{
		{50, 50 * time.Millisecond},
		{95, 95 * time.Millisecond},
		{99.5, 100 * time.Millisecond},
		{100, 100 * time.Millisecond},
		{0.1, 1 * time.Millisecond},
		{0, 1 * time.Millisecond},
	} {
		if got := Percentile(d, c.p); got != c.want {
			t.Errorf("Percentile(1..100 ms, %v) = %v, want %v", c.p, got, c.want)
		}
	}
	if d[0] != 100*time.Millisecond {
		t.Errorf("Percentile reordered its input: d[0] = %v", d[0])
	}
	if got := Percentile(nil, 50); got != 0 {
		t.Errorf("Percentile(nil) = %v, want 0", got)
	}
	if got := Percentile([]time.Duration{7, 3, 5}, 95); got != 7 {
		t.Errorf("p95 of three values = %v, want the largest, 7", got)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{9}, 9},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{8, 2, 4, 6}, 5},
	} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
