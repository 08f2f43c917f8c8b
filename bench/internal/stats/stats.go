// Package stats holds the order statistics the benchmarks report: medians
// and nearest-rank percentiles of wall times.
package stats

import (
	"math"
	"slices"
	"time"
)

// Percentile returns the nearest-rank p-th percentile (0 <= p <= 100) of
// d: the smallest value that at least p per cent of the values do not
// exceed; p 0 gives the minimum. It returns 0 for an empty d and does not
// reorder d.
func Percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}

// Median returns the median of d: the middle value, or the mean of the two
// middle values when len(d) is even; 0 for an empty d.
func Median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
