package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
)

// gameName is the server's name of the game this client plays.
const gameName = "weiqi"

// moveWait bounds one move's round trip to the server.
const moveWait = 10 * time.Second

// backend is the model's line to the server. Move and Next block, so the
// model calls them only inside tea.Cmds, never in Update.
type backend interface {
	// Move plays name with args as seat (one of the seats this terminal
	// holds) and returns the state that acknowledged it, or the server's
	// refusal as a *client.MoveError.
	Move(ctx context.Context, seat, name string, args ...any) (*protocol.State, error)
	// Next waits for what the server pushes next: a stateMsg, a
	// serverErrMsg or, once, a closedMsg.
	Next() tea.Msg
}

// Messages from the backend to the model.
type (
	stateMsg     struct{ st *protocol.State }
	serverErrMsg struct{ err *protocol.Error }
	closedMsg    struct{ err error }
	// reconnectingMsg: the connection dropped and is being dialled again
	// (attempt counts the tries of this outage).
	reconnectingMsg struct {
		attempt int
		err     error
	}
	// reconnectedMsg: the connection is back; st is the full state the
	// server answered its hello with.
	reconnectedMsg struct{ st *protocol.State }
)

// Reconnect backoff of the terminal's connections: the client's default
// (250 ms doubling to 10 s, jittered).
var reconnectOptions = client.Options{Reconnect: true, Patches: true}

// netBackend is the backend over real WebSocket connections: one per seat
// this terminal plays (two in hot-seat), or one spectator connection.
type netBackend struct {
	conns   map[string]*client.Conn // by seat ID; "" for the spectator
	primary *client.Conn            // the one whose pushes the model follows
}

func (b *netBackend) Move(ctx context.Context, seat, name string, args ...any) (*protocol.State, error) {
	c, ok := b.conns[seat]
	if !ok {
		return nil, fmt.Errorf("this terminal does not hold seat %q", seat)
	}
	return c.Move(ctx, name, args...)
}

// Next follows the primary connection only: weiqi hides nothing, so every
// seat's connection receives the same states (and in hot-seat, on the
// in-process server, they drop and come back together).
func (b *netBackend) Next() tea.Msg {
	p := b.primary
	for {
		select {
		case st := <-p.States():
			return stateMsg{st}
		case e := <-p.Errors():
			return serverErrMsg{e}
		case s := <-p.Statuses():
			switch s.Status {
			case client.StatusReconnecting:
				return reconnectingMsg{attempt: s.Attempt, err: s.Err}
			case client.StatusOpen:
				return reconnectedMsg{p.Latest()}
			}
			// connecting is Dial's, closed comes as Done
		case <-p.Done():
			return closedMsg{p.Err()}
		}
	}
}

// Close closes every connection.
func (b *netBackend) Close() {
	for _, c := range b.conns {
		_ = c.Close()
	}
}

// session is a game this terminal takes part in, connected and ready.
type session struct {
	mode  mode
	seats []string // the seats this terminal plays, in order
	be    *netBackend
	first *protocol.State
	// held is the seat of a running server this terminal holds, as the
	// seats file keeps it (nil for the in-process server and spectators);
	// store is that file.
	held  *heldSeat
	store *seatStore
	// note is a message for the status line at the start, "" for none.
	note string
}

// setup is what a new match is created with.
type setup struct {
	size  int
	komi  float64
	bot   string    // "" for hot-seat: both seats here
	names [2]string // the seats' player names
}

// newMatch creates a weiqi match on the server at base and takes its seats:
// both in hot-seat, seat 0 against the server's bot at level s.bot.
func newMatch(ctx context.Context, base string, s setup) (*session, error) {
	lobby := client.NewLobby(base, nil)
	data, _ := json.Marshal(map[string]any{"size": s.size, "komi": s.komi})
	req := protocol.CreateRequest{NumPlayers: 2, SetupData: data, Unlisted: true}
	seats, m := []string{"0", "1"}, modeHotSeat
	if s.bot != "" {
		req.Bots = map[string]string{"1": s.bot}
		seats, m = []string{"0"}, modeBot
	}
	id, err := lobby.Create(ctx, gameName, req)
	if err != nil {
		return nil, fmt.Errorf("create a match: %w", err)
	}
	names := map[string]string{"0": s.names[0], "1": s.names[1]}
	creds := map[string]string{}
	for _, seat := range seats {
		jr, err := lobby.Join(ctx, gameName, id, protocol.JoinRequest{PlayerName: names[seat], PlayerID: &seat})
		if err != nil {
			return nil, fmt.Errorf("take seat %s: %w", seat, err)
		}
		creds[seat] = jr.PlayerCredentials
	}
	return dialSeats(ctx, base, id, m, seats, creds)
}

// joinMatch takes a free seat of match id on the server at base, or
// spectates when there is none or spectate is set.
func joinMatch(ctx context.Context, base, id, name string, spectate bool) (*session, error) {
	s, _, err := joinMatchCreds(ctx, base, id, name, spectate)
	return s, err
}

// joinMatchCreds is joinMatch that also returns the credentials of the
// seat it took ("" when it spectates).
func joinMatchCreds(ctx context.Context, base, id, name string, spectate bool) (*session, string, error) {
	lobby := client.NewLobby(base, nil)
	if !spectate {
		jr, err := lobby.Join(ctx, gameName, id, protocol.JoinRequest{PlayerName: name})
		var ae *client.APIError
		switch {
		case err == nil:
			creds := map[string]string{jr.PlayerID: jr.PlayerCredentials}
			s, err := dialSeats(ctx, base, id, modeRemote, []string{jr.PlayerID}, creds)
			return s, jr.PlayerCredentials, err
		case errors.As(err, &ae) && ae.Status == http.StatusConflict:
			// Every seat is taken: watch instead.
		default:
			return nil, "", fmt.Errorf("join match %s: %w", id, err)
		}
	}
	s, err := dialSeats(ctx, base, id, modeSpectate, nil, map[string]string{"": ""})
	return s, "", err
}

