package lsp

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Every test here runs in a synctest bubble: time.Sleep and the
// debouncer's timers use the bubble's fake clock, so the timings are exact.

// flushed is one batch and when it was flushed, relative to the start of
// the test.
type flushed struct {
	At    time.Duration
	Batch []fileEvent
}

// flushRecorder records the debouncer's batches.
type flushRecorder struct {
	start time.Time

	mu      sync.Mutex
	batches []flushed
}

func newFlushRecorder() *flushRecorder { return &flushRecorder{start: time.Now()} }

func (r *flushRecorder) flush(b []fileEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.batches = append(r.batches, flushed{time.Since(r.start), b})
}

// got waits for the bubble to settle and returns the batches so far.
func (r *flushRecorder) got() []flushed {
	synctest.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]flushed(nil), r.batches...)
}

func debChanged(p string) fileEvent { return fileEvent{Path: p, Kind: eventChanged} }

// sleepUntil sleeps until d after start.
func sleepUntilOffset(start time.Time, d time.Duration) { time.Sleep(time.Until(start.Add(d))) }

func TestDebounceTiming(t *testing.T) {
	type push struct {
		at   time.Duration
		path string
	}
	// batch is when a batch is flushed and how many events it holds.
	type batch struct {
		At time.Duration
		N  int
	}
	ms := time.Millisecond
	tests := []struct {
		name           string
		quiet, maxWait time.Duration
		pushes         []push
		want           []batch
	}{
		{
			name:   "events 100ms apart make one batch",
			quiet:  200 * ms,
			pushes: []push{{0, "a"}, {100 * ms, "b"}, {200 * ms, "c"}},
			want:   []batch{{400 * ms, 3}},
		},
		{
			name:   "a 250ms gap makes two batches",
			quiet:  200 * ms,
			pushes: []push{{0, "a"}, {250 * ms, "b"}},
			want:   []batch{{200 * ms, 1}, {450 * ms, 1}},
		},
		{
			name:    "max wait cuts continuous churn",
			quiet:   200 * ms,
			maxWait: time.Second,
			// An event every 80ms from 0 to 2400ms: the quiet window
			// passes only at the end.
			pushes: func() []push {
				var ps []push
				for at := time.Duration(0); at <= 2400*ms; at += 80 * ms {
					ps = append(ps, push{at, at.String()})
				}
				return ps
			}(),
			want: []batch{
				{1000 * ms, 13}, // 0ms..960ms, cut 1s after the first
				{2040 * ms, 13}, // 1040ms..2000ms, cut 1s after the first
				{2600 * ms, 5},  // 2080ms..2400ms, then quiet
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				maxWait := tt.maxWait
				if maxWait == 0 {
					maxWait = time.Hour
				}
				rec := newFlushRecorder()
				d := newDebouncer(tt.quiet, maxWait, rec.flush)
				defer d.close()
				var want []string
				for _, p := range tt.pushes {
					sleepUntilOffset(rec.start, p.at)
					d.push(debChanged(p.path))
					want = append(want, p.path)
				}
				time.Sleep(time.Hour)

				var batches []batch
				var paths []string
				for _, f := range rec.got() {
					batches = append(batches, batch{f.At, len(f.Batch)})
					for _, e := range f.Batch {
						paths = append(paths, e.Path)
					}
				}
				if diff := cmp.Diff(tt.want, batches); diff != "" {
					t.Errorf("batches (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(want, paths); diff != "" {
					t.Errorf("events of all batches (-want +got):\n%s", diff)
				}
			})
		})
	}
}

func TestDebounceDedupe(t *testing.T) {
	C, M, D := eventCreated, eventChanged, eventDeleted
	tests := []struct {
		kinds []eventKind
		want  eventKind
	}{
		{[]eventKind{M, M}, M},
		{[]eventKind{C, M}, C},
		{[]eventKind{C, D}, D},
		{[]eventKind{D, C}, C},
		{[]eventKind{M, D}, D},
		{[]eventKind{D, M}, M},
		{[]eventKind{C, M, D, C, M}, C},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.kinds), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := newFlushRecorder()
				d := newDebouncer(200*time.Millisecond, time.Hour, rec.flush)
				defer d.close()
				for _, k := range tt.kinds {
					d.push(fileEvent{Path: "/r/a", Kind: k})
					time.Sleep(10 * time.Millisecond)
				}
				time.Sleep(time.Second)
				want := []flushed{{200*time.Millisecond + time.Duration(len(tt.kinds)-1)*10*time.Millisecond,
					[]fileEvent{{Path: "/r/a", Kind: tt.want}}}}
				if diff := cmp.Diff(want, rec.got()); diff != "" {
					t.Errorf("kinds %v: batches (-want +got):\n%s", tt.kinds, diff)
				}
			})
		})
	}
}

func TestDebounceOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newFlushRecorder()
		d := newDebouncer(200*time.Millisecond, time.Hour, rec.flush)
		defer d.close()
		d.push(debChanged("/r/a"), debChanged("/r/b"))
		d.push(fileEvent{Path: "/r/a", Kind: eventDeleted}, debChanged("/r/c"))
		d.push(debChanged("/r/b"))
		time.Sleep(time.Second)
		want := []flushed{{200 * time.Millisecond, []fileEvent{
			{Path: "/r/a", Kind: eventDeleted}, debChanged("/r/b"), debChanged("/r/c"),
		}}}
		if diff := cmp.Diff(want, rec.got()); diff != "" {
			t.Errorf("batches (-want +got):\n%s", diff)
		}
	})
}

// TestDebounceSources pushes the same save from two goroutines, as the
// fsnotify loop and the client's didChangeWatchedFiles do.
func TestDebounceSources(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newFlushRecorder()
		d := newDebouncer(200*time.Millisecond, time.Hour, rec.flush)
		defer d.close()
		var wg sync.WaitGroup
		wg.Go(func() { // fsnotify
			d.push(fileEvent{Path: "/r/a.go", Kind: eventCreated})
			time.Sleep(30 * time.Millisecond)
			d.push(fileEvent{Path: "/r/.git/HEAD", Kind: eventCreated, Git: true})
		})
		wg.Go(func() { // client
			time.Sleep(20 * time.Millisecond)
			d.push(debChanged("/r/a.go"), debChanged("/r/.git/HEAD"))
		})
		wg.Wait()
		time.Sleep(time.Second)
		want := []flushed{{230 * time.Millisecond, []fileEvent{
			{Path: "/r/a.go", Kind: eventCreated},
			{Path: "/r/.git/HEAD", Kind: eventCreated, Git: true},
		}}}
		if diff := cmp.Diff(want, rec.got()); diff != "" {
			t.Errorf("batches (-want +got):\n%s", diff)
		}
	})
}

func TestDebounceIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newFlushRecorder()
		d := newDebouncer(200*time.Millisecond, time.Second, rec.flush)
		defer d.close()
		time.Sleep(time.Hour)
		if got := rec.got(); len(got) != 0 {
			t.Fatalf("batches without events: %v", got)
		}
		d.push()
		d.push(debChanged("/r/a"))
		time.Sleep(time.Hour)
		if got := rec.got(); len(got) != 1 {
			t.Fatalf("got %d batches after one event, want 1: %v", len(got), got)
		}
	})
}

// TestDebounceSlowFlush checks that flush is never called concurrently and
// that events pushed during a flush make the next batch.
func TestDebounceSlowFlush(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newFlushRecorder()
		var inFlight, overlap atomic.Int32
		d := newDebouncer(200*time.Millisecond, time.Hour, func(b []fileEvent) {
			if inFlight.Add(1) > 1 {
				overlap.Add(1)
			}
			defer inFlight.Add(-1)
			rec.flush(b)
			time.Sleep(300 * time.Millisecond)
		})
		defer d.close()
		d.push(debChanged("/r/a"))
		time.Sleep(300 * time.Millisecond) // the first flush runs from 200ms to 500ms
		d.push(debChanged("/r/b"))
		time.Sleep(time.Hour)
		want := []flushed{
			{200 * time.Millisecond, []fileEvent{debChanged("/r/a")}},
			{500 * time.Millisecond, []fileEvent{debChanged("/r/b")}},
		}
		if diff := cmp.Diff(want, rec.got()); diff != "" {
			t.Errorf("batches (-want +got):\n%s", diff)
		}
		if overlap.Load() != 0 {
			t.Error("flush was called concurrently")
		}
	})
}

// TestDebounceClose checks that close drops the pending batch and stops the
// goroutine: synctest.Test fails if a goroutine of the bubble is left
// blocked.
func TestDebounceClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newFlushRecorder()
		d := newDebouncer(200*time.Millisecond, time.Hour, rec.flush)
		d.push(debChanged("/r/a"))
		time.Sleep(100 * time.Millisecond)
		d.close()
		d.close()
		d.push(debChanged("/r/b"))
		time.Sleep(time.Hour)
		if got := rec.got(); len(got) != 0 {
			t.Fatalf("batches after close: %v", got)
		}
	})
}
