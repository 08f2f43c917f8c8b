package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/reviewls/reviewls/review"
)

// signalingClient records publications and signals each one by file name.
type signalingClient struct {
	*recordingClient
	pubs chan string
}

func (c signalingClient) PublishDiagnostics(ctx context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.recordingClient.PublishDiagnostics(ctx, p)
	c.pubs <- filepath.Base(uri.URI(p.URI).Filename())
	return nil
}

// TestSaveDuringInitialReview checks that a save arriving while the
// initial review runs is published before that review finishes, and that
// the full review runs after it. The initial review is made slow by a
// hook that holds every full review until the test releases it, even
// when its run is cancelled (a stage that does not notice cancellation).
func TestSaveDuringInitialReview(t *testing.T) {
	ss, rc := testSession(t, Options{ArtifactDelay: time.Hour}, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	sc := signalingClient{recordingClient: rc, pubs: make(chan string, 64)}
	ss.srv.client = sc
	fulls := make(chan struct{}, 16)
	release := make(chan struct{})
	var releaseOnce sync.Once
	free := func() { releaseOnce.Do(func() { close(release) }) }
	t.Cleanup(free)
	var active atomic.Int32
	ss.onRequest = func(ctx context.Context, r review.Request) {
		if r.Paths != nil {
			return
		}
		if n := active.Add(1); n > 1 {
			t.Errorf("%d full runs at once", n)
		}
		defer active.Add(-1)
		fulls <- struct{}{}
		<-release
	}
	write(t, ss, "b.go", "package b\n\n// TODO: b\n")
	ss.start()
	wait := func(ch <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(time.Minute):
			t.Fatalf("no %s", what)
		}
	}
	wait(fulls, "initial review")

	write(t, ss, "a.go", "package a\n\n// TODO: a\n")
	ss.didModify(fromSave, modification{path: "a.go"})
	for seen := map[string]bool{}; !seen["a.go"] || !seen["b.go"]; {
		select {
		case name := <-sc.pubs:
			seen[name] = true
		case <-time.After(time.Minute):
			t.Fatal("the save was not published while the initial review ran")
		}
	}
	pubs := rc.published("a.go")
	if len(pubs) != 1 || len(pubs[0].Diagnostics) != 1 {
		t.Fatalf("publications of a.go = %+v, want one with the TODO", pubs)
	}
	if !slices.ContainsFunc(rc.published("b.go"), func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 }) {
		t.Errorf("b.go, changed before the start, was not published with its TODO: %+v", rc.published("b.go"))
	}
	// The full review, preempted, runs again.
	free()
	wait(fulls, "full review after the save")
}
