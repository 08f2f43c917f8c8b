package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/reviewls/reviewls/review"
)

// nopCloser is a buffer standing in for the client's end of the stream.
type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// TestStreamRedactsOutgoing checks that a message leaves the stream with
// the sessions' known secrets and whatever the detector finds redacted —
// keys, values and URIs alike — and with a Content-Length that matches
// the redacted body.
func TestStreamRedactsOutgoing(t *testing.T) {
	const (
		known    = "p4ss-w0rd-only-the-review-knows"
		detected = "AKIA5XRILAV5FVCYK43K"
	)
	s := newServer((&Options{}).withDefaults())
	s.setRedactor(&session{}, review.NewRedactor([]string{known}))
	var out bytes.Buffer
	st := newStream(nopCloser{&out}, nil)
	st.redact = s.redactMessage
	msg, err := jsonrpc2.NewNotification("textDocument/publishDiagnostics", map[string]any{
		"uri":         "file:///repo/keys/" + detected + ".txt",
		"diagnostics": []map[string]any{{"message": "uses " + known}},
		known:         "as a key",
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Write(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	frame := out.String()
	for _, s := range []string{known, detected} {
		if strings.Contains(frame, s) {
			t.Errorf("the frame holds %q:\n%s", s, frame)
		}
		if !strings.Contains(frame, review.Redact(s)) {
			t.Errorf("the frame does not show %q:\n%s", review.Redact(s), frame)
		}
	}
	header, body, ok := strings.Cut(frame, "\r\n\r\n")
	if !ok || header != fmt.Sprintf("Content-Length: %d", len(body)) {
		t.Errorf("header %q does not match the %d-byte body", header, len(body))
	}
	back := newStream(nopCloser{bytes.NewBufferString(frame)}, nil)
	if _, _, err := back.Read(context.Background()); err != nil && err != io.EOF {
		t.Errorf("the redacted frame does not decode: %v", err)
	}
}

func BenchmarkRedactMessage(b *testing.B) {
	s := newServer((&Options{}).withDefaults())
	s.setRedactor(&session{}, review.NewRedactor([]string{"p4ss-w0rd-only-the-review-knows"}))
	var diags []map[string]any
	for i := range 50 {
		diags = append(diags, map[string]any{
			"range":   map[string]any{"start": map[string]int{"line": i, "character": 4}, "end": map[string]int{"line": i, "character": 30}},
			"message": "Error from jwt.Sign is discarded: a signing failure returns an empty token and a nil error.",
			"code":    "functional/unchecked-error", "source": "reviewls",
			"data": map[string]string{"id": "rv-0123456789ab", "perspective": "functional", "lineState": "unstaged"},
		})
	}
	msg, _ := jsonrpc2.NewNotification("textDocument/publishDiagnostics", map[string]any{"uri": "file:///repo/internal/auth/token.go", "diagnostics": diags})
	data, _ := msg.MarshalJSON()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s.redactMessage(data)
	}
}
