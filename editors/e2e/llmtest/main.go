// Command llmtest serves review/llm/llmtest's OpenAI-compatible test
// server on loopback for the editor end-to-end tests, which need a model
// server process beside the editor. The e2e scripts build it from this
// module:
//
//	llmtest -findings FILE -url FILE -events FILE [-hang-on TEXT] [-delay D] [-context N]
//
// Every chat request is answered with the candidates of -findings (a JSON
// array of llmtest.Finding), after -delay (as a model thinking; the
// benchmarks use it), except one whose body holds -hang-on: that one
// hangs until the client gives up or cancels it. The base URL (for a
// model endpoint setting) is written to -url once the server listens, and
// each request's events are appended to -events, one line each: "received
// N", "hang N", "answered N" or "cancelled N" (the client went away
// before the answer). It serves until it is interrupted or terminated.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/reviewls/reviewls/review/llm/llmtest"
)

func main() {
	log.SetFlags(0)
	findings := flag.String("findings", "", "the candidates every answer holds: a JSON array of llmtest.Finding")
	urlFile := flag.String("url", "", "write the server's base URL to this file")
	events := flag.String("events", "", "append each request's events to this file")
	hangOn := flag.String("hang-on", "", "hang every request whose body holds this text")
	ctxSize := flag.Int("context", 8192, "the context size the server reports (llama.cpp's /props)")
	delay := flag.Duration("delay", 0, "answer after this long, unless the client gives up first")
	flag.Parse()
	if *findings == "" || *urlFile == "" || *events == "" {
		log.Fatal("llmtest: -findings, -url and -events are required")
	}
	var fs []llmtest.Finding
	data, err := os.ReadFile(*findings)
	if err == nil {
		err = json.Unmarshal(data, &fs)
	}
	if err != nil {
		log.Fatalf("llmtest: read findings: %v", err)
	}
	out, err := os.OpenFile(*events, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		log.Fatalf("llmtest: %v", err)
	}
	defer out.Close()
	var mu sync.Mutex
	record := func(n int, event string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, "%s %d\n", event, n)
	}
	answer := llmtest.Answer(fs...)
	answer.Delay = *delay
	s := llmtest.Start(llmtest.Config{Flavor: llmtest.LlamaCpp, Context: *ctxSize, Notify: record,
		Handler: func(c *llmtest.Chat) llmtest.Reply {
			for _, m := range c.Messages {
				if *hangOn != "" && strings.Contains(m.Content, *hangOn) {
					record(c.N, "hang")
					return llmtest.Reply{Hang: true}
				}
			}
			return answer
		}})
	defer s.Close()
	if err := os.WriteFile(*urlFile, []byte(s.URL+"\n"), 0o644); err != nil {
		log.Fatalf("llmtest: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
}
