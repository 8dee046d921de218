package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// maxSeatData bounds a seat's free-form data.
const maxSeatData = 4 << 10

// JoinParams is a join request.
type JoinParams struct {
	Name     string
	PlayerID *string // a chosen seat, or nil for the first free one
	Data     json.RawMessage
}

// Join seats a person and returns the player ID and credentials. The
// credentials are returned here and never again.
func (m *Manager) Join(ctx context.Context, gameName, id string, p JoinParams) (playerID, creds string, err error) {
	name, err := validName("playerName", p.Name)
	if err != nil {
		return "", "", err
	}
	if err := checkData(p.Data); err != nil {
		return "", "", err
	}
	creds, hash := newCredentials()
	var seat int
	_, err = m.mutate(ctx, gameName, id, func(rec *Record, _ games.Game) error {
		seat = -1
		if p.PlayerID != nil {
			s, ok := games.ParseSeat(*p.PlayerID, len(rec.Seats))
			if !ok {
				return newError(protocol.CodeNotFound, "no seat %q in this match", *p.PlayerID)
			}
			if rec.Seats[s].Taken() || rec.Seats[s].Left {
				return newError(protocol.CodeConflict, "seat %s is taken", *p.PlayerID)
			}
			seat = s
		} else {
			for i, s := range rec.Seats {
				if !s.Taken() && !s.Left {
					seat = i
					break
				}
			}
			if seat < 0 {
				return newError(protocol.CodeConflict, "no free seat in this match")
			}
		}
		rec.Seats[seat] = Seat{Name: name, CredHash: hash, Data: p.Data, AwaySince: m.now()}
		return nil
	})
	if err != nil {
		return "", "", err
	}
	return games.PlayerID(seat), creds, nil
}

// badName makes a refused newName a bad request: update has no
// boardgame.io status for a missing name to keep.
func badName(err error) error {
	e := AsError(err)
	return newError(protocol.CodeBadRequest, "%s", e.Message)
}

func checkData(d json.RawMessage) error {
	if len(d) > maxSeatData {
		return newError(protocol.CodeBadRequest, "data is larger than %d bytes", maxSeatData)
	}
	if len(d) > 0 && !json.Valid(d) {
		return newError(protocol.CodeBadRequest, "data is not JSON")
	}
	return nil
}

// authSeat checks credentials inside a mutate callback.
func authSeat(rec *Record, playerID, creds string) (int, error) {
	seat, ok := games.ParseSeat(playerID, len(rec.Seats))
	if !ok {
		return 0, newError(protocol.CodeNotFound, "no seat %q in this match", playerID)
	}
	if !checkCredentials(rec.Seats[seat].CredHash, creds) {
		return 0, newError(protocol.CodeForbidden, "wrong credentials for seat %s", playerID)
	}
	return seat, nil
}

// UpdateParams is an update request.
type UpdateParams struct {
	PlayerID, Credentials string
	NewName               *string
	Data                  json.RawMessage
}

// Update renames a seated player or replaces their data.
func (m *Manager) Update(ctx context.Context, gameName, id string, p UpdateParams) error {
	var name string
	if p.NewName != nil {
		n, err := validName("newName", *p.NewName)
		if err != nil {
			return badName(err)
		}
		name = n
	}
	if err := checkData(p.Data); err != nil {
		return err
	}
	_, err := m.mutate(ctx, gameName, id, func(rec *Record, _ games.Game) error {
		seat, err := authSeat(rec, p.PlayerID, p.Credentials)
		if err != nil {
			return err
		}
		if name != "" {
			rec.Seats[seat].Name = name
		}
		if len(p.Data) > 0 {
			rec.Seats[seat].Data = p.Data
		}
		return nil
	})
	return err
}

// Leave frees the seat before the start; after it, a bot takes the seat for
// the rest of the match and the credentials stop working.
func (m *Manager) Leave(ctx context.Context, gameName, id, playerID, creds string) error {
	_, err := m.mutate(ctx, gameName, id, func(rec *Record, g games.Game) error {
		seat, err := authSeat(rec, playerID, creds)
		if err != nil {
			return err
		}
		if !rec.started() {
			rec.Seats[seat] = Seat{}
			return nil
		}
		s := &rec.Seats[seat]
		s.CredHash, s.Left, s.Autoplay = "", true, false
		s.Bot = m.defaultBot(g.Info())
		return nil
	})
	return err
}

// AddBotParams is an addBot request: a seated player's credentials, the
// free seat and the bot level ("" for the game's default).
type AddBotParams struct {
	PlayerID, Credentials string
	Seat                  string
	Level                 string
}

