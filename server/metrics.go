package server

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Metrics is Chaguan's Prometheus instrumentation. It implements
// rooms.Metrics; hand the same value to rooms.Config and server.Config.
type Metrics struct {
	conns   prometheus.Gauge
	rooms   prometheus.Gauge
	matches *prometheus.CounterVec
	moves   *prometheus.CounterVec
	latency *prometheus.HistogramVec
	errors  *prometheus.CounterVec
	botFail *prometheus.CounterVec
	botMove *prometheus.CounterVec
	botTime *prometheus.HistogramVec

	// perGame holds each game's children of moves and latency (game →
	// *gameMetrics), so that an accepted move, counted on every move,
	// skips the vectors' lookup by label.
	perGame sync.Map
}

// gameMetrics is one game's children of Metrics' per-move vectors.
type gameMetrics struct {
	moves   prometheus.Counter
	latency prometheus.Observer
}

// NewMetrics registers Chaguan's collectors (and the Go runtime's) on reg.
func NewMetrics(reg *prometheus.Registry) *Metrics {
	m := &Metrics{
		conns: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "chaguan_ws_connections", Help: "Live WebSocket connections."}),
		rooms: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "chaguan_rooms_loaded", Help: "Matches loaded in this process (one goroutine each)."}),
		matches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chaguan_matches_created_total", Help: "Matches created."}, []string{"game"}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chaguan_moves_total", Help: "Accepted moves from people."}, []string{"game"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "chaguan_move_seconds", Help: "From a move's arrival to its storage and fan-out.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1}}, []string{"game"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chaguan_errors_total", Help: "Error messages sent, by wire code."}, []string{"code"}),
		botFail: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chaguan_bot_fallbacks_total", Help: "Bot decisions of an I/O bot level (GNU Go, LLM) replaced by its fallback level, by reason."},
			[]string{"game", "level", "reason"}),
		botMove: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chaguan_bot_moves_total", Help: "Moves bots played, by game and bot level."},
			[]string{"game", "level"}),
		botTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "chaguan_bot_decision_seconds", Help: "How long a bot thought over one decision, by game and bot level (an I/O level's fallback included).",
			Buckets: []float64{.00001, .00003, .0001, .0003, .001, .003, .01, .03, .1, .3, 1, 3, 10}}, []string{"game", "level"}),
	}
	reg.MustRegister(m.conns, m.rooms, m.matches, m.moves, m.latency, m.errors, m.botFail, m.botMove, m.botTime,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// RoomsLoaded implements rooms.Metrics.
func (m *Metrics) RoomsLoaded(delta int) { m.rooms.Add(float64(delta)) }

// MoveAccepted implements rooms.Metrics.
func (m *Metrics) MoveAccepted(game string, d time.Duration) {
	g, ok := m.perGame.Load(game)
	if !ok {
		g, _ = m.perGame.LoadOrStore(game, &gameMetrics{
			moves: m.moves.WithLabelValues(game), latency: m.latency.WithLabelValues(game)})
	}
	gm := g.(*gameMetrics)
	gm.moves.Inc()
	gm.latency.Observe(d.Seconds())
}

// MoveRefused implements rooms.Metrics.
func (m *Metrics) MoveRefused(code string) { m.errors.WithLabelValues(code).Inc() }

// MatchCreated implements rooms.Metrics.
func (m *Metrics) MatchCreated(game string) { m.matches.WithLabelValues(game).Inc() }

// BotFallback implements rooms.Metrics.
func (m *Metrics) BotFallback(game, level, reason string) {
	m.botFail.WithLabelValues(game, level, reason).Inc()
}

// BotDecision implements rooms.Metrics.
func (m *Metrics) BotDecision(game, level string, d time.Duration) {
	m.botTime.WithLabelValues(game, level).Observe(d.Seconds())
}

// BotMove implements rooms.Metrics.
func (m *Metrics) BotMove(game, level string) { m.botMove.WithLabelValues(game, level).Inc() }

// Instruments is a fresh registry with Chaguan's metrics on it.
type Instruments struct {
	Registry *prometheus.Registry
	Metrics  *Metrics
}

// NewMetricsFor returns a fresh registry and the metrics registered on it.
func NewMetricsFor() Instruments {
	reg := prometheus.NewRegistry()
	return Instruments{Registry: reg, Metrics: NewMetrics(reg)}
}
