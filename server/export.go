package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// exportSGF serves GET /games/{name}/{matchID}/sgf: the match's record as
// an SGF download (weiqi), anyone with the link may fetch it, as anyone
// may spectate.
func (s *Server) exportSGF(c echo.Context) error {
	name, id := c.Param("name"), c.Param("id")
	out, err := s.cfg.Rooms.Export(c.Request().Context(), name, id, "sgf")
	if err != nil {
		return s.fail(c, err)
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`-`+safeFileID(id)+`.`+out.Ext+`"`)
	return c.Blob(http.StatusOK, out.ContentType, out.Data)
}

// safeFileID keeps the characters of a match ID that are safe in a
// quoted file name (a UUID keeps all of them).
func safeFileID(id string) string {
	b := make([]byte, 0, len(id))
	for i := 0; i < len(id) && len(b) < 64; i++ {
		if c := id[i]; c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			b = append(b, c)
		}
	}
	return string(b)
}

// replay serves GET /games/{name}/{matchID}/replay?from=N&limit=M: a
// match step by step as a spectator saw it (rooms.Manager.ReplayPage), a
// page at a time (from 1 and 200 steps by default, fewer when the steps
// pass rooms.MaxReplayPageBytes; next says where the next page starts);
// anyone with the link may fetch it, as anyone may spectate. Every page
// has an ETag, and If-None-Match answers 304 without building it; a
// finished match's pages never change, so caches may keep them
// (immutable), while a match in play's are revalidated. With every
// replay slot busy it is 503 with Retry-After.
func (s *Server) replay(c echo.Context) error {
	from, err := intParam(c, "from", 1)
	if err != nil {
		return s.fail(c, err)
	}
	limit, err := intParam(c, "limit", 200)
	if err != nil {
		return s.fail(c, err)
	}
	page, err := s.cfg.Rooms.ReplayPage(c.Request().Context(), c.Param("name"), c.Param("id"), from, limit,
		etags(c.Request().Header.Get("If-None-Match")))
	if err != nil {
		return s.fail(c, err)
	}
	h := c.Response().Header()
	h.Set("ETag", page.ETag)
	if page.Final {
		h.Set("Cache-Control", "public, max-age="+strconv.Itoa(replayMaxAge)+", immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if page.NotModified {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, page.Body)
}

// replayMaxAge is how long (seconds) caches may keep a finished match's
// replay page: a day, as long as the store keeps the match after its last
// change (rooms.DefaultTTL).
const replayMaxAge = 86400

// etags splits an If-None-Match header into its entity tags, weak ones
// (W/"…") compared as strong, as RFC 9110 has If-None-Match do.
func etags(header string) []string {
	var out []string
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag != "" {
			out = append(out, tag)
		}
	}
	return out
}

// intParam reads a whole-number query parameter, def when absent.
func intParam(c echo.Context, name string, def int64) (int64, error) {
	v := c.QueryParam(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, badRequest("%s must be a whole number, not %q", name, v)
	}
	return n, nil
}
