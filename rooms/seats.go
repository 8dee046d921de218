package rooms

import (
	"context"
	"encoding/json"
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
	name, err := validName(p.Name)
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
		n, err := validName(*p.NewName)
		if err != nil {
			return newError(protocol.CodeBadRequest, "newName must not be empty")
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

// AddBot fills a free seat with a bot; only a seated player may ask.
func (m *Manager) AddBot(ctx context.Context, gameName, id, playerID, creds, seatID, level string) error {
	_, err := m.mutate(ctx, gameName, id, func(rec *Record, g games.Game) error {
		if _, err := authSeat(rec, playerID, creds); err != nil {
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
func (m *Manager) PlayAgain(ctx context.Context, gameName, id string, p PlayAgainParams) (string, error) {
	var created bool
	var next CreateParams
	rec, err := m.mutate(ctx, gameName, id, func(rec *Record, _ games.Game) error {
		if _, err := authSeat(rec, p.PlayerID, p.Credentials); err != nil {
			return err
		}
		if rec.NextMatchID != "" {
			return errAlreadyNext
		}
		next = CreateParams{NumPlayers: rec.NumPlayers, SetupData: rec.SetupData, Unlisted: rec.Unlisted, Bots: map[string]string{}}
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
		grace := msDuration(rec.Options.GraceMs)
		delay := msDuration(rec.Options.BotDelayMs)
		next.Grace, next.BotDelay = &grace, &delay
		rec.NextMatchID = uuid.NewString()
		created = true
		return nil
	})
	if err == errAlreadyNext {
		r, _, err := m.load(ctx, gameName, id)
		if err != nil {
			return "", err
		}
		return r.NextMatchID, nil
	}
	if err != nil {
		return "", err
	}
	if created {
		g, _ := m.game(gameName)
		nrec, err := m.newRecord(g, rec.NextMatchID, next)
		if err != nil {
			return "", err
		}
		cctx, cancel := m.opCtx(ctx)
		defer cancel()
		if err := m.cfg.Store.Create(cctx, nrec); err != nil {
			return "", AsError(err)
		}
		m.cfg.Metrics.MatchCreated(gameName)
		m.notify(nrec, g)
	}
	return rec.NextMatchID, nil
}

var errAlreadyNext = newError(protocol.CodeConflict, "next match already exists")

func validChat(text string) bool {
	return text != "" && utf8.RuneCountInString(text) <= protocol.MaxChat
}
