// rs/cors options that reflect every origin with credentials, then near
// misses: an allow-list, credentials off, an AllowOriginFunc that checks.
package api

import (
	"net/http"

	"github.com/rs/cors"
)

func Server(h http.Handler) http.Handler {
	c := cors.New(cors.Options{
		AllowedOrigins:   []string{"*"}, // want "cors options with AllowedOrigins containing \"\*\" and AllowCredentials: true answer every request with its own Origin"
		AllowCredentials: true,
	})
	open := cors.New(cors.Options{
		AllowOriginFunc:  func(origin string) bool { return true }, // want "AllowOriginFunc that always returns true"
		AllowCredentials: true,
	})
	// Near misses.
	listed := cors.New(cors.Options{
		AllowedOrigins:   []string{"https://app.example.com"},
		AllowCredentials: true,
	})
	public := cors.New(cors.Options{AllowedOrigins: []string{"*"}})
	checked := cors.New(cors.Options{
		AllowOriginFunc:  func(origin string) bool { return allowed[origin] },
		AllowCredentials: true,
	})
	return c.Handler(open.Handler(listed.Handler(public.Handler(checked.Handler(h)))))
}
