package lsp

import (
	"context"
	"encoding/json"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// TestCancelRequest checks that $/cancelRequest cancels the request it
// names, by the numeric id clients send and by a string id, and that the
// cancelled request answers RequestCancelled.
func TestCancelRequest(t *testing.T) {
	s := newServer((&Options{}).withDefaults())
	type pending struct {
		ctx   context.Context
		reply jsonrpc2.Replier
	}
	started := make(chan pending, 1)
	h := s.cancelHandler(func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "slow" {
			started <- pending{ctx, reply} // replies later, as a review does
			return nil
		}
		return reply(ctx, nil, nil)
	})
	for _, id := range []jsonrpc2.ID{jsonrpc2.NewNumberID(7), jsonrpc2.NewStringID("req-7")} {
		var got error
		call, _ := jsonrpc2.NewCall(id, "slow", nil)
		if err := h(context.Background(), func(_ context.Context, _ any, err error) error { got = err; return nil }, call); err != nil {
			t.Fatal(err)
		}
		req := <-started
		idJSON, _ := json.Marshal(&id)
		cancel, _ := jsonrpc2.NewNotification(protocol.MethodCancelRequest, json.RawMessage(`{"id":`+string(idJSON)+`}`))
		if err := h(context.Background(), func(context.Context, any, error) error { return nil }, cancel); err != nil {
			t.Fatal(err)
		}
		if req.ctx.Err() == nil {
			t.Errorf("request %v: $/cancelRequest did not cancel its context", id)
		}
		_ = req.reply(req.ctx, "done", nil)
		if got != protocol.ErrRequestCancelled {
			t.Errorf("request %v: reply error %v, want RequestCancelled", id, got)
		}
	}
}
