package jobs

import "sync"

// Without a go.mod or //go:build line the modern semantics apply.
func Modern(jobs []func()) {
	var wg sync.WaitGroup
	for _, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			job()
		}()
	}
	wg.Wait()
}
