package server

import (
	"net/http"

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
