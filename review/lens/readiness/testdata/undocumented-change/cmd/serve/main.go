package main

import (
	"flag"
	"net/http"
	"os"
)

func main() {
	addr := flag.String("addr", ":8080", "listen address") // want "flag -addr"
	token := os.Getenv("SERVE_TOKEN")
	http.HandleFunc("GET /healthz", health)
	// Near misses: comments and strings are not surface.
	// flag.String("old", "", "")
	msg := "os.Getenv(\"NOT_READ\")"
	_, _, _ = addr, token, msg
}

func health(w http.ResponseWriter, r *http.Request) {}
