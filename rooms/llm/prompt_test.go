package llm

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
)

// TestLegendMatchesTheRules: the prompt's tile legend covers every type,
// and its edges, rotated as the prompt rotates them, match across every
// pair of neighbours on the boards of whole bot games: what the model is
// told agrees with the rules.
func TestLegendMatchesTheRules(t *testing.T) {
	for _, typ := range carcassonne.Types() {
		if len(tileLegend[typ].edges) != 4 || tileLegend[typ].what == "" {
			t.Errorf("no legend for tile %s", typ)
		}
	}
	r := carcassonne.Rules{}
	for seed := uint64(1); seed <= 5; seed++ {
		s, err := r.Setup(2, nil, games.NewRNG(seed))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for s.Phase != carcassonne.PhaseOver {
			name, args, err := r.Bot(carcassonne.LevelEasy, r.View(s, s.Current), s.Current, rng)
			if err != nil {
				t.Fatal(err)
			}
			if s, err = r.Apply(s, s.Current, name, args); err != nil {
				t.Fatal(err)
			}
		}
		v := r.View(s, games.Spectator)
		edges := map[[2]int]string{}
		for _, p := range v.Board {
			edges[[2]int{p.X, p.Y}] = rotatedEdges(p.Type, p.Rotation)
		}
		// East and south neighbours: E of a tile meets W of the next, S meets N.
		for at, e := range edges {
			if east, ok := edges[[2]int{at[0] + 1, at[1]}]; ok && e[1] != east[3] {
				t.Errorf("seed %d: (%d,%d) E=%c but its east neighbour W=%c", seed, at[0], at[1], e[1], east[3])
			}
			if south, ok := edges[[2]int{at[0], at[1] + 1}]; ok && e[2] != south[0] {
				t.Errorf("seed %d: (%d,%d) S=%c but its south neighbour N=%c", seed, at[0], at[1], e[2], south[0])
			}
		}
	}
}

// TestPromptOptions: the tile phase numbers every placement and rotation
// from 1; the meeple phase offers 0 (no meeple) and each option's label.
func TestPromptOptions(t *testing.T) {
	tileView, meepleView, _, _ := views(t)
	p, err := buildPrompt(tileView, 0)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, o := range p.options {
		if o.name != carcassonne.MovePlaceTile {
			t.Errorf("tile option %s", o.name)
		}
		n++
	}
	if p.first != 1 || n == 0 || !strings.Contains(p.user, "\n1. at (") || !strings.Contains(p.user, "You drew tile ") {
		t.Errorf("tile prompt (first %d, %d options):\n%s", p.first, n, p.user)
	}
	m, err := buildPrompt(meepleView, 0)
	if err != nil {
		t.Fatal(err)
	}
	if m.first != 0 || m.options[0].name != carcassonne.MoveSkipMeeple || !strings.Contains(m.user, "\n0. no meeple\n1. meeple on the ") {
		t.Errorf("meeple prompt (first %d):\n%s", m.first, m.user)
	}
	t.Logf("meeple prompt:\n%s", m.user)
}

func TestParseSpec(t *testing.T) {
	for _, c := range []struct {
		spec string
		want Endpoint
		err  string
	}{
		{"deepseek=https://api.deepseek.com/v1,model=deepseek-chat,key_env=DEEPSEEK_API_KEY",
			Endpoint{Name: "deepseek", BaseURL: "https://api.deepseek.com/v1", Model: "deepseek-chat", KeyEnv: "DEEPSEEK_API_KEY"}, ""},
		{"local=http://127.0.0.1:11434/v1,model=qwen2.5:7b,timeout=45s",
			Endpoint{Name: "local", BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5:7b", Timeout: 45 * time.Second}, ""},
		{"llm=http://h/v1,model=m", Endpoint{Name: "llm", BaseURL: "http://h/v1", Model: "m"}, ""},
		{"http://h/v1,model=m", Endpoint{}, "NAME=BASE_URL"},
		{"x=http://h/v1", Endpoint{}, "model= is required"},
		{"x=ftp://h/v1,model=m", Endpoint{}, "http(s)"},
		{"x=https://user:sk-secret@h/v1,model=m", Endpoint{}, "credentials"},
		{"x=https://h/v1?key=sk-secret,model=m", Endpoint{}, "credentials"},
		{"x=http://h/v1,model=m,key_env=sk-secret-key", Endpoint{}, "name an environment variable"},
		{"x=http://h/v1,model=m,sk-secret", Endpoint{}, "unknown setting"},
		{"x=http://h/v1,model=m,timeout=soon", Endpoint{}, "bad timeout"},
		{"x=http://h/v1,model=m,max=2", Endpoint{Name: "x", BaseURL: "http://h/v1", Model: "m", Max: 2}, ""},
		{"x=http://h/v1,model=m,max=0", Endpoint{}, "max must be"},
		{"x=http://h/v1,model=m,max=many", Endpoint{}, "max must be"},
		{"x=http://h/v1,model=m,max=100000", Endpoint{}, "max must be"},
	} {
		got, err := ParseSpec(c.spec)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", c.spec, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseSpec(%q) error %v, want one containing %q", c.spec, err, c.err)
		case err != nil && strings.Contains(err.Error(), "sk-secret"):
			t.Errorf("ParseSpec(%q) echoes the secret: %v", c.spec, err)
		}
	}
	if Level("") != "llm" || Level("llm") != "llm" || Level("deepseek") != "llm-deepseek" {
		t.Error("Level")
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{"LLM_BASE_URL": "https://api.example.com/v1", "LLM_MODEL": "m", "LLM_API_KEY": "sk-x"}
	ep, ok, err := FromEnv(func(k string) string { return env[k] })
	want := Endpoint{Name: "llm", BaseURL: "https://api.example.com/v1", Model: "m", KeyEnv: "LLM_API_KEY"}
	if !ok || err != nil || ep != want {
		t.Errorf("FromEnv = %+v, %v, %v; want %+v", ep, ok, err, want)
	}
	if _, ok, err := FromEnv(func(string) string { return "" }); ok || err != nil {
		t.Errorf("empty environment: %v, %v", ok, err)
	}
	env["LLM_MAX"] = "9"
	if ep, _, err := FromEnv(func(k string) string { return env[k] }); err != nil || ep.Max != 9 {
		t.Errorf("LLM_MAX=9: max %d, %v", ep.Max, err)
	}
	env["LLM_MAX"] = "-1"
	if _, _, err := FromEnv(func(k string) string { return env[k] }); err == nil {
		t.Error("LLM_MAX=-1 accepted")
	}
	delete(env, "LLM_MAX")
	delete(env, "LLM_MODEL")
	if _, ok, err := FromEnv(func(k string) string { return env[k] }); !ok || err == nil {
		t.Errorf("no model: %v, %v; want an error", ok, err)
	}
}
