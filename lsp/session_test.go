package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// recordingClient is a protocol.Client that records publications and
// messages, for tests that drive a session directly.
type recordingClient struct {
	protocol.Client // unimplemented methods panic: the test did not expect them

	mu       sync.Mutex
	pubs     map[string][]protocol.PublishDiagnosticsParams
	messages []string
}

func (c *recordingClient) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pubs == nil {
		c.pubs = map[string][]protocol.PublishDiagnosticsParams{}
	}
	name := filepath.Base(uri.URI(p.URI).Filename())
	c.pubs[name] = append(c.pubs[name], *p)
	return nil
}

func (c *recordingClient) ShowMessage(_ context.Context, p *protocol.ShowMessageParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.messages = append(c.messages, p.Message)
	return nil
}

func (c *recordingClient) LogMessage(context.Context, *protocol.LogMessageParams) error { return nil }

func (c *recordingClient) published(name string) []protocol.PublishDiagnosticsParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]protocol.PublishDiagnosticsParams(nil), c.pubs[name]...)
}

// testSession opens a session on a new repository holding files, with a
// recording client and no file watcher.
func testSession(t *testing.T, opts Options, files map[string]string) (*session, *recordingClient) {
	t.Helper()
	ar := &txtar.Archive{}
	for p, c := range files {
		ar.Files = append(ar.Files, txtar.File{Name: "base/" + p, Data: []byte(c)})
	}
	dir := reviewtest.RepoFromArchive(t, ar).Dir
	opts.NoWatch = true
	srv := newServer(opts.withDefaults())
	rc := &recordingClient{}
	srv.client = rc
	srv.state = stateInitialized
	ss, err := srv.newSession(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv.setSessionsLocked([]*session{ss})
	t.Cleanup(srv.stopAll)
	return ss, rc
}

func write(t *testing.T, ss *session, rel, content string) {
	t.Helper()
	if err := os.WriteFile(ss.absPath(rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestScheduleDebounce checks the quiet window in fake time: a burst of
// saves 50ms apart costs one review, which starts 200ms after the last.
func TestScheduleDebounce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ss, rc := testSession(t, Options{DiagnosticsDelay: 200 * time.Millisecond, ArtifactDelay: time.Hour}, map[string]string{"a.go": "package a\n"})
		ss.start()
		time.Sleep(time.Second)
		synctest.Wait()
		write(t, ss, "a.go", "package a\n\n// TODO: later\n")
		for range 5 {
			ss.didModify(fromSave, modification{path: "a.go"})
			time.Sleep(50 * time.Millisecond)
		}
		// The last save was 50ms ago: 149ms more and nothing is published.
		time.Sleep(149 * time.Millisecond)
		synctest.Wait()
		if n := len(rc.published("a.go")); n != 0 {
			t.Fatalf("%d publications inside the quiet window, want 0", n)
		}
		time.Sleep(2 * time.Millisecond)
		synctest.Wait()
		pubs := rc.published("a.go")
		if len(pubs) != 1 || len(pubs[0].Diagnostics) != 1 {
			t.Fatalf("publications after the window = %+v, want one with the TODO", pubs)
		}
	})
}

// TestArtifactsRateLimited checks that reviews in quick succession write
// the artifact folder once, after the last one settled.
func TestArtifactsRateLimited(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ss, _ := testSession(t, Options{DiagnosticsDelay: 10 * time.Millisecond, ArtifactDelay: time.Second}, map[string]string{"a.go": "package a\n"})
		ss.start()
		for i := range 5 {
			write(t, ss, "a.go", "package a\n\n// TODO: "+strings.Repeat("x", i+1)+"\n")
			ss.didModify(fromSave, modification{path: "a.go"})
			time.Sleep(300 * time.Millisecond) // typing pace: each review completes
			synctest.Wait()
		}
		ss.artifacts.mu.Lock()
		writes := ss.artifacts.writes
		ss.artifacts.mu.Unlock()
		if writes != 0 {
			t.Fatalf("%d writes while the review kept changing, want 0", writes)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		ss.artifacts.mu.Lock()
		writes = ss.artifacts.writes
		ss.artifacts.mu.Unlock()
		if writes != 1 {
			t.Fatalf("%d writes after the review settled, want 1", writes)
		}
		data, err := os.ReadFile(filepath.Join(ss.root, artifacts.ReviewsDir, "main", artifacts.FileMetadata))
		if err != nil || !strings.Contains(string(data), `"low": 1`) {
			t.Fatalf("metadata.json: %v\n%s", err, data)
		}
	})
}

