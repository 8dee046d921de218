package games

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
)

// RNG is the seeded, serialisable random source a game keeps inside its
// authoritative state (under its secret part: it must never reach a view).
// It wraps ChaCha8, whose whole state marshals, so (seed, moves) replays to
// the same state even after a round trip through storage.
//
// The zero value is not usable; use NewRNG. An RNG is not safe for
// concurrent use; a room's state is only touched by its own goroutine.
type RNG struct {
	src *rand.ChaCha8
	r   *rand.Rand
}

// NewRNG returns an RNG seeded from a 64-bit seed.
func NewRNG(seed uint64) *RNG {
	var key [32]byte
	for i := 0; i < 4; i++ {
		s := seed + uint64(i)*0x9E3779B97F4A7C15
		for j := 0; j < 8; j++ {
			key[i*8+j] = byte(s >> (8 * j))
		}
	}
	src := rand.NewChaCha8(key)
	return &RNG{src: src, r: rand.New(src)}
}

// IntN returns a uniform int in [0, n).
func (g *RNG) IntN(n int) int { return g.r.IntN(n) }

// Uint64 returns a uniform uint64.
func (g *RNG) Uint64() uint64 { return g.r.Uint64() }

// Shuffle shuffles n elements with swap.
func (g *RNG) Shuffle(n int, swap func(i, j int)) { g.r.Shuffle(n, swap) }

// Perm returns a random permutation of [0, n).
func (g *RNG) Perm(n int) []int { return g.r.Perm(n) }

// Clone returns an independent copy that will produce the same sequence.
func (g *RNG) Clone() *RNG {
	if g == nil {
		return nil
	}
	b, err := g.src.MarshalBinary()
	if err != nil {
		panic(fmt.Sprintf("games: ChaCha8 marshal: %v", err))
	}
	src := new(rand.ChaCha8)
	if err := src.UnmarshalBinary(b); err != nil {
		panic(fmt.Sprintf("games: ChaCha8 unmarshal: %v", err))
	}
	return &RNG{src: src, r: rand.New(src)}
}

// MarshalJSON encodes the generator's full state.
func (g *RNG) MarshalJSON() ([]byte, error) { return g.AppendJSON(nil) }

// AppendJSON appends what json.Marshal writes for g (null for a nil g):
// its state as a base64 string, without encoding/json's reflection (a
// game's state that writes its own JSON writes its generator's on every
// move).
func (g *RNG) AppendJSON(b []byte) ([]byte, error) {
	if g == nil {
		return append(b, "null"...), nil
	}
	bin, err := g.src.MarshalBinary()
	if err != nil {
		return b, err
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, bin)
	return append(b, '"'), nil
}

// UnmarshalJSON restores a state written by MarshalJSON.
func (g *RNG) UnmarshalJSON(data []byte) error {
	var b []byte
	if err := json.Unmarshal(data, &b); err != nil {
		return err
	}
	src := new(rand.ChaCha8)
	if err := src.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("games: bad RNG state: %w", err)
	}
	g.src, g.r = src, rand.New(src)
	return nil
}
