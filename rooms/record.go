package rooms

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// maxLog is how many public log entries a record keeps and a state
// message carries: the newest, enough for a client's move list. Every move
// stores the record, so a longer log costs encoding on every move.
const maxLog = 20

// newCredentials returns 128 random bits as hex, and their hash.
func newCredentials() (creds, hash string) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("rooms: crypto/rand failed: " + err.Error())
	}
	creds = hex.EncodeToString(b[:])
	return creds, hashCredentials(creds)
}

func hashCredentials(creds string) string {
	h := sha256.Sum256([]byte(creds))
	return hex.EncodeToString(h[:])
}

// checkCredentials compares in constant time; an empty stored hash never
// matches.
func checkCredentials(stored, creds string) bool {
	if stored == "" || creds == "" {
		return false
	}
	got := hashCredentials(creds)
	return subtle.ConstantTimeCompare([]byte(stored), []byte(got)) == 1
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("rooms: crypto/rand failed: " + err.Error())
	}
	return binary.LittleEndian.Uint64(b[:])
}

// clone deep-copies a record through JSON so no two owners share slices.
func (r *Record) clone() *Record {
	b, err := json.Marshal(r)
	if err != nil {
		panic("rooms: marshal record: " + err.Error())
	}
	var c Record
	if err := json.Unmarshal(b, &c); err != nil {
		panic("rooms: unmarshal record: " + err.Error())
	}
	return &c
}

// withSeatsCopied is a copy of r to change its seats in (writeMeta): the
// seats are its own, the rest is shared as a move's successor shares it
// (successor): the state, the log and the clocks are replaced, never
// changed in place, and the moves are appended in place only by the one
// successor of a record that is committed. A presence change (two a
// player, at the start and the end of a match) no longer costs the
// JSON round trip of the whole record that clone makes.
func (r *Record) withSeatsCopied() *Record {
	nr := *r
	nr.Seats = make([]Seat, len(r.Seats))
	for i, s := range r.Seats {
		s.Data = slices.Clone(s.Data)
		s.Holders = slices.Clone(s.Holders)
		nr.Seats[i] = s
	}
	return &nr
}

// started reports whether every seat is taken.
func (r *Record) started() bool {
	for _, s := range r.Seats {
		if !s.Taken() {
			return false
		}
	}
	return true
}

// seatOf returns the seat whose credentials these are, or -1.
func (r *Record) seatOf(playerID, creds string) int {
	seat, ok := games.ParseSeat(playerID, len(r.Seats))
	if !ok || !checkCredentials(r.Seats[seat].CredHash, creds) {
		return -1
	}
	return seat
}

// players is the public players list.
func (r *Record) players() []protocol.Player {
	out := make([]protocol.Player, len(r.Seats))
	for i, s := range r.Seats {
		p := protocol.Player{ID: i, Name: s.Name, IsConnected: s.Processes > 0, Data: s.Data}
		if s.Bot != "" {
			p.IsBot, p.BotLevel, p.IsConnected = true, s.Bot, true
		}
		p.Autoplay = s.Autoplay
		out[i] = p
	}
	return out
}

// match is the lobby's view of the record: no credentials, no seed, no state.
func (r *Record) match() protocol.Match {
	return protocol.Match{
		MatchID:     r.ID,
		GameName:    r.Game,
		Players:     r.players(),
		SetupData:   r.SetupData,
		Gameover:    r.Gameover,
		CreatedAt:   r.CreatedAt,
		UpdatedAt:   r.UpdatedAt,
		Unlisted:    r.Unlisted,
		Started:     r.started(),
		NextMatchID: r.NextMatchID,
	}
}

// toMove lists the seats whose move it is, for the lobby's view of one
// match; nil before the start, after the end, or when the state does not
// load (the lobby view must not fail for it).
func toMove(r *Record, g games.Game) []string {
	if !r.started() || len(r.Gameover) > 0 {
		return nil
	}
	st, err := g.Load(r.State)
	if err != nil {
		return nil
	}
	var out []string
	for _, seat := range st.Status().Movers(r.NumPlayers) {
		out = append(out, games.PlayerID(seat))
	}
	return out
}

// wireCtx builds ctx for a state message from the game status. State
// messages write it with appendWireCtx; this is what that must match.
func (r *Record) wireCtx(st games.Status) protocol.Ctx {
	c := protocol.Ctx{
		NumPlayers: r.NumPlayers,
		PlayOrder:  make([]string, r.NumPlayers),
		Phase:      st.Phase,
		Turn:       st.Turn,
		Started:    r.started(),
		Gameover:   r.Gameover,
	}
	for i := range c.PlayOrder {
		c.PlayOrder[i] = games.PlayerID(i)
	}
	if st.Current >= 0 {
		c.CurrentPlayer = games.PlayerID(st.Current)
	}
	if st.Active != nil {
		c.ActivePlayers = make(map[string]string, len(st.Active))
		for seat, stage := range st.Active {
			c.ActivePlayers[games.PlayerID(seat)] = stage
		}
	}
	return c
}

// appendLog adds a public entry, keeping the newest maxLog.
func (r *Record) appendLog(e protocol.LogEntry) {
	r.Log = append(r.Log, e)
	if n := len(r.Log); n > maxLog {
		r.Log = append([]protocol.LogEntry(nil), r.Log[n-maxLog:]...)
	}
}
