package sim

import (
	"fmt"
	"io"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/threemonks"
)

func init() {
	Register("threemonks", Hook{New: newMonkStats, Narrate: narrateMonks})
}

// monkStats is Three Monks' extra statistics: the win rate by the item a
// monk was dealt, and how often each phase runs.
type monkStats struct {
	dealt  map[threemonks.ItemKind]int // seats dealt each item
	won    map[threemonks.ItemKind]int // wins by the winner's starting item
	runs   threemonks.PhaseRuns
	rounds int
	games  int
}

func newMonkStats(Config) Collector {
	return &monkStats{dealt: map[threemonks.ItemKind]int{}, won: map[threemonks.ItemKind]int{}}
}

func (m *monkStats) Add(_, last games.State, r Result) {
	s, ok := games.Typed[threemonks.State](last)
	if !ok {
		return
	}
	m.games++
	m.rounds += s.Round
	for _, k := range s.StartItems {
		m.dealt[k]++
	}
	if r.Winner >= 0 && r.Winner < len(s.StartItems) {
		m.won[s.StartItems[r.Winner]]++
	}
	m.runs.Chant += s.Runs.Chant
	m.runs.Fetch += s.Runs.Fetch
	m.runs.Exchange += s.Runs.Exchange
	m.runs.Drink += s.Runs.Drink
}

func (m *monkStats) Merge(other Collector) {
	o := other.(*monkStats)
	for k, v := range o.dealt {
		m.dealt[k] += v
	}
	for k, v := range o.won {
		m.won[k] += v
	}
	m.runs.Chant += o.runs.Chant
	m.runs.Fetch += o.runs.Fetch
	m.runs.Exchange += o.runs.Exchange
	m.runs.Drink += o.runs.Drink
	m.rounds += o.rounds
	m.games += o.games
}

func (m *monkStats) Report(w io.Writer) {
	fmt.Fprintln(w, "win rate by item held at the start (wins per seat dealt it):")
	for _, k := range append(append([]threemonks.ItemKind{}, threemonks.FetchingItems...), threemonks.OtherItems...) {
		if m.dealt[k] > 0 {
			fmt.Fprintf(w, "  %-14s %-4s %6s  (%d of %d)\n", k.Name().En, k.Name().Zh, pct(m.won[k], m.dealt[k]), m.won[k], m.dealt[k])
		}
	}
	fmt.Fprintln(w, "phases run (share of rounds, runs per game):")
	for _, p := range []struct {
		c threemonks.Card
		n int
	}{{threemonks.Chant, m.runs.Chant}, {threemonks.Fetch, m.runs.Fetch}, {threemonks.Exchange, m.runs.Exchange}, {threemonks.Drink, m.runs.Drink}} {
		perGame := 0.0
		if m.games > 0 {
			perGame = float64(p.n) / float64(m.games)
		}
		fmt.Fprintf(w, "  %-8s %-4s %6s  %.1f per game\n", p.c, p.c.Name().Zh, pct(p.n, m.rounds), perGame)
	}
}

// narrateMonks lists the events a move caused, in both languages.
func narrateMonks(before, after games.State) []string {
	b, ok1 := games.Typed[threemonks.State](before)
	a, ok2 := games.Typed[threemonks.State](after)
	if !ok1 || !ok2 {
		return nil
	}
	var evs []threemonks.Event
	if a.Round == b.Round {
		evs = a.Events[min(len(b.Events), len(a.Events)):]
	} else {
		evs = append(a.LastEvents[min(len(b.Events), len(a.LastEvents)):], a.Events...)
	}
	var out []string
	for _, e := range evs {
		t := e.Text()
		out = append(out, t.En+"  |  "+t.Zh)
	}
	if a.Round != b.Round && !a.Draw && a.Winner < 0 {
		out = append(out, fmt.Sprintf("-- round %d: water %v, items %v, centre %d, token at %d", a.Round, a.Water, a.Items, a.Centre, a.Holder))
	}
	return out
}
