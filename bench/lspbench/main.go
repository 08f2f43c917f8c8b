// Command lspbench measures the reviewls language server the way an editor
// drives it: it starts `reviewls serve` on a generated repository (or on a
// throwaway clone of a real one, -repo), times the initial review, saves
// one file at once (before the initial review can have ended) and records
// when that save is answered, then saves 200 distinct files one after
// another (each a small edit on disk followed by textDocument/didSave;
// with -open each file is first opened with textDocument/didOpen, as an
// editor does, and the save carries the text) and times each save to the
// publishDiagnostics of that file, minus the configured quiet window. It
// prints the initial review time, the first save's latency, p50/p95/max
// latency and the server's peak RSS as a markdown table.
//
// With -model URL the server has a model reviewer on that endpoint (the
// user configuration file of a private folder names it; bench/model.sh
// runs editors/e2e/llmtest there, answering after a fixed delay): every
// save asks the model, and each next save waits until the model is being
// asked ($/progress "Asking ..."), so it lands while a request is in
// flight; the latency measured is still that of the rule diagnostics,
// which must not wait for the model. The folder is private either way,
// so the user's own configuration never applies.
//
// Usage (bench/lsp.sh, bench/real.sh and bench/model.sh build reviewls
// and run this):
//
//	go run ./bench/lspbench -reviewls PATH [-saves 200] [-sizes 40000,1000] [-repo DIR] [-open] [-model URL]
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
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/reviewls/reviewls/bench/internal/genrepo"
	"github.com/reviewls/reviewls/bench/internal/stats"
)

var cpuprofile string

// serverLog, when set, receives the server's debug log (one file per
// repository: this path + the label), for the per-phase times of each run.
var serverLog string

// modelURL, when set, is the model endpoint the server is given.
var modelURL string

// quiet is the server's quiet window during the benchmark; it is
// subtracted from every latency.
const quiet = time.Millisecond

// patience bounds every wait for the server; the initial review of a
// large repository has been seen to take over a minute.
const patience = 5 * time.Minute

// saveTimeout is how long a save (after the first) may go unanswered
// before it is counted as unanswered and left out of the latencies.
const saveTimeout = 30 * time.Second

