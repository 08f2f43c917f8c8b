// Real-world shapes of CORS that lets any site make credentialed requests
// (the request's Origin echoed with credentials, a wildcard with
// credentials), then near misses: an origin checked against an allow-list,
// a fixed origin, no credentials.
package api

import (
	"net/http"
	"slices"
	"strings"
)

var allowed = map[string]bool{"https://app.example.com": true}

var trusted = []string{"https://app.example.com"}

func WithCORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" {
			w.Header().Set("Access-Control-Allow-Origin", origin) // want "set to the request's own Origin \(origin\).*any web site"
			w.Header().Set("Access-Control-Allow-Credentials", "true")
		}
		next.ServeHTTP(w, r)
	})
}

func Preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", r.Header.Get("Origin")) // want "CORS allows any origin with credentials"
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Allow-Methods", "GET, POST")
}

func Wildcard(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*") // want "browsers refuse credentialed responses with a wildcard origin"
	w.Header().Set("Access-Control-Allow-Credentials", "true")
}

// Near misses: none of these is reported.

func Checked(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if allowed[origin] {
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Set("Access-Control-Allow-Credentials", "true")
	}
}

func CheckedList(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if !slices.Contains(trusted, origin) {
		return
	}
	w.Header().Set("Access-Control-Allow-Origin", origin)
	w.Header().Set("Access-Control-Allow-Credentials", "true")
}

func CheckedSuffix(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); strings.HasSuffix(origin, ".example.com") {
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Set("Access-Control-Allow-Credentials", "true")
	}
}

func Fixed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "https://app.example.com")
	w.Header().Set("Access-Control-Allow-Credentials", "true")
}

func Public(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
	w.Header().Set("Access-Control-Allow-Credentials", "false")
}
