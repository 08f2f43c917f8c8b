//go:build go1.21

package jobs

import (
	"context"
	"sync"
	"testing"

	"golang.org/x/sync/errgroup"
)

func RunAll(jobs []func()) {
	var wg sync.WaitGroup
	for _, job := range jobs {
		wg.Add(1)
		go func() { // want "goroutine captures the loop variable job"
			defer wg.Done()
			job()
		}()
	}
	wg.Wait()
}

func Indexed(items []string, out chan<- string) {
	for i, it := range items {
		go func() { // want "captures the loop variable i, it"
			out <- it + string(rune(i))
		}()
	}
}

func Classic(n int, work func(int)) {
	for i := 0; i < n; i++ {
		defer func() { // want "deferred closure captures the loop variable i \(2 closures"
			work(i)
		}()
		go func() {
			work(i)
		}()
	}
}

func Group(ctx context.Context, urls []string, fetch func(context.Context, string) error) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, u := range urls {
		g.Go(func() error { // want "errgroup callback captures the loop variable u"
			return fetch(ctx, u)
		})
	}
	return g.Wait()
}

func TestCases(t *testing.T) {
	for _, tc := range []struct{ name string }{{"a"}, {"b"}} {
		t.Run(tc.name, func(t *testing.T) { // want "parallel subtest captures the loop variable tc"
			t.Parallel()
			_ = tc.name
		})
	}
}

// Near misses.

func Copied(jobs []func()) {
	for _, job := range jobs {
		job := job
		go func() {
			job()
		}()
	}
}

func Argument(jobs []func()) {
	for _, job := range jobs {
		go func(job func()) {
			job()
		}(job)
	}
}

func Synchronous(items []string, visit func(string)) {
	for _, it := range items {
		func() {
			visit(it)
		}()
	}
}

func SerialSubtests(t *testing.T) {
	for _, tc := range []struct{ name string }{{"a"}} {
		t.Run(tc.name, func(t *testing.T) {
			_ = tc.name
		})
	}
}

type item struct{ it string }

func FieldsOnly(items []item, out chan<- item) {
	for _, it := range items {
		_ = it
		go func() {
			x := item{it: "fixed"}
			out <- x
		}()
	}
}

// A defer inside a serial subtest runs when the subtest returns, within
// the iteration.
func SerialSubtestDefer(t *testing.T) {
	for _, tc := range []struct{ name string }{{"a"}} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				_ = tc.name
			}()
		})
	}
}

// A goroutine the iteration waits for ends before the next one.
func Joined(items []string, visit func(string)) {
	for _, it := range items {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			visit(it)
		}()
		wg.Wait()
	}
}

func JoinedInSubtest(t *testing.T, items []string, visit func(string)) {
	for _, it := range items {
		t.Run(it, func(t *testing.T) {
			g, _ := errgroup.WithContext(context.Background())
			g.Go(func() error {
				visit(it)
				return nil
			})
			_ = g.Wait()
		})
	}
}

// Waited for after the loop: every goroutine shares the variable.
func WaitedAfterLoop(items []string, visit func(string)) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() { // want "goroutine captures the loop variable it"
			defer wg.Done()
			visit(it)
		}()
	}
	wg.Wait()
}
