// gin-contrib/cors: allowing all origins with credentials sends "*",
// which browsers refuse (Medium); an AllowOriginFunc that always says yes
// reflects every origin (High).
package gin

import (
	"github.com/gin-contrib/cors"
	"github.com/gin-gonic/gin"
)

func Router(r *gin.Engine) {
	cfg := cors.DefaultConfig()
	cfg.AllowAllOrigins = true // want "send Access-Control-Allow-Origin: \* with credentials, which browsers refuse"
	cfg.AllowCredentials = true
	r.Use(cors.New(cfg))
	r.Use(cors.New(cors.Config{
		AllowOriginFunc: func(origin string) bool { // want "answer every request with its own Origin"
			return true
		},
		AllowCredentials: true,
	}))
	// Near miss: no credentials.
	r.Use(cors.New(cors.Config{AllowAllOrigins: true}))
}
