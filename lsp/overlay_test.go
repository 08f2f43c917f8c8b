package lsp

import (
	"context"
	"slices"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/reviewls/reviewls/review"
)

// nextRequest returns the next request the session gives the engine.
func nextRequest(t *testing.T, reqs <-chan review.Request) review.Request {
	t.Helper()
	select {
	case r := <-reqs:
		return r
	case <-time.After(time.Minute):
		t.Fatal("no review request")
		return review.Request{}
	}
}

// TestCleanBufferIsNoOverlay checks that only buffers that differ from
// the disk reach the engine as overlays: a file opened unchanged, or saved,
// is read from disk (an overlay makes the type-aware analysis type-check
// every dependency from source).
func TestCleanBufferIsNoOverlay(t *testing.T) {
	ss, _ := testSession(t, Options{ArtifactDelay: time.Hour}, map[string]string{"a.go": "package a\n"})
	reqs := make(chan review.Request, 16)
	ss.onRequest = func(_ context.Context, r review.Request) { reqs <- r }
	ss.start()
	nextRequest(t, reqs)
	ctx := context.Background()
	u := protocol.DocumentURI(uri.File(ss.absPath("a.go")))

	write(t, ss, "a.go", "package a\n\nfunc A() {}\n")
	if err := ss.srv.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "go", Version: 1, Text: "package a\n\nfunc A() {}\n",
	}}); err != nil {
		t.Fatal(err)
	}
	if r := nextRequest(t, reqs); r.Overlay["a.go"] != nil {
		t.Errorf("a buffer opened as on disk is an overlay: %q", r.Overlay["a.go"])
	}

	edited := "package a\n\nfunc A() { _ = 1 }\n"
	if err := ss.srv.didChange(ctx, &didChangeParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: 2},
		ContentChanges: []contentChange{{Text: edited}},
	}); err != nil {
		t.Fatal(err)
	}
	if r := nextRequest(t, reqs); string(r.Overlay["a.go"]) != edited {
		t.Errorf("the unsaved edit's overlay = %q, want %q", r.Overlay["a.go"], edited)
	}

	write(t, ss, "a.go", edited)
	if err := ss.srv.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		t.Fatal(err)
	}
	if r := nextRequest(t, reqs); r.Overlay["a.go"] != nil {
		t.Errorf("a saved buffer is an overlay: %q", r.Overlay["a.go"])
	}

	// The same size, another content: the hash tells them apart.
	same := "package a\n\nfunc B() { _ = 1 }\n"
	write(t, ss, "a.go", same)
	ss.didModify(fromWatcher, modification{path: "a.go", uri: u})
	if r := nextRequest(t, reqs); string(r.Overlay["a.go"]) != edited {
		t.Errorf("a buffer unlike the disk (same size) has overlay %q, want %q", r.Overlay["a.go"], edited)
	}
}

// TestOverlayComparesOnlyModifiedDocuments checks that a run compares
// again only the documents that may have moved: an open document whose
// file changed without being reported keeps its last verdict (a save of
// another file costs one comparison, not one per open document); it is
// compared again once its path is reported, after an edit, and in a full
// run.
func TestOverlayComparesOnlyModifiedDocuments(t *testing.T) {
	ss, _ := testSession(t, Options{ArtifactDelay: time.Hour}, map[string]string{"a.go": "package a\n", "b.go": "package a\n"})
	srv := ss.srv
	srv.docsMu.Lock()
	for _, rel := range []string{"a.go", "b.go"} {
		u := protocol.DocumentURI(uri.File(ss.absPath(rel)))
		srv.docs[u] = &document{uri: u, version: 1, languageID: "go", text: []byte("package a\n")}
	}
	srv.docsMu.Unlock()
	check := func(what string, full bool, modified []string, want ...string) {
		t.Helper()
		texts, _ := srv.overlays(ss, full, modified)
		if got := keys(texts); !slices.Equal(got, append([]string{}, want...)) {
			t.Errorf("%s: overlays %v, want %v", what, got, want)
		}
	}
	check("opened as on disk", false, nil)
	write(t, ss, "b.go", "package b\n")
	check("b.go changed, unreported; a.go saved", false, []string{"a.go"})
	check("b.go reported", false, []string{"b.go"}, "b.go")
	write(t, ss, "b.go", "package a\n")
	check("b.go back as the buffer, unreported", false, nil, "b.go")
	check("a full run", true, nil)

	write(t, ss, "a.go", "package c\n")
	srv.docsMu.Lock()
	srv.docs[protocol.DocumentURI(uri.File(ss.absPath("a.go")))].setText([]byte("package c\n"))
	srv.docsMu.Unlock()
	check("a.go edited to what the disk has", false, nil)
}

func keys(m map[string][]byte) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
