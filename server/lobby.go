package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// bind decodes a JSON body into v; an empty body decodes as {}.
func bind(c echo.Context, v any) error {
	b, err := readAll(c.Request().Body)
	if err != nil {
		return err
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		b = []byte("{}")
	}
	if err := json.Unmarshal(b, v); err != nil {
		return badRequest("body is not valid JSON for this request: %v", err)
	}
	return nil
}

func (s *Server) listGames(c echo.Context) error {
	return c.JSON(http.StatusOK, s.cfg.Rooms.Games().Names())
}

func (s *Server) catalog(c echo.Context) error {
	reg := s.cfg.Rooms.Games()
	out := []map[string]any{}
	for _, name := range reg.Names() {
		g, _ := reg.Get(name)
		info := g.Info()
		moves := map[string]games.MoveSpec{}
		for _, m := range info.Moves {
			moves[m.Name] = m
		}
		opts := info.SetupOptions
		if opts == nil {
			opts = map[string]games.SetupOption{}
		}
		out = append(out, map[string]any{
			"name": info.Name, "title": info.Title, "minPlayers": info.MinPlayers,
			"maxPlayers": info.MaxPlayers, "setupOptions": opts, "moves": moves, "bots": s.cfg.Rooms.BotLevels(info),
		})
		if s.cfg.Own != nil && s.cfg.Own.Plays(info.Name) {
			out[len(out)-1]["ownLLM"] = true
		}
	}
	return c.JSON(http.StatusOK, out)
}

func (s *Server) listMatches(c echo.Context) error {
	var f rooms.ListFilter
	q := c.QueryParams()
	if v := q.Get("isGameover"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return s.fail(c, badRequest("isGameover must be true or false"))
		}
		f.IsGameover = &b
	}
	for key, dst := range map[string]**int64{"updatedBefore": &f.UpdatedBefore, "updatedAfter": &f.UpdatedAfter} {
		if v := q.Get(key); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return s.fail(c, badRequest("%s must be Unix milliseconds", key))
			}
			*dst = &n
		}
	}
	ms, err := s.cfg.Rooms.List(c.Request().Context(), c.Param("name"), f)
	if err != nil {
		return s.fail(c, err)
	}
	return c.JSON(http.StatusOK, protocol.MatchList{Matches: ms})
}

func (s *Server) getMatch(c echo.Context) error {
	m, err := s.cfg.Rooms.Get(c.Request().Context(), c.Param("name"), c.Param("id"))
	if err != nil {
		return s.fail(c, err)
	}
	return c.JSON(http.StatusOK, m)
}

func (s *Server) create(c echo.Context) error {
	var req protocol.CreateRequest
	if err := bind(c, &req); err != nil {
		return s.fail(c, err)
	}
	p := rooms.CreateParams{NumPlayers: req.NumPlayers, SetupData: req.SetupData, Unlisted: req.Unlisted, Bots: req.Bots, Clock: req.Clock}
	var err error
	if p.Own, err = s.ownEndpoint(c, req.LLM); err != nil {
		return s.fail(c, err)
	}
	if p.Grace, err = durationParam("graceSeconds", req.GraceSeconds, time.Second, rooms.MaxGrace); err != nil {
		return s.fail(c, err)
	}
	if p.BotDelay, err = durationParam("botDelayMs", req.BotDelayMs, time.Millisecond, rooms.MaxBotDelay); err != nil {
		return s.fail(c, err)
	}
	id, err := s.cfg.Rooms.Create(c.Request().Context(), c.Param("name"), p)
	if err != nil {
		return s.fail(c, err)
	}
	return c.JSON(http.StatusOK, protocol.CreateResponse{MatchID: id})
}

// durationParam turns a request's count of unit into a duration, nil when
// absent. The range (0 to most) is checked before multiplying, so a huge
// count cannot wrap around into a small duration.
func durationParam(field string, v *int, unit, most time.Duration) (*time.Duration, error) {
	if v == nil {
		return nil, nil
	}
	if *v < 0 || int64(*v) > int64(most/unit) {
		return nil, badRequest("%s must be between 0 and %d", field, most/unit)
	}
	d := time.Duration(*v) * unit
	return &d, nil
}

func (s *Server) join(c echo.Context) error {
	var req protocol.JoinRequest
	if err := bind(c, &req); err != nil {
		return s.fail(c, err)
	}
	id, creds, err := s.cfg.Rooms.Join(c.Request().Context(), c.Param("name"), c.Param("id"),
		rooms.JoinParams{Name: req.PlayerName, PlayerID: req.PlayerID, Data: req.Data})
	if err != nil {
		return s.fail(c, err)
	}
	return c.JSON(http.StatusOK, protocol.JoinResponse{PlayerID: id, PlayerCredentials: creds})
}

func (s *Server) update(c echo.Context) error {
	var req protocol.UpdateRequest
	if err := bind(c, &req); err != nil {
		return s.fail(c, err)
	}
	err := s.cfg.Rooms.Update(c.Request().Context(), c.Param("name"), c.Param("id"),
		rooms.UpdateParams{PlayerID: req.PlayerID, Credentials: req.Credentials, NewName: req.NewName, Data: req.Data})
	if err != nil {
		return s.fail(c, err)
	}
	return c.JSON(http.StatusOK, struct{}{})
}

func (s *Server) leave(c echo.Context) error {
	var req protocol.LeaveRequest
	if err := bind(c, &req); err != nil {
		return s.fail(c, err)
	}
	if err := s.cfg.Rooms.Leave(c.Request().Context(), c.Param("name"), c.Param("id"), req.PlayerID, req.Credentials); err != nil {
		return s.fail(c, err)
	}
	return c.JSON(http.StatusOK, struct{}{})
}

func (s *Server) playAgain(c echo.Context) error {
	var req protocol.PlayAgainRequest
	if err := bind(c, &req); err != nil {
		return s.fail(c, err)
	}
	next, err := s.cfg.Rooms.PlayAgain(c.Request().Context(), c.Param("name"), c.Param("id"),
		rooms.PlayAgainParams{PlayerID: req.PlayerID, Credentials: req.Credentials, NumPlayers: req.NumPlayers, SetupData: req.SetupData})
	if err != nil {
		return s.fail(c, err)
	}
	return c.JSON(http.StatusOK, protocol.PlayAgainResponse{NextMatchID: next})
}

func (s *Server) addBot(c echo.Context) error {
	var req protocol.BotRequest
	if err := bind(c, &req); err != nil {
		return s.fail(c, err)
	}
	err := s.cfg.Rooms.AddBot(c.Request().Context(), c.Param("name"), c.Param("id"), rooms.AddBotParams{PlayerID: req.PlayerID, Credentials: req.Credentials, Seat: req.Seat, Level: req.Level})
	if err != nil {
		return s.fail(c, err)
	}
	return c.JSON(http.StatusOK, struct{}{})
}