func main() {
	bin := flag.String("reviewls", "reviewls", "path of the reviewls binary")
	saves := flag.Int("saves", 200, "number of save events (distinct files)")
	sizes := flag.String("sizes", "40000,1000", "generated repository sizes (tracked files) to measure")
	src := flag.String("repo", "", "measure a throwaway clone of this repository (work tree or bare) instead of generated ones")
	open := flag.Bool("open", false, "open each file (didOpen) before its first save, as an editor does; the save carries the text")
	flag.StringVar(&cpuprofile, "cpuprofile", "", "ask the server for a CPU profile (written to this file + the size)")
	flag.StringVar(&serverLog, "log", "", "write the server's debug log to this file + the size")
	flag.StringVar(&modelURL, "model", "", "give the server a model reviewer at this OpenAI-compatible `URL`")
	flag.Parse()
	log.SetFlags(0)

	fmt.Printf("| repository | initial review | first save, sent at once | answered before the initial review ended | save → diagnostics p50 | p95 | max | unanswered saves | peak RSS |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	print := func(name string, r result) {
		fmt.Printf("| %s | %.0f ms | %.0f ms | %s | %.2f ms | %.2f ms | %.2f ms | %d | %d MB |\n",
			name, ms(r.initial), ms(r.first), yesNo(r.firstBeforeEnd), ms(r.p50), ms(r.p95), ms(r.max), r.unanswered, r.rssKiB/1024)
		if modelURL != "" {
			fmt.Printf("\nsaves made while a model request was in flight: %d\n", r.inFlight)
		}
	}
	if *src != "" {
		r := measure(*bin, *saves, *open, "real", func(root string) (*genrepo.Repo, error) {
			return genrepo.Clone(*src, filepath.Join(root, "repo"))
		})
		print(filepath.Base(filepath.Clean(*src)), r)
	} else {
		for _, s := range strings.Split(*sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				log.Fatalf("-sizes: %v", err)
			}
			r := measure(*bin, *saves, *open, strconv.Itoa(n), func(root string) (*genrepo.Repo, error) {
				return genrepo.Generate(root, n, dirsFor(n), n*3/8)
			})
			print(fmt.Sprintf("%d files, %d dirs", n, dirsFor(n)), r)
		}
	}
	how := "saves of distinct files"
	if *open {
		how = "saves of distinct files, each opened first (didOpen)"
	}
	fmt.Printf("\n%d %s per repository; quiet window %s subtracted.\n", *saves, how, quiet)
	if modelURL != "" {
		fmt.Printf("A model reviewer at %s; each save after the first was made while a model request was in flight (see the saves in flight).\n", modelURL)
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// dirsFor keeps the generated trees at about 13 files per directory, the
// shape of the 40,000-file / 3,000-directory repository.
func dirsFor(files int) int { return max(1, files*3/40) }

type result struct {
	initial, first, p50, p95, max time.Duration
	firstBeforeEnd                bool // the first save was answered before the initial review's progress ended
	unanswered                    int  // saves without a publication with a diagnostic within saveTimeout
	rssKiB                        int
	inFlight                      int // saves made while a model request was in flight
}

// session is one benchmark run of the server on a repository.
type session struct {
	ctx    context.Context
	root   string
	repo   *genrepo.Repo
	server protocol.Server
	cl     *client
	open   bool
	opened map[protocol.DocumentURI]bool
}

// save edits rel on disk and saves it, and returns when the save was sent
// and a channel closed by the file's next publication with a diagnostic
// (the edit adds a TODO marker, which is one).
func (s *session) save(rel string, i int) (time.Time, <-chan struct{}) {
	u := protocol.DocumentURI(uri.File(filepath.Join(s.root, filepath.FromSlash(rel))))
	if s.open && !s.opened[u] {
		text, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(rel)))
		if err != nil {
			log.Fatal(err)
		}
		err = s.server.DidOpen(s.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: "go", Version: 1, Text: string(text)}})
		if err != nil {
			log.Fatal(err)
		}
		s.opened[u] = true
	}
	done := s.cl.expect(u)
	if err := s.repo.Append(rel, fmt.Sprintf("\n// TODO: bench edit %d\n", i)); err != nil {
		log.Fatal(err)
	}
	params := &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}
	if s.open {
		text, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(rel)))
		if err != nil {
			log.Fatal(err)
		}
		params.Text = string(text)
	}
	sent := time.Now()
	if err := s.server.DidSave(s.ctx, params); err != nil {
		log.Fatal(err)
	}
	return sent, done
}

