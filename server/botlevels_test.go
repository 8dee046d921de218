package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server"
)

type idlePlayer struct{}

func (idlePlayer) Move(context.Context, rooms.EngineRequest) (string, json.RawMessage, error) {
	return "", nil, errors.New("idle")
}

// TestCatalogPlayerLevels: GET /catalog lists a configured Engine level
// after the game's built-in levels, and only when it is configured; create
// accepts it then.
func TestCatalogPlayerLevels(t *testing.T) {
	for _, c := range []struct {
		name    string
		players map[string]map[string]rooms.EngineLevel
		want    []string
	}{
		{"none configured", nil, []string{"easy", "normal", "hard"}},
		{"one configured", map[string]map[string]rooms.EngineLevel{"gomoku": {"engine": {Engine: idlePlayer{}}}},
			[]string{"easy", "normal", "hard", "engine"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memstore.New(memstore.Options{})
			t.Cleanup(func() { mem.Close() })
			mgr := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour, Engines: c.players})
			t.Cleanup(mgr.Close)
			ts := httptest.NewServer(server.New(server.Config{Rooms: mgr}))
			t.Cleanup(ts.Close)
			code, b := get(t, ts.URL+"/catalog")
			var cat []struct {
				Name string   `json:"name"`
				Bots []string `json:"bots"`
			}
			if err := json.Unmarshal(b, &cat); code != 200 || err != nil || len(cat) != 1 {
				t.Fatalf("GET /catalog: %d %s (%v)", code, b, err)
			}
			if !slices.Equal(cat[0].Bots, c.want) {
				t.Errorf("bots %v, want %v", cat[0].Bots, c.want)
			}
			want := 400
			if c.players != nil {
				want = 200
			}
			if code, body := post(t, ts.URL+"/games/gomoku/create", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "engine"}}); code != want {
				t.Errorf("create with the engine level: %d %v, want %d", code, body, want)
			}
		})
	}
}
