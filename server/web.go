package server

import (
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"
)

// webRoutes serves the web client: index.html for the lobby (/) and for
// invite links (/m/{game}/{matchID}), and its files under /assets/.
func (s *Server) webRoutes() {
	assets := s.cfg.Assets
	index := func(c echo.Context) error {
		b, err := fs.ReadFile(assets, "index.html")
		if err != nil {
			return s.fail(c, err)
		}
		c.Response().Header().Set("Cache-Control", "no-cache")
		return c.HTMLBlob(http.StatusOK, b)
	}
	s.echo.GET("/", index)
	s.echo.GET("/m/:game/:id", index)
	files := http.StripPrefix("/assets/", http.FileServer(http.FS(assets)))
	s.echo.GET("/assets/*", echo.WrapHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})))
}
