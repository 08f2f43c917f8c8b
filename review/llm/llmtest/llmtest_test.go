package llmtest

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDelay checks a delayed reply: answered once the delay passed, and
// told cancelled when the client goes away first.
func TestDelay(t *testing.T) {
	events := make(chan string, 8)
	s := New(t, Config{Handler: func(c *Chat) Reply {
		r := Answer()
		r.Delay = time.Millisecond
		if c.N == 2 {
			r.Delay = time.Hour
		}
		return r
	}, Notify: func(n int, e string) { events <- e }})
	post := func(ctx context.Context) (string, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/chat/completions", strings.NewReader(`{"model": "m", "messages": []}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	body, err := post(t.Context())
	if err != nil || !strings.Contains(body, `"content":"{\"findings\":[]}"`) {
		t.Fatalf("delayed answer %q, %v", body, err)
	}
	if got := []string{<-events, <-events}; got[0] != "received" || got[1] != "answered" {
		t.Errorf("events %q, want received, answered", got)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { _, err := post(ctx); done <- err }()
	if e := <-events; e != "received" {
		t.Fatalf("event %q, want received", e)
	}
	cancel()
	if e := <-events; e != "cancelled" {
		t.Errorf("event %q after the client went away, want cancelled", e)
	}
	if err := <-done; err == nil {
		t.Error("the cancelled request got an answer")
	}
}