// reviewedSession returns a session whose one change has been reviewed
// and its artifact folder written.
func reviewedSession(t *testing.T) (*session, *review.Result) {
	t.Helper()
	ss, _ := testSession(t, Options{ArtifactDelay: time.Hour}, map[string]string{"a.go": "package a\n"})
	write(t, ss, "a.go", "package a\n\n// TODO: later\n")
	res, err := ss.reviewNow(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ss.artifacts.flush()
	return ss, res
}

// TestArtifactsPickedUp checks that a review folder written by another
// process (the CLI) is read, and the server's own writes are not.
func TestArtifactsPickedUp(t *testing.T) {
	ss, res := reviewedSession(t)
	meta := filepath.Join(ss.artifactFolder(res.ChangeSet.Target), artifacts.FileMetadata)
	ss.artifacts.changedOnDisk(meta)
	if ext := ss.artifacts.lastExternal(); ext != nil {
		t.Fatalf("the server's own write was taken for an external one: %+v", ext.Metadata)
	}
	// Another process reviews in workflow mode and writes the folder.
	other := *res
	other.Mode = review.ModeWorkflow
	other.Finished = other.Finished.Add(time.Minute)
	if _, err := artifacts.Write(ss.root, &other, artifacts.Options{}); err != nil {
		t.Fatal(err)
	}
	ss.artifacts.changedOnDisk(meta)
	ext := ss.artifacts.lastExternal()
	if ext == nil || ext.Metadata.Artifacts != nil || ext.Metadata.FindingsCount.Low != 1 {
		t.Fatalf("external folder = %+v, want the workflow review", ext)
	}
}

// TestArtifactsPickedUpOwnBranchOnly checks that a folder written for
// another branch is not taken for the session's review.
func TestArtifactsPickedUpOwnBranchOnly(t *testing.T) {
	ss, res := reviewedSession(t)
	other := *res
	cs := &review.ChangeSet{Root: res.ChangeSet.Root, Target: res.ChangeSet.Target, Files: res.ChangeSet.Files}
	cs.Target.Branch, cs.Target.HeadRef = "feature/x", "refs/heads/feature/x"
	other.ChangeSet = cs
	w, err := artifacts.Write(ss.root, &other, artifacts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ss.artifacts.changedOnDisk(filepath.Join(w.Dir, artifacts.FileMetadata))
	if ext := ss.artifacts.lastExternal(); ext != nil {
		t.Fatalf("another branch's folder was picked up: %s", ext.Path)
	}
}

// TestPollingFallback checks that, when the watch limit is hit, the user is
// told once and changes made outside the editor are still picked up.
func TestPollingFallback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ss, rc := testSession(t, Options{DiagnosticsDelay: 10 * time.Millisecond, PollInterval: time.Second, ArtifactDelay: time.Hour}, map[string]string{"a.go": "package a\n"})
		ss.start()
		ss.onLimit(syscall.ENOSPC)
		ss.onLimit(syscall.ENOSPC) // a second report starts no second poller
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		write(t, ss, "a.go", "package a\n\n// TODO: later\n")
		time.Sleep(1100 * time.Millisecond)
		synctest.Wait()
		if pubs := rc.published("a.go"); len(pubs) != 1 || len(pubs[0].Diagnostics) != 1 {
			t.Fatalf("publications = %+v, want the TODO found by polling", pubs)
		}
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if len(rc.messages) != 1 || !strings.Contains(rc.messages[0], "cannot watch every directory") {
			t.Errorf("messages = %q", rc.messages)
		}
	})
}