// AddBot fills a free seat with a bot; only a seated player may ask.
func (m *Manager) AddBot(ctx context.Context, gameName, id string, p AddBotParams) error {
	seatID, level := p.Seat, p.Level
	_, err := m.mutate(ctx, gameName, id, func(rec *Record, g games.Game) error {
		if _, err := authSeat(rec, p.PlayerID, p.Credentials); err != nil {
			return err
		}
		seat, ok := games.ParseSeat(seatID, len(rec.Seats))
		if !ok {
			return newError(protocol.CodeNotFound, "no seat %q in this match", seatID)
		}
		if rec.Seats[seat].Taken() {
			return newError(protocol.CodeConflict, "seat %s is taken", seatID)
		}
		if level == "" {
			level = m.defaultBot(g.Info())
		}
		if !m.hasBot(g.Info(), level) {
			return newError(protocol.CodeBadRequest, "%s has no bot level %q", g.Info().Name, level)
		}
		rec.Seats[seat] = Seat{Name: botName(level), Bot: level}
		return nil
	})
	return err
}

// PlayAgainParams is a playAgain request.
type PlayAgainParams struct {
	PlayerID, Credentials string
	NumPlayers            int
	SetupData             json.RawMessage
}

// PlayAgain returns the next match's ID, creating it on the first call;
// every later caller gets the same ID. Bots keep their seats.
//
// The next match is stored before its ID is recorded on this one, so an ID
// handed out always names a match, and a refused call records nothing. Its
// ID is derived from this match's (nextID), so callers racing on the first
// call create the same record once: Create answers the others ErrExists.
func (m *Manager) PlayAgain(ctx context.Context, gameName, id string, p PlayAgainParams) (string, error) {
	rec, g, err := m.load(ctx, gameName, id)
	if err != nil {
		return "", err
	}
	if _, err := authSeat(rec, p.PlayerID, p.Credentials); err != nil {
		return "", err
	}
	if rec.NextMatchID != "" {
		return rec.NextMatchID, nil
	}
	if err := m.createNext(ctx, g, rec, p); err != nil {
		return "", err
	}
	next := nextID(id)
	var recorded string
	_, err = m.mutate(ctx, gameName, id, func(rec *Record, _ games.Game) error {
		if _, err := authSeat(rec, p.PlayerID, p.Credentials); err != nil {
			return err
		}
		if rec.NextMatchID != "" {
			recorded = rec.NextMatchID
			return errAlreadyNext
		}
		rec.NextMatchID = next
		return nil
	})
	switch {
	case err == errAlreadyNext:
		return recorded, nil
	case err != nil:
		return "", err
	}
	return next, nil
}

// createNext stores the match that follows rec, unless an earlier or
// concurrent call stored it already.
func (m *Manager) createNext(ctx context.Context, g games.Game, rec *Record, p PlayAgainParams) error {
	if err := m.checkRoomCap(); err != nil {
		return err
	}
	nrec, err := m.newRecord(g, nextID(rec.ID), nextParams(rec, p), rec.Options)
	if err != nil {
		return err
	}
	cctx, cancel := m.opCtx(ctx)
	defer cancel()
	switch err := m.cfg.Store.Create(cctx, nrec); {
	case errors.Is(err, ErrExists):
		return nil
	case err != nil:
		return AsError(err)
	}
	m.cfg.Metrics.MatchCreated(rec.Game)
	m.notify(nrec, g)
	return nil
}

// nextParams is the next match's setup: rec's, changed as p asks, with the
// bots that still hold seats kept in them.
func nextParams(rec *Record, p PlayAgainParams) CreateParams {
	next := CreateParams{NumPlayers: rec.NumPlayers, SetupData: rec.SetupData, Unlisted: rec.Unlisted, Bots: map[string]string{}, again: true}
	if p.NumPlayers != 0 {
		next.NumPlayers = p.NumPlayers
	}
	if len(p.SetupData) > 0 {
		next.SetupData = p.SetupData
	}
	for i, s := range rec.Seats {
		if s.Bot != "" && !s.Left && i < next.NumPlayers {
			next.Bots[games.PlayerID(i)] = s.Bot
		}
	}
	return next
}

// nextID is the ID of the match that follows match id: a name-based UUID,
// so every process computes the same one, and no one can tell it without
// knowing id.
func nextID(id string) string {
	return uuid.NewSHA1(nextNamespace, []byte(id)).String()
}

// nextNamespace is the UUID namespace of nextID.
var nextNamespace = uuid.MustParse("5c0d6a52-8f1e-4f7e-9a43-6f2b1f0c9e21")

var errAlreadyNext = newError(protocol.CodeConflict, "next match already exists")

func validChat(text string) bool {
	return text != "" && utf8.RuneCountInString(text) <= protocol.MaxChat
}