func measure(bin string, saves int, open bool, label string, setup func(root string) (*genrepo.Repo, error)) result {
	tmp, err := os.MkdirTemp("", "lspbench-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	repo, err := setup(tmp)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := repo.Change(20, 2); err != nil {
		log.Fatal(err)
	}
	root := repo.Root
	log.Printf("prepared %s (%d editable Go files) in %s", root, len(repo.Tracked), time.Since(start).Round(time.Millisecond))

	level := "warn"
	if serverLog != "" {
		level = "debug"
	}
	args := []string{"serve", "--quiet", quiet.String(), "--log-level", level}
	if cpuprofile != "" {
		args = append(args, "--cpuprofile", cpuprofile+"."+label)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+userConfig(tmp))
	if serverLog != "" {
		f, err := os.Create(serverLog + "." + label)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		cmd.Stderr = f
	}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	cl := &client{published: map[protocol.DocumentURI]chan struct{}{}, progressEnd: make(chan struct{}, 16), asking: make(chan struct{}, 1)}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc{stdout, stdin}))
	conn.Go(ctx, protocol.ClientHandler(cl, jsonrpc2.MethodNotFoundHandler))
	server := protocol.ServerDispatcher(conn, zap.NewNop())
	s := &session{ctx: ctx, root: root, repo: repo, server: server, cl: cl, open: open, opened: map[protocol.DocumentURI]bool{}}

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
	// The first save goes out at once, while the initial review runs.
	step := max(1, len(repo.Tracked)/(saves+1))
	pick := func(i int) string { return repo.Tracked[(i*step+7)%len(repo.Tracked)] }
	firstSent, firstDone := s.save(pick(saves), -1)
	var r result
	select {
	case <-firstDone:
		r.first, r.firstBeforeEnd = time.Since(firstSent), true
		waitFor(cl.progressEnd, "the initial review")
		r.initial = time.Since(t0)
	case <-cl.progressEnd:
		r.initial = time.Since(t0)
		waitFor(firstDone, "the first save's diagnostics")
		r.first = time.Since(firstSent)
	case <-time.After(patience):
		log.Fatal("timed out waiting for the initial review and the first save")
	}
	r.first = max(0, r.first-quiet)
	log.Printf("initial review %s; first save answered after %s", r.initial.Round(time.Millisecond), r.first.Round(time.Millisecond))

	var lat []time.Duration
	for i := 0; i < saves; i++ {
		rel := pick(i)
		if modelURL != "" && i > 0 {
			// The last save's model request is in flight when this one
			// lands.
			select {
			case <-cl.asking:
				r.inFlight++
			case <-time.After(saveTimeout):
				log.Printf("the model was not asked within %s of the save", saveTimeout)
			}
		}
		sent, done := s.save(rel, i)
		select {
		case <-done:
			lat = append(lat, max(0, time.Since(sent)-quiet))
		case <-time.After(saveTimeout):
			// Some edits publish nothing new (a TODO in a package doc
			// file, say); count them rather than stop.
			log.Printf("no diagnostics for the save of %s within %s", rel, saveTimeout)
			r.unanswered++
		}
	}
	r.rssKiB = peakRSS(cmd.Process.Pid)
	if err := server.Shutdown(ctx); err != nil {
		log.Fatal(err)
	}
	server.Exit(ctx)
	if err := cmd.Wait(); err != nil {
		log.Fatalf("server exit: %v", err)
	}
	r.p50, r.p95, r.max = stats.Percentile(lat, 50), stats.Percentile(lat, 95), stats.Percentile(lat, 100)
	return r
}

// userConfig returns a private configuration folder under dir, whose
// user configuration file names the model endpoint when there is one.
func userConfig(dir string) string {
	home := filepath.Join(dir, "config")
	if err := os.MkdirAll(filepath.Join(home, "reviewls"), 0o700); err != nil {
		log.Fatal(err)
	}
	if modelURL != "" {
		cfg := fmt.Sprintf("model:\n  endpoint: %s\n  name: bench-model\n  context: 8192\n", modelURL)
		if err := os.WriteFile(filepath.Join(home, "reviewls", "config.yaml"), []byte(cfg), 0o600); err != nil {
			log.Fatal(err)
		}
	}
	return home
}

func waitFor(ch <-chan struct{}, what string) {
	select {
	case <-ch:
	case <-time.After(patience):
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
	// asking is signalled when the server starts asking the model.
	asking chan struct{}
}

// expect returns a channel closed by the next publication for u that has
// a diagnostic.
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
	// A publication without diagnostics answers an open or an older edit,
	// not the save of a TODO marker.
	if ch, ok := c.published[p.URI]; ok && len(p.Diagnostics) > 0 {
		close(ch)
		delete(c.published, p.URI)
	}
	return nil
}

func (c *client) Progress(_ context.Context, p *protocol.ProgressParams) error {
	m, ok := p.Value.(map[string]any)
	switch {
	case !ok:
	case m["kind"] == "begin" && strings.HasPrefix(fmt.Sprint(m["message"]), "Asking "):
		select {
		case c.asking <- struct{}{}:
		default:
		}
	case m["kind"] == "end" && !strings.HasPrefix(fmt.Sprint(m["message"]), "model review"):
		// The end of a review, not of a model's second wave.
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
