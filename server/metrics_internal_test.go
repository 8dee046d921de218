package server

import (
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

// TestMoveAcceptedCountsEachGame: the children kept per game count each
// game's moves apart, from many goroutines at once, as the vectors do.
func TestMoveAcceptedCountsEachGame(t *testing.T) {
	m := NewMetricsFor().Metrics
	var wg sync.WaitGroup
	for i := range 40 {
		game := []string{"gomoku", "gongzhu"}[i%4/3] // 30 gomoku, 10 gongzhu
		wg.Go(func() { m.MoveAccepted(game, time.Millisecond) })
	}
	wg.Wait()
	for game, want := range map[string]float64{"gomoku": 30, "gongzhu": 10} {
		var c, h dto.Metric
		if err := m.moves.WithLabelValues(game).Write(&c); err != nil {
			t.Fatal(err)
		}
		if got := c.GetCounter().GetValue(); got != want {
			t.Errorf("chaguan_moves_total{game=%q} = %v, want %v", game, got, want)
		}
		if err := m.latency.WithLabelValues(game).(interface{ Write(*dto.Metric) error }).Write(&h); err != nil {
			t.Fatal(err)
		}
		if got := h.GetHistogram().GetSampleCount(); got != uint64(want) {
			t.Errorf("chaguan_move_seconds_count{game=%q} = %v, want %v", game, got, want)
		}
	}
}
