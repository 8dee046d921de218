package sim

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
)

func init() {
	Register("gongzhu", Hook{New: newPigStats, Narrate: narrateGongzhu, Rounds: gongzhuRounds})
}

// gongzhuRounds is the number of rounds a Gong Zhu state has finished.
func gongzhuRounds(st games.State) int {
	s, ok := games.Typed[gongzhu.State](st)
	if !ok || s.Round < 1 {
		return 0
	}
	return s.Round - 1
}

// Tally sums one figure over many rounds, exactly (integers), so that
// merging the workers' tallies in any order gives the same report.
type Tally struct {
	N     int
	Sum   int64
	SumSq int64
}

// Add records one value.
func (t *Tally) Add(x int) {
	t.N++
	t.Sum += int64(x)
	t.SumSq += int64(x) * int64(x)
}

// Merge adds o's values.
func (t *Tally) Merge(o Tally) {
	t.N += o.N
	t.Sum += o.Sum
	t.SumSq += o.SumSq
}

// Mean is the mean value (0 without values).
func (t Tally) Mean() float64 {
	if t.N == 0 {
		return 0
	}
	return float64(t.Sum) / float64(t.N)
}

// StdErr is the standard error of the mean: the sample standard deviation
// over √N. It is NaN with fewer than two values.
func (t Tally) StdErr() float64 {
	if t.N < 2 {
		return math.NaN()
	}
	n := float64(t.N)
	variance := (float64(t.SumSq) - float64(t.Sum)*float64(t.Sum)/n) / (n - 1)
	return math.Sqrt(max(variance, 0) / n)
}

// String is "+12.3 ± 4.5" (or "± -" without a standard error).
func (t Tally) String() string {
	if se := t.StdErr(); !math.IsNaN(se) {
		return fmt.Sprintf("%+7.1f ± %.1f", t.Mean(), se)
	}
	return fmt.Sprintf("%+7.1f ± -", t.Mean())
}

// SeatRounds is one seat's (or one bot level's) figures: its round scores
// and how many rounds it took the pig, the sheep, the transformer, and all
// hearts.
type SeatRounds struct {
	Score       Tally
	Pig         int
	Sheep       int
	Transformer int
	AllHearts   int
}

func (a *SeatRounds) merge(b SeatRounds) {
	a.Score.Merge(b.Score)
	a.Pig += b.Pig
	a.Sheep += b.Sheep
	a.Transformer += b.Transformer
	a.AllHearts += b.AllHearts
}

// add records seat's part of one finished round.
func (a *SeatRounds) add(e gongzhu.RoundSummary, seat int) {
	a.Score.Add(e.Scores[seat])
	a.Pig += btoi(e.Pig == seat)
	a.Sheep += btoi(e.Sheep == seat)
	a.Transformer += btoi(e.Transformer == seat)
	a.AllHearts += btoi(e.AllHearts == seat)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// PigStats is Gong Zhu's statistics over every round played: by seat, by
// bot level (pooling the seat-rounds at that level) and, with 4 seats, by
// team (seats 0+2 and 1+3, the round score of the pair).
type PigStats struct {
	Levels  []string // the bot level of each seat
	Rounds  int
	Seats   []SeatRounds
	ByLevel map[string]*SeatRounds
	Teams   []Tally // 4 seats only
}

func newPigStats(cfg Config) Collector {
	p := &PigStats{Levels: cfg.Bots, Seats: make([]SeatRounds, cfg.Players), ByLevel: map[string]*SeatRounds{}}
	for _, l := range cfg.Bots {
		p.ByLevel[l] = &SeatRounds{}
	}
	if cfg.Players == 4 {
		p.Teams = make([]Tally, 2)
	}
	return p
}

// Add does nothing: AddRound has seen every round of the game already.
func (p *PigStats) Add(_, _ games.State, _ Result) {}

// AddRound records the round that st's history ends with.
func (p *PigStats) AddRound(st games.State, _ Result) {
	s, ok := games.Typed[gongzhu.State](st)
	if !ok || len(s.History) == 0 || len(s.History[len(s.History)-1].Scores) != len(p.Seats) {
		return
	}
	e := s.History[len(s.History)-1]
	p.Rounds++
	for seat := range p.Seats {
		p.Seats[seat].add(e, seat)
		p.ByLevel[p.Levels[seat]].add(e, seat)
	}
	for team := range p.Teams {
		p.Teams[team].Add(e.Scores[team] + e.Scores[team+2])
	}
}

// Merge adds another worker's statistics.
func (p *PigStats) Merge(other Collector) {
	o := other.(*PigStats)
	p.Rounds += o.Rounds
	for i := range p.Seats {
		p.Seats[i].merge(o.Seats[i])
	}
	for l, sr := range o.ByLevel {
		p.ByLevel[l].merge(*sr)
	}
	for i := range p.Teams {
		p.Teams[i].Merge(o.Teams[i])
	}
}

// Report writes the round-score means and the special-card counts.
func (p *PigStats) Report(w io.Writer) {
	fmt.Fprintf(w, "rounds played: %d\n", p.Rounds)
	fmt.Fprintln(w, "mean round score ± standard error, and the share of rounds each took the pig 猪, sheep 羊, transformer 变压器, all hearts 全红:")
	for seat, sr := range p.Seats {
		p.line(w, fmt.Sprintf("seat %d (%s)", seat, p.Levels[seat]), sr, "rounds")
	}
	fmt.Fprintln(w, "by bot level (over the seat-rounds at that level):")
	for _, l := range slices.Sorted(maps.Keys(p.ByLevel)) {
		p.line(w, l, *p.ByLevel[l], "seat-rounds")
	}
	if len(p.Teams) > 0 {
		fmt.Fprintln(w, "teams (the pair's round score):")
		for team, t := range p.Teams {
			fmt.Fprintf(w, "  team %d (seats %d+%d)  %s  (%d rounds)\n", team, team, team+2, t, t.N)
		}
	}
}

// line writes one seat's or level's figures; unit names what N counts.
func (p *PigStats) line(w io.Writer, name string, sr SeatRounds, unit string) {
	n := sr.Score.N
	fmt.Fprintf(w, "  %-16s %s  pig %6s  sheep %6s  transformer %6s  all hearts %6s  (%d %s)\n",
		name, sr.Score, pct(sr.Pig, n), pct(sr.Sheep, n), pct(sr.Transformer, n), pct(sr.AllHearts, n), n, unit)
}

// narrateGongzhu tells, for -verbose, how a round that a move ended went.
func narrateGongzhu(before, after games.State) []string {
	if gongzhuRounds(after) == gongzhuRounds(before) {
		return nil
	}
	s, ok := games.Typed[gongzhu.State](after)
	if !ok || len(s.History) == 0 {
		return nil
	}
	e := s.History[len(s.History)-1]
	return []string{fmt.Sprintf("-- round %d over: scores %v, totals %v; pig 猪 seat %d, sheep 羊 seat %d, transformer 变压器 seat %d, all hearts 全红 %s",
		e.Round, e.Scores, e.Totals, e.Pig, e.Sheep, e.Transformer, seatOrNone(e.AllHearts))}
}

func seatOrNone(seat int) string {
	if seat < 0 {
		return "nobody"
	}
	return fmt.Sprintf("seat %d", seat)
}
