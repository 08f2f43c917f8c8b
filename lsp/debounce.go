package lsp

import (
	"sync"
	"time"
)

// eventKind says what happened to a path.
type eventKind int

const (
	eventCreated eventKind = iota
	eventChanged
	eventDeleted
)

func (k eventKind) String() string {
	switch k {
	case eventCreated:
		return "created"
	case eventChanged:
		return "changed"
	case eventDeleted:
		return "deleted"
	}
	return "unknown"
}

// fileEvent is one change of the file system, seen by the watcher or
// reported by the client (workspace/didChangeWatchedFiles).
type fileEvent struct {
	Path string // absolute, cleaned
	Kind eventKind
	// Git marks a git file that moves the review base: HEAD, index,
	// packed-refs or a ref under refs/.
	Git bool
	// Artifact marks a path under <root>/.copilot-tracking/reviews/code-reviews/:
	// a review written by someone else, the CLI say.
	Artifact bool
}

// merge combines two events of one path, old before new: the later kind
// wins, except that a change to a file created in the same batch leaves it
// created.
func merge(old, new fileEvent) fileEvent {
	kind := new.Kind
	if old.Kind == eventCreated && new.Kind == eventChanged {
		kind = eventCreated
	}
	return fileEvent{
		Path:     old.Path,
		Kind:     kind,
		Git:      old.Git || new.Git,
		Artifact: old.Artifact || new.Artifact,
	}
}

// debouncer gathers file events into batches. Each event re-arms a quiet
// window; the batch is flushed when the window passes without an event, or
// maxWait after the batch's first event, whichever comes first. A batch
// holds one event per path (see [merge]) in first-seen order.
//
// It knows nothing of fsnotify, so its timing can be tested in a
// testing/synctest bubble. push is safe for concurrent use; flush is called
// from the debouncer's one goroutine, never concurrently, with a non-empty
// batch. The goroutine is stopped by close.
type debouncer struct {
	quiet, maxWait time.Duration
	flush          func([]fileEvent)

	kick chan struct{} // capacity 1: events arrived
	stop chan struct{} // closed by close
	once sync.Once
	wg   sync.WaitGroup

	mu      sync.Mutex // guards the fields below
	pending []fileEvent
	index   map[string]int // path -> position in pending
	first   time.Time      // arrival of the batch's first event
	last    time.Time      // arrival of the latest event
	closed  bool
}

// newDebouncer starts a debouncer; quiet and maxWait must be positive.
func newDebouncer(quiet, maxWait time.Duration, flush func([]fileEvent)) *debouncer {
	d := &debouncer{
		quiet:   quiet,
		maxWait: maxWait,
		flush:   flush,
		kick:    make(chan struct{}, 1),
		stop:    make(chan struct{}),
		index:   map[string]int{},
	}
	d.wg.Go(d.run)
	return d
}

// push adds events to the current batch and re-arms the quiet window. It
// never blocks on flush and does nothing after close.
func (d *debouncer) push(events ...fileEvent) {
	if len(events) == 0 {
		return
	}
	now := time.Now()
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	if len(d.pending) == 0 {
		d.first = now
	}
	d.last = now
	for _, e := range events {
		if i, ok := d.index[e.Path]; ok {
			d.pending[i] = merge(d.pending[i], e)
			continue
		}
		d.index[e.Path] = len(d.pending)
		d.pending = append(d.pending, e)
	}
	d.mu.Unlock()
	select {
	case d.kick <- struct{}{}:
	default: // a kick is already pending
	}
}

func (d *debouncer) run() {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-d.kick:
		case <-timer.C:
		}
		batch, wait := d.take(time.Now())
		switch {
		case batch != nil:
			d.flush(batch)
		case wait > 0:
			timer.Reset(wait)
		}
	}
}

// take returns the batch if it is due at now and starts a new one;
// otherwise it returns how long until it is due (0 when nothing is
// pending).
func (d *debouncer) take(now time.Time) ([]fileEvent, time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.pending) == 0 {
		return nil, 0
	}
	due := d.last.Add(d.quiet)
	if limit := d.first.Add(d.maxWait); limit.Before(due) {
		due = limit
	}
	if wait := due.Sub(now); wait > 0 {
		return nil, wait
	}
	batch := d.pending
	d.pending = nil
	clear(d.index)
	return batch, 0
}

// close stops the goroutine and waits for it, dropping any pending batch.
// It must not be called from flush. It is idempotent.
func (d *debouncer) close() {
	d.once.Do(func() {
		d.mu.Lock()
		d.closed = true
		d.pending, d.index = nil, nil
		d.mu.Unlock()
		close(d.stop)
		d.wg.Wait()
	})
}
