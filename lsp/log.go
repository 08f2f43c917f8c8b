package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"go.lsp.dev/protocol"
)

// clientLog is a slog.Handler that also forwards warnings and errors to
// the client as window/logMessage, so they show in the editor's output
// panel; everything still goes to the server's own log (stderr).
type clientLog struct {
	inner slog.Handler
	srv   *server
	attrs []slog.Attr
}

func (h *clientLog) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn || h.inner.Enabled(ctx, l)
}

func (h *clientLog) Handle(ctx context.Context, r slog.Record) error {
	var err error
	if h.inner.Enabled(ctx, r.Level) {
		err = h.inner.Handle(ctx, r)
	}
	if r.Level < slog.LevelWarn || h.srv.client == nil {
		return err
	}
	h.srv.stateMu.Lock()
	ready := h.srv.state == stateInitialized
	h.srv.stateMu.Unlock()
	if !ready {
		return err
	}
	var b strings.Builder
	b.WriteString(r.Message)
	for _, a := range h.attrs {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
	}
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	typ := protocol.MessageTypeWarning
	if r.Level >= slog.LevelError {
		typ = protocol.MessageTypeError
	}
	// A failure to forward is not logged: it would loop.
	_ = h.srv.client.LogMessage(context.Background(), &protocol.LogMessageParams{Type: typ, Message: b.String()})
	return err
}

func (h *clientLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &clientLog{inner: h.inner.WithAttrs(attrs), srv: h.srv, attrs: append(append([]slog.Attr(nil), h.attrs...), attrs...)}
}

func (h *clientLog) WithGroup(name string) slog.Handler {
	return &clientLog{inner: h.inner.WithGroup(name), srv: h.srv, attrs: h.attrs}
}

// SetTrace accepts the client's trace setting ($/setTrace, which VS Code
// sends on every start). The server has no $/logTrace output: its log is
// stderr (--log-level), so the value is only recorded in the debug log.
func (s *server) SetTrace(_ context.Context, params *protocol.SetTraceParams) error {
	if params != nil {
		s.logger.Debug("$/setTrace", "value", string(params.Value))
	}
	return nil
}
