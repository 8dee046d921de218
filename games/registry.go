package games

import "sort"

// Registry holds the games a server offers, by name. It is built once at
// start-up and read-only afterwards, so it is safe for concurrent use.
type Registry struct {
	byName map[string]Game
	order  []string
}

// NewRegistry registers games in the given order (the order GET /games
// lists them). It panics on a duplicate name: a wiring mistake.
func NewRegistry(gs ...Game) *Registry {
	r := &Registry{byName: map[string]Game{}}
	for _, g := range gs {
		name := g.Info().Name
		if _, dup := r.byName[name]; dup {
			panic("games: duplicate game " + name)
		}
		r.byName[name] = g
		r.order = append(r.order, name)
	}
	return r
}

// Get returns the named game.
func (r *Registry) Get(name string) (Game, bool) {
	g, ok := r.byName[name]
	return g, ok
}

// Names lists the registered games in registration order.
func (r *Registry) Names() []string { return append([]string(nil), r.order...) }

// Sorted lists the registered games' names alphabetically.
func (r *Registry) Sorted() []string {
	out := r.Names()
	sort.Strings(out)
	return out
}
