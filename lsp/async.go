package lsp

import (
	"context"
	"encoding/json"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
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

// cancelHandler honours $/cancelRequest: it cancels the context of the
// request with that id. It replaces protocol.CancelHandler, which decodes
// the id into an interface{} and then accepts only int32 or string, so
// the numeric id every client sends (a float64 once decoded) was refused
// as malformed and nothing was ever cancelled.
func (s *server) cancelHandler(next jsonrpc2.Handler) jsonrpc2.Handler {
	next, cancel := jsonrpc2.CancelHandler(next)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() != protocol.MethodCancelRequest {
			return next(ctx, func(ctx context.Context, result any, err error) error {
				if ctx.Err() != nil && err == nil {
					err = protocol.ErrRequestCancelled
				}
				return reply(context.WithoutCancel(ctx), result, err)
			}, req)
		}
		var params struct {
			ID *jsonrpc2.ID `json:"id"`
		}
		if err := json.Unmarshal(req.Params(), &params); err != nil || params.ID == nil {
			// Debug, not Warn: this runs on the read loop, which must
			// not wait on a window/logMessage write.
			s.logger.Debug("malformed $/cancelRequest", "params", string(req.Params()))
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "$/cancelRequest: id must be a number or a string"))
		}
		cancel(*params.ID)
		return reply(ctx, nil, nil)
	}
}