// resumeOrJoin is -join with the seats file: when store holds a seat of
// match id on base, it says hello with that seat's credentials and is back
// in it. A seat the server no longer knows (unauthorized: it passed to the
// bot or was given up; not_found: the match expired) is forgotten, and it
// joins as joinMatch does; a seat it takes then is written to store. A
// store that cannot be read or written costs the seat's memory, not the
// game: the session's note says so.
func resumeOrJoin(ctx context.Context, base, id, name string, spectate bool, store *seatStore, l lang) (*session, error) {
	if spectate || store == nil {
		return joinMatch(ctx, base, id, name, spectate)
	}
	var note string
	held, ok, err := store.find(base, gameName, id)
	if err != nil {
		note = l.tr(txtSeatsFileBad, err)
	}
	if ok {
		creds := map[string]string{held.PlayerID: held.Credentials}
		s, err := dialSeats(ctx, base, id, modeRemote, []string{held.PlayerID}, creds)
		switch {
		case err == nil:
			s.held, s.store = &held, store
			s.note = l.tr(txtSeatResumed, colourOf(held.PlayerID, l))
			return s, nil
		case client.IsCode(err, protocol.CodeUnauthorized) || client.IsCode(err, protocol.CodeNotFound):
			if err := store.remove(held); err != nil {
				note = l.tr(txtSeatsFileBad, err)
			} else {
				note = l.tr(txtSeatGoneRejoined)
			}
		default:
			return nil, fmt.Errorf("back to seat %s of match %s: %w", held.PlayerID, id, err)
		}
	}
	s, creds, err := joinMatchCreds(ctx, base, id, name, false)
	if err != nil {
		return nil, err
	}
	s.note = note
	if len(s.seats) == 1 {
		h := heldSeat{Server: base, Game: gameName, MatchID: id, PlayerID: s.seats[0], Credentials: creds, Name: name, At: time.Now().UnixMilli()}
		if err := store.add(h); err != nil {
			s.note = l.tr(txtSeatsFileBad, err)
		} else {
			s.held, s.store = &h, store
		}
	}
	return s, nil
}

// colourOf is a seat's colour: 黑方/Black for "0", 白方/White for "1".
func colourOf(seat string, l lang) string {
	if seat == "1" {
		return l.tr(txtWhite)
	}
	return l.tr(txtBlack)
}

// dialSeats opens one connection per seat (or one spectator connection
// when seats is empty).
func dialSeats(ctx context.Context, base, id string, m mode, seats []string, creds map[string]string) (*session, error) {
	be := &netBackend{conns: map[string]*client.Conn{}}
	order := seats
	if len(order) == 0 {
		order = []string{""}
	}
	for _, seat := range order {
		c, err := client.DialWith(ctx, base, gameName, id, seat, creds[seat], reconnectOptions)
		if err != nil {
			be.Close()
			return nil, fmt.Errorf("connect to match %s: %w", id, err)
		}
		be.conns[seat] = c
	}
	be.primary = be.conns[order[0]]
	return &session{mode: m, seats: seats, be: be, first: be.primary.Latest()}, nil
}

// parseJoin reads -join: the web client's invite link
// (http://host:8080/m/weiqi/<matchID>) into the server's base URL and the
// match ID. A path before /m/ (a server behind a prefix) stays in the base.
func parseJoin(link string) (base, id string, err error) {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("-join %q: want the invite link, like http://host:8080/m/weiqi/<matchID>", link)
	}
	path := strings.TrimRight(u.Path, "/")
	i := strings.LastIndex(path, "/m/")
	if i < 0 {
		return "", "", fmt.Errorf("-join %q: no /m/<game>/<matchID> in the link", link)
	}
	parts := strings.Split(path[i+len("/m/"):], "/")
	if len(parts) != 2 || parts[1] == "" {
		return "", "", fmt.Errorf("-join %q: want /m/weiqi/<matchID>", link)
	}
	if parts[0] != gameName {
		return "", "", fmt.Errorf("-join %q: the link is a %s match, this client plays weiqi", link, parts[0])
	}
	id, err = url.PathUnescape(parts[1])
	if err != nil {
		return "", "", fmt.Errorf("-join %q: %w", link, err)
	}
	return u.Scheme + "://" + u.Host + path[:i], id, nil
}

// matchSize reads the board size of match id from the lobby, so the
// terminal can be measured before a seat is taken.
func matchSize(ctx context.Context, base, id string) (int, error) {
	m, err := client.NewLobby(base, nil).GetMatch(ctx, gameName, id)
	if err != nil {
		return 0, fmt.Errorf("match %s: %w", id, err)
	}
	if m.GameName != "" && m.GameName != gameName {
		return 0, fmt.Errorf("match %s is a %s match, this client plays weiqi", id, m.GameName)
	}
	var sd struct {
		Size int `json:"size"`
	}
	_ = json.Unmarshal(m.SetupData, &sd)
	if sd.Size == 0 {
		sd.Size = 19 // the game's default
	}
	return sd.Size, nil
}

// keep hands the model what the session knows beyond the game: the note
// for its status line, and the seats file's forget for the seat it holds.
func (s *session) keep(m *model) {
	if s.note != "" {
		m.setInfo(s.note)
	}
	if s.held != nil && s.store != nil {
		h, store := *s.held, s.store
		m.keepSeat(func() { _ = store.remove(h) })
	}
}
