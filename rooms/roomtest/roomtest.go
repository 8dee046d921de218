// Package roomtest holds small test doubles for tests that drive a
// rooms.Manager: a Metrics that records the bot fallbacks and counts the
// bots' moves and decisions, and a buffer a logger and other goroutines
// may write at once.
package roomtest

import (
	"bytes"
	"maps"
	"slices"
	"sync"
	"time"
)

// Fallbacks is a rooms.Metrics that records each BotFallback as
// "game/level/reason", counts BotMove and BotDecision by "game/level", and
// ignores the rest. It is safe for concurrent use.
type Fallbacks struct {
	mu        sync.Mutex
	list      []string
	moves     map[string]int
	decisions map[string]int
}

func (*Fallbacks) RoomsLoaded(int)                    {}
func (*Fallbacks) MoveAccepted(string, time.Duration) {}
func (*Fallbacks) MoveRefused(string)                 {}
func (*Fallbacks) MatchCreated(string)                {}

// BotFallback records one fallback.
func (m *Fallbacks) BotFallback(game, level, reason string) {
	m.mu.Lock()
	m.list = append(m.list, game+"/"+level+"/"+reason)
	m.mu.Unlock()
}

// BotDecision counts one decision.
func (m *Fallbacks) BotDecision(game, level string, _ time.Duration) {
	m.count(&m.decisions, game+"/"+level)
}

// BotMove counts one move.
func (m *Fallbacks) BotMove(game, level string) { m.count(&m.moves, game+"/"+level) }

func (m *Fallbacks) count(counts *map[string]int, key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if *counts == nil {
		*counts = map[string]int{}
	}
	(*counts)[key]++
}

// BotMoves returns the bot moves counted so far by "game/level".
func (m *Fallbacks) BotMoves() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.moves)
}

// BotDecisions returns the bot decisions counted so far by "game/level".
func (m *Fallbacks) BotDecisions() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.decisions)
}

// List returns the fallbacks recorded so far, oldest first.
func (m *Fallbacks) List() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.list)
}

// Buffer is a bytes.Buffer safe for concurrent writers and readers (a
// slog handler's output, a process's stdout).
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
