package server

import (
	"io/fs"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// apiPrefixes are the paths of the API and the operator's endpoints: an
// unknown path under one of them keeps the JSON error of docs/protocol.md.
var apiPrefixes = []string{"/games", "/catalog", "/healthz", "/metrics", "/debug", "/assets"}

// isAPIPath says whether path is under one of apiPrefixes.
func isAPIPath(path string) bool {
	for _, p := range apiPrefixes {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// webRoutes serves the web client: index.html for the lobby (/), for
// invite links (/m/{game}/{matchID}) and replays (/m/{game}/{matchID}/replay), and its files under /assets/. Any
// other GET outside the API gets index.html with status 404, so a person
// who mistyped a link sees the app's own not-found page, not JSON.
func (s *Server) webRoutes() {
	assets := s.cfg.Assets
	page := func(status int) echo.HandlerFunc {
		return func(c echo.Context) error {
			b, err := fs.ReadFile(assets, "index.html")
			if err != nil {
				return s.fail(c, err)
			}
			c.Response().Header().Set("Cache-Control", "no-cache")
			return c.HTMLBlob(status, b)
		}
	}
	index := page(http.StatusOK)
	notFound := page(http.StatusNotFound)
	s.echo.GET("/", index)
	s.echo.GET("/m/:game/:id", index)
	s.echo.GET("/m/:game/:id/replay", index)
	s.echo.RouteNotFound("/*", func(c echo.Context) error {
		r := c.Request()
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || isAPIPath(r.URL.Path) {
			return echo.ErrNotFound
		}
		return notFound(c)
	})
	files := http.StripPrefix("/assets/", http.FileServer(http.FS(assets)))
	s.echo.GET("/assets/*", echo.WrapHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})))
}
