package server

import (
	"net/http"
	"strconv"

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
// match step by step as a spectator saw it (rooms.Manager.Replay), a page
// at a time (from 1 and 200 steps by default); anyone with the link may
// fetch it, as anyone may spectate.
func (s *Server) replay(c echo.Context) error {
	from, err := intParam(c, "from", 1)
	if err != nil {
		return s.fail(c, err)
	}
	limit, err := intParam(c, "limit", 200)
	if err != nil {
		return s.fail(c, err)
	}
	out, err := s.cfg.Rooms.Replay(c.Request().Context(), c.Param("name"), c.Param("id"), from, limit)
	if err != nil {
		return s.fail(c, err)
	}
	return c.JSON(http.StatusOK, out)
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
