package lsp

import (
	"context"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// releaseKey carries a request's release function in its context.
type releaseKey struct{}

// release lets the messages queued behind the current one start before it
// replies. jsonrpc2.AsyncHandler holds every message until the previous one
// replied; a request that does long work (a review, an explanation) calls
// release first, so edits and cancellations keep flowing meanwhile.
func release(ctx context.Context) {
	if f, ok := ctx.Value(releaseKey{}).(func()); ok {
		f()
	}
}

// asyncHandler runs each message in its own goroutine, in arrival order:
// a message starts when the previous one replied or released.
func asyncHandler(handler jsonrpc2.Handler) jsonrpc2.Handler {
	next := make(chan struct{})
	close(next)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		wait := next
		next = make(chan struct{})
		unlock := next
		var once sync.Once
		free := func() { once.Do(func() { close(unlock) }) }
		ctx = context.WithValue(ctx, releaseKey{}, free)
		done := func(ctx context.Context, result any, err error) error {
			free()
			return reply(ctx, result, err)
		}
		go func() {
			<-wait
			_ = handler(ctx, done, req)
		}()
		return nil
	}
}
