// Package client is a Go client for Chaguan's wire contract
// (docs/protocol.md): Lobby for the HTTP lobby API and Conn for one
// connection to a match (one WebSocket, or with Options.Reconnect a new one
// after each drop: the same hello, the full state, backoff with jitter). It
// depends on the protocol package, the standard library and
// gorilla/websocket only, so bots, load generators and tests use exactly
// the path a person's browser uses.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/chaguan/chaguan/protocol"
)

// maxBody bounds how much of a lobby response is read.
const maxBody = 8 << 20

// Lobby calls the lobby API of one server. Its methods are safe for
// concurrent use; each blocks until the response is read or ctx ends.
type Lobby struct {
	base string // no trailing slash
	hc   *http.Client
}

// NewLobby returns a Lobby for baseURL (e.g. "http://127.0.0.1:8080"); a nil
// hc means http.DefaultClient.
func NewLobby(baseURL string, hc *http.Client) *Lobby {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Lobby{base: strings.TrimRight(baseURL, "/"), hc: hc}
}

// Games lists the registered game names (GET /games).
func (l *Lobby) Games(ctx context.Context) ([]string, error) {
	var out []string
	return out, l.do(ctx, http.MethodGet, "/games", nil, &out)
}

// Catalog describes every game (GET /catalog, an extension).
func (l *Lobby) Catalog(ctx context.Context) ([]protocol.CatalogEntry, error) {
	var out []protocol.CatalogEntry
	return out, l.do(ctx, http.MethodGet, "/catalog", nil, &out)
}

// ListFilter narrows ListMatches; zero fields do not filter.
type ListFilter struct {
	IsGameover    *bool
	UpdatedBefore int64 // Unix ms
	UpdatedAfter  int64 // Unix ms
}

// ListMatches lists a game's listed matches (GET /games/{name}).
func (l *Lobby) ListMatches(ctx context.Context, game string, f ListFilter) ([]protocol.Match, error) {
	q := url.Values{}
	if f.IsGameover != nil {
		q.Set("isGameover", strconv.FormatBool(*f.IsGameover))
	}
	if f.UpdatedBefore != 0 {
		q.Set("updatedBefore", strconv.FormatInt(f.UpdatedBefore, 10))
	}
	if f.UpdatedAfter != 0 {
		q.Set("updatedAfter", strconv.FormatInt(f.UpdatedAfter, 10))
	}
	p := "/games/" + url.PathEscape(game)
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	var out protocol.MatchList
	err := l.do(ctx, http.MethodGet, p, nil, &out)
	return out.Matches, err
}

// GetMatch returns one match (GET /games/{name}/{matchID}).
func (l *Lobby) GetMatch(ctx context.Context, game, matchID string) (*protocol.Match, error) {
	var out protocol.Match
	if err := l.do(ctx, http.MethodGet, matchPath(game, matchID, ""), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Create makes a match and returns its ID (POST /games/{name}/create).
func (l *Lobby) Create(ctx context.Context, game string, req protocol.CreateRequest) (string, error) {
	var out protocol.CreateResponse
	err := l.do(ctx, http.MethodPost, "/games/"+url.PathEscape(game)+"/create", req, &out)
	return out.MatchID, err
}

// Join takes a seat (POST …/join): req.PlayerID nil means any free seat.
func (l *Lobby) Join(ctx context.Context, game, matchID string, req protocol.JoinRequest) (*protocol.JoinResponse, error) {
	var out protocol.JoinResponse
	if err := l.do(ctx, http.MethodPost, matchPath(game, matchID, "join"), req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Update renames a seat or changes its data (POST …/update).
func (l *Lobby) Update(ctx context.Context, game, matchID string, req protocol.UpdateRequest) error {
	return l.do(ctx, http.MethodPost, matchPath(game, matchID, "update"), req, nil)
}

// Leave gives up a seat (POST …/leave).
func (l *Lobby) Leave(ctx context.Context, game, matchID string, req protocol.LeaveRequest) error {
	return l.do(ctx, http.MethodPost, matchPath(game, matchID, "leave"), req, nil)
}

// PlayAgain returns the ID of the follow-up match, the same for every caller
// (POST …/playAgain).
func (l *Lobby) PlayAgain(ctx context.Context, game, matchID string, req protocol.PlayAgainRequest) (string, error) {
	var out protocol.PlayAgainResponse
	err := l.do(ctx, http.MethodPost, matchPath(game, matchID, "playAgain"), req, &out)
	return out.NextMatchID, err
}

// AddBot fills an empty seat with a bot (POST …/bot, an extension).
func (l *Lobby) AddBot(ctx context.Context, game, matchID string, req protocol.BotRequest) error {
	return l.do(ctx, http.MethodPost, matchPath(game, matchID, "bot"), req, nil)
}

func matchPath(game, matchID, action string) string {
	p := "/games/" + url.PathEscape(game) + "/" + url.PathEscape(matchID)
	if action != "" {
		p += "/" + action
	}
	return p
}

// do sends one request; body (if not nil) is sent as JSON and a 2xx answer is
// decoded into out (if not nil). Any other status becomes an *APIError.
func (l *Lobby) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("chaguan lobby: encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, l.base+path, rd)
	if err != nil {
		return fmt.Errorf("chaguan lobby: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := l.hc.Do(req)
	if err != nil {
		return fmt.Errorf("chaguan lobby: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return fmt.Errorf("chaguan lobby: %s %s: read body: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return apiError(resp.StatusCode, data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("chaguan lobby: %s %s: decode body: %w", method, path, err)
	}
	return nil
}

func apiError(status int, data []byte) *APIError {
	var eb protocol.ErrorBody
	if json.Unmarshal(data, &eb) == nil && eb.Error != "" {
		return &APIError{Status: status, Code: eb.Error, Message: eb.Message}
	}
	msg := strings.TrimSpace(string(data))
	if len(msg) > 200 {
		msg = msg[:200]
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	return &APIError{Status: status, Message: msg}
}
