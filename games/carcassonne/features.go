package carcassonne

// Connected features are found with a union-find over the nodes
// tile*maxFeats+feature, rebuilt from the board whenever it is needed (72
// tiles: a few microseconds), so nothing derived is ever stored.

// group is one connected feature on the board: a road, a city, a field, or
// a single cloister.
type group struct {
	kind     Kind
	anchor   int // the first node of the group, in board order
	tiles    int // distinct tiles it covers (for a cloister: 1 + its neighbours)
	shields  int
	open     int    // road and city: edges that lead to an empty spot; cloister: empty neighbours
	cities   []int  // field: indexes (into analysis.groups) of the city groups it touches
	meeples  [5]int // per seat (at most 5 seats)
	lastTile int    // while counting: the last tile seen, +1
}

func (g *group) complete() bool { return g.kind != Field && g.open == 0 }

// analysis is the board's connected features and who holds them.
type analysis struct {
	b      *board
	seats  int
	parent []int32
	gi     []int32 // root node -> index into groups (-1 for none)
	groups []group
	buf    []int32 // backs parent, gi and the neighbour table
}

func (a *analysis) find(x int) int {
	for int(a.parent[x]) != x {
		a.parent[x] = a.parent[a.parent[x]]
		x = int(a.parent[x])
	}
	return x
}

func (a *analysis) union(x, y int) {
	x, y = a.find(x), a.find(y)
	if x == y {
		return
	}
	if x < y {
		a.parent[y] = int32(x)
	} else {
		a.parent[x] = int32(y)
	}
}

// groupAt is the group of feature f of tile i.
func (a *analysis) groupAt(i, f int) *group {
	return &a.groups[a.gi[a.find(i*maxFeats+f)]]
}

// analyze builds the connected features of b and counts the meeples on
// them, for seats players (at most 5).
func analyze(b *board, meeples []Meeple, seats int) *analysis {
	return reanalyze(&analysis{}, b, meeples, seats)
}

// reanalyze is analyze reusing a's buffers (the bot analyses hundreds of
// boards per decision); every earlier result of a becomes invalid.
func reanalyze(a *analysis, b *board, meeples []Meeple, seats int) *analysis {
	nodes := len(b.tiles) * maxFeats
	need := 2*nodes + 4*len(b.tiles)
	if cap(a.buf) < need {
		a.buf = make([]int32, need)
	}
	buf := a.buf[:need]
	if cap(a.groups) == 0 {
		a.groups = make([]group, 0, 2*len(b.tiles)+4)
	}
	a.b, a.seats, a.parent, a.gi, a.groups = b, seats, buf[:nodes], buf[nodes:2*nodes], a.groups[:0]
	nb := buf[2*nodes:] // nb[4i+d]: the tile across edge d of tile i, or -1
	for i := range a.parent {
		a.parent[i] = int32(i)
		a.gi[i] = -1
	}
	for i, t := range b.tiles {
		for d := 0; d < 4; d++ {
			j, ok := b.index(t.X+step[d][0], t.Y+step[d][1])
			if !ok {
				j = -1
			}
			nb[4*i+d] = int32(j)
		}
	}
	a.join(nb)
	a.count(nb)
	a.linkFields()
	for _, m := range meeples {
		i, ok := b.index(m.X, m.Y)
		if !ok || m.Seat < 0 || m.Seat >= seats {
			continue
		}
		a.groupAt(i, m.Feature).meeples[m.Seat]++
	}
	return a
}

// join unites the features that meet across every edge between two tiles
// (nb as built by analyze).
func (a *analysis) join(nb []int32) {
	b := a.b
	for i := range b.tiles {
		si := b.shape(i)
		for _, d := range [2]int{East, South} {
			j := int(nb[4*i+d])
			if j < 0 {
				continue
			}
			sj := b.shape(j)
			if f := si.edgeFeat[d]; f >= 0 {
				if g := sj.edgeFeat[(d+2)%4]; g >= 0 {
					a.union(i*maxFeats+int(f), j*maxFeats+int(g))
				}
			}
			for _, h := range [2]int{2 * d, 2*d + 1} {
				f, g := si.halfFeat[h], sj.halfFeat[opposite(h)]
				if f >= 0 && g >= 0 {
					a.union(i*maxFeats+int(f), j*maxFeats+int(g))
				}
			}
		}
	}
}

