// Package parallel spreads independent work items over the cores.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls f(i) for every i in [0, n) on up to GOMAXPROCS goroutines,
// taking the items in order, and returns when all calls have. stop, when
// not nil, is asked before each item: once it says true, no further item
// starts.
func Each(n int, stop func() bool, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && (stop == nil || !stop()); i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}
