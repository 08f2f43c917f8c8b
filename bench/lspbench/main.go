// Command lspbench measures the reviewls language server the way an editor
// drives it: it starts `reviewls serve` on a generated repository, times
// the initial full review, then saves 200 distinct files one after another
// (each a small edit on disk followed by textDocument/didSave) and times
// each save to the publishDiagnostics of that file, minus the configured
// quiet window. It prints p50/p95 latency, the initial review time and the
// server's peak RSS for each repository size as a markdown table.
//
// Usage (bench/lsp.sh builds reviewls and runs this):
//
//	go run ./bench/lspbench -reviewls PATH [-saves 200] [-sizes 40000,1000]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/reviewls/reviewls/bench/internal/genrepo"
)

var cpuprofile string

// quiet is the server's quiet window during the benchmark; it is
// subtracted from every latency.
const quiet = time.Millisecond

func main() {
	bin := flag.String("reviewls", "reviewls", "path of the reviewls binary")
	saves := flag.Int("saves", 200, "number of save events (distinct files)")
	sizes := flag.String("sizes", "40000,1000", "repository sizes (tracked files) to measure")
	flag.StringVar(&cpuprofile, "cpuprofile", "", "ask the server for a CPU profile (written to this file + the size)")
	flag.Parse()
	log.SetFlags(0)

	fmt.Printf("| repository | initial full review | save → diagnostics p50 | p95 | max | peak RSS |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			log.Fatalf("-sizes: %v", err)
		}
		r := measure(*bin, n, *saves)
		fmt.Printf("| %d files, %d dirs | %.0f ms | %.2f ms | %.2f ms | %.2f ms | %d MB |\n",
			n, dirsFor(n), ms(r.initial), ms(r.p50), ms(r.p95), ms(r.max), r.rssKiB/1024)
	}
	fmt.Printf("\n%d saves of distinct files per repository; quiet window %s subtracted.\n", *saves, quiet)
}

// dirsFor keeps the generated trees at about 13 files per directory, the
// shape of the 40,000-file / 3,000-directory repository.
func dirsFor(files int) int { return max(1, files*3/40) }

type result struct {
	initial, p50, p95, max time.Duration
	rssKiB                 int
}

func measure(bin string, files, saves int) result {
	root, err := os.MkdirTemp("", "lspbench-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	start := time.Now()
	repo, err := genrepo.Generate(root, files, dirsFor(files), files*3/8)
	if err != nil {
		log.Fatal(err)
	}
	if err := repo.Change(20); err != nil {
		log.Fatal(err)
	}
	log.Printf("generated %d files in %s", files, time.Since(start).Round(time.Millisecond))

	args := []string{"serve", "--quiet", quiet.String(), "--log-level", "warn"}
	if cpuprofile != "" {
		args = append(args, "--cpuprofile", fmt.Sprintf("%s.%d", cpuprofile, files))
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	cl := &client{published: map[protocol.DocumentURI]chan struct{}{}, progressEnd: make(chan struct{}, 16)}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc{stdout, stdin}))
	conn.Go(ctx, protocol.ClientHandler(cl, jsonrpc2.MethodNotFoundHandler))
	server := protocol.ServerDispatcher(conn, zap.NewNop())

	_, err = server.Initialize(ctx, &protocol.InitializeParams{
		ProcessID:    int32(os.Getpid()),
		RootURI:      protocol.DocumentURI(uri.File(root)),
		Capabilities: protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true}},
	})
	if err != nil {
		log.Fatalf("initialize: %v", err)
	}
	t0 := time.Now()
	if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		log.Fatal(err)
	}
	waitFor(cl.progressEnd, "the initial review")
	initial := time.Since(t0)

	var lat []time.Duration
	step := max(1, len(repo.Tracked)/saves)
	for i := 0; i < saves; i++ {
		rel := repo.Tracked[(i*step+7)%len(repo.Tracked)]
		u := protocol.DocumentURI(uri.File(filepath.Join(root, rel)))
		done := cl.expect(u)
		if err := repo.Append(rel, fmt.Sprintf("\n// TODO: bench edit %d\n", i)); err != nil {
			log.Fatal(err)
		}
		sent := time.Now()
		if err := server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
			log.Fatal(err)
		}
		waitFor(done, "diagnostics of "+rel)
		lat = append(lat, max(0, time.Since(sent)-quiet))
	}
	rss := peakRSS(cmd.Process.Pid)
	if err := server.Shutdown(ctx); err != nil {
		log.Fatal(err)
	}
	server.Exit(ctx)
	if err := cmd.Wait(); err != nil {
		log.Fatalf("server exit: %v", err)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return result{
		initial: initial,
		p50:     lat[len(lat)/2],
		p95:     lat[len(lat)*95/100],
		max:     lat[len(lat)-1],
		rssKiB:  rss,
	}
}

func waitFor(ch <-chan struct{}, what string) {
	select {
	case <-ch:
	case <-time.After(2 * time.Minute):
		log.Fatalf("timed out waiting for %s", what)
	}
}

// peakRSS reads the process's high-water resident set size in KiB.
func peakRSS(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return 0
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

type rwc struct {
	io.Reader
	io.WriteCloser
}

// client records publications and progress.
type client struct {
	protocol.Client
	mu          sync.Mutex
	published   map[protocol.DocumentURI]chan struct{}
	progressEnd chan struct{}
}

// expect returns a channel closed by the next publication for u.
func (c *client) expect(u protocol.DocumentURI) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan struct{})
	c.published[u] = ch
	return ch
}

func (c *client) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.published[p.URI]; ok {
		close(ch)
		delete(c.published, p.URI)
	}
	return nil
}

func (c *client) Progress(_ context.Context, p *protocol.ProgressParams) error {
	if m, ok := p.Value.(map[string]any); ok && m["kind"] == "end" {
		select {
		case c.progressEnd <- struct{}{}:
		default:
		}
	}
	return nil
}

func (c *client) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return nil
}
func (c *client) LogMessage(context.Context, *protocol.LogMessageParams) error   { return nil }
func (c *client) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }
func (c *client) RegisterCapability(context.Context, *protocol.RegistrationParams) error {
	return nil
}