// count makes one group per connected feature and counts its tiles,
// shields and open edges.
func (a *analysis) count(nb []int32) {
	b := a.b
	for i, t := range b.tiles {
		sh := b.shape(i)
		for fi, f := range sh.feats {
			root := a.find(i*maxFeats + fi)
			if a.gi[root] < 0 {
				a.gi[root] = int32(len(a.groups))
				a.groups = append(a.groups, group{kind: f.kind, anchor: i*maxFeats + fi, cities: a.spareCities()})
			}
			g := &a.groups[a.gi[root]]
			if g.lastTile != i+1 {
				g.lastTile = i + 1
				g.tiles++
			}
			if f.shield {
				g.shields++
			}
			for _, d := range f.edges {
				if nb[4*i+d] < 0 {
					g.open++
				}
			}
			if f.kind == Cloister {
				n := b.neighbours(t.X, t.Y)
				g.tiles = 1 + n
				g.open = 8 - n
			}
		}
	}
}

// linkFields records the city groups each field group borders, each once.
func (a *analysis) linkFields() {
	b := a.b
	for i := range b.tiles {
		sh := b.shape(i)
		for fi, f := range sh.feats {
			if f.kind != Field || len(f.cities) == 0 {
				continue
			}
			g := a.groupAt(i, fi)
			for _, c := range f.cities {
				ci := int(a.gi[a.find(i*maxFeats+c)])
				if !containsInt(g.cities, ci) {
					g.cities = append(g.cities, ci)
				}
			}
		}
	}
}

// spareCities returns the emptied cities slice of the group about to be
// overwritten at the end of groups, if the backing array holds one.
func (a *analysis) spareCities() []int {
	if n := len(a.groups); n < cap(a.groups) {
		return a.groups[:n+1][n].cities[:0]
	}
	return nil
}

// cells lists the positions of the tiles group g covers, in board order.
func (a *analysis) cells(g *group) [][2]int {
	var out [][2]int
	root := a.find(g.anchor)
	for i, t := range a.b.tiles {
		for fi := range a.b.shape(i).feats {
			if a.find(i*maxFeats+fi) == root {
				out = append(out, [2]int{t.X, t.Y})
				break
			}
		}
	}
	if g.kind == Cloister {
		t := a.b.tiles[g.anchor/maxFeats]
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if _, ok := a.b.index(t.X+dx, t.Y+dy); ok && (dx != 0 || dy != 0) {
					out = append(out, [2]int{t.X + dx, t.Y + dy})
				}
			}
		}
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// points is what g is worth now: in full when complete, else as the end
// scoring counts an unfinished feature; a field counts its completed cities.
func (a *analysis) points(g *group) int {
	switch g.kind {
	case Road:
		return g.tiles
	case City:
		if g.complete() {
			return 2 * (g.tiles + g.shields)
		}
		return g.tiles + g.shields
	case Cloister:
		return g.tiles
	case Field:
		return 3 * a.completedCities(g)
	}
	return 0
}

// completedCities counts the completed cities field g touches, each once.
func (a *analysis) completedCities(g *group) int {
	c := 0
	for _, ci := range g.cities {
		if a.groups[ci].complete() {
			c++
		}
	}
	return c
}

// owners lists the seats with the most meeples on g (none if it has none):
// all tied seats score in full.
func owners(meeples []int) []int {
	best := 0
	for _, m := range meeples {
		if m > best {
			best = m
		}
	}
	var out []int
	if best == 0 {
		return out
	}
	for seat, m := range meeples {
		if m == best {
			out = append(out, seat)
		}
	}
	return out
}

func (g *group) hasMeeple() bool {
	for _, m := range g.meeples {
		if m > 0 {
			return true
		}
	}
	return false
}