// TestCancelledCommand checks that a cancelled request stops its review
// and answers RequestCancelled.
func TestCancelledCommand(t *testing.T) {
	ss, rc := testSession(t, Options{ArtifactDelay: time.Hour}, map[string]string{"a.go": "package a\n"})
	write(t, ss, "a.go", "package a\n\n// TODO: later\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ss.srv.ExecuteCommand(ctx, &protocol.ExecuteCommandParams{Command: cmdReview})
	if err == nil {
		t.Fatal("a cancelled review command succeeded")
	}
	if werr := wireError(err); werr != protocol.ErrRequestCancelled {
		t.Errorf("wire error = %v, want RequestCancelled", werr)
	}
	if pubs := rc.published("a.go"); len(pubs) != 0 {
		t.Errorf("the cancelled review published %+v", pubs)
	}
}

// TestAnalysisAfterQuiet checks in fake time that the type-aware analysis
// waits for the session to be quiet: a burst of saves, each reviewed and
// published, starts it once, DefaultAnalysisDelay after the last review.
func TestAnalysisAfterQuiet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// creds/ without a test is a secrets hotspot: the recommended
		// depth is comprehensive, and with the user's budget every review
		// leaves the analysis pending. The budget makes the analysis
		// itself end at once.
		user := t.TempDir()
		if err := os.WriteFile(filepath.Join(user, engine.UserConfigFile), []byte("analysis: {budget: 1ns}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ss, rc := testSession(t, Options{DiagnosticsDelay: 200 * time.Millisecond, ArtifactDelay: time.Hour, UserDir: user}, map[string]string{
			"go.mod": "module example.com/m\n\ngo 1.22\n", "creds/creds.go": showCreds(-1)})
		var started atomic.Int32
		ss.onAnalyze = func(uint64) { started.Add(1) }
		ss.start()
		time.Sleep(5 * time.Second)
		synctest.Wait()
		started.Store(0)
		for i := range 5 {
			write(t, ss, "creds/creds.go", showCreds(i))
			ss.didModify(fromSave, modification{path: "creds/creds.go"})
			time.Sleep(500 * time.Millisecond) // reviewed and published after 200ms
			synctest.Wait()
		}
		if n := len(rc.published("creds.go")); n < 5 {
			t.Fatalf("%d publications, want one per save", n)
		}
		if n := started.Load(); n != 0 {
			t.Fatalf("the analysis started %d times during the burst, want 0", n)
		}
		time.Sleep(DefaultAnalysisDelay)
		synctest.Wait()
		if n := started.Load(); n != 1 {
			t.Fatalf("the analysis started %d times after the burst, want 1", n)
		}
	})
}

// showCreds is a Go file of creds/ whose Show prints a name; unless i <
// 0, it also has a TODO numbered i and a Printf verb of the wrong type.
func showCreds(i int) string {
	todo := ""
	if i >= 0 {
		todo = fmt.Sprintf("\t// TODO: %d\n\tfmt.Printf(\"%%d items\\n\", name)\n", i)
	}
	return "package creds\n\nimport \"fmt\"\n\n// Show prints a name.\nfunc Show(name string) {\n" + todo + "\tfmt.Println(name)\n}\n"
}

// TestCodeLensSettingValues checks the codeLens setting's values: a bad
// one is an error naming the key and the choices.
func TestCodeLensSettingValues(t *testing.T) {
	for _, v := range []string{"", "symbols", "all", "off"} {
		if st, err := parseSettings(map[string]any{"reviewls": map[string]any{"codeLens": v}}); err != nil || st.CodeLens != v {
			t.Errorf("codeLens %q: %+v, %v", v, st, err)
		}
	}
	if _, err := parseSettings(map[string]any{"codeLens": "some"}); err == nil || !strings.Contains(err.Error(), `codeLens: unknown value "some" (want symbols, all or off)`) {
		t.Errorf("codeLens some: error %v", err)
	}
}
