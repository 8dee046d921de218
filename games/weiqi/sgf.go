package weiqi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chaguan/chaguan/games"
)

// RecordMeta is what a game record says beyond the moves.
type RecordMeta struct {
	Black, White string // player names
	Date         string // YYYY-MM-DD, or "" to leave DT out
}

// SGF writes the game as SGF FF[4]: GM[1], SZ, KM, PB/PW, RU[Chinese], DT,
// every move and pass (B[] / W[]) in order, and RE once the game is over
// ("B+3.5", "W+R", "0" for a draw).
func (s State) SGF(m RecordMeta) []byte {
	var b strings.Builder
	b.WriteString("(;FF[4]GM[1]CA[UTF-8]AP[Chaguan]")
	fmt.Fprintf(&b, "SZ[%d]KM[%s]RU[Chinese]", s.size, strconv.FormatFloat(s.komi, 'f', -1, 64))
	prop(&b, "PB", m.Black)
	prop(&b, "PW", m.White)
	prop(&b, "DT", m.Date)
	if r := s.result(); r != "" {
		if r == "Draw" {
			r = "0"
		}
		prop(&b, "RE", r)
	}
	for i, mv := range s.moves {
		b.WriteString("\n;")
		b.WriteString([...]string{"B", "W"}[i%2])
		b.WriteByte('[')
		if mv != passMove {
			b.WriteByte(byte('a' + int(mv)%s.size))
			b.WriteByte(byte('a' + int(mv)/s.size))
		}
		b.WriteByte(']')
	}
	b.WriteString(")\n")
	return []byte(b.String())
}

// prop writes a text property, escaping ] and \ as SGF asks; an empty
// value is left out.
func prop(b *strings.Builder, id, v string) {
	if v == "" {
		return
	}
	b.WriteString(id)
	b.WriteByte('[')
	for _, r := range v {
		if r == ']' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte(']')
}

// SGFNode is one node of a game record: property ID to its values.
type SGFNode map[string][]string

// maxSGF bounds what ParseSGF reads.
const maxSGF = 1 << 20

// ParseSGF reads the main line of the first game tree of an SGF file: the
// first variation at every branch. Property values are unescaped (\] and
// \\), soft line breaks (\ then newline) removed. It refuses what is not
// SGF: a missing "(;", an unterminated value, a property without a value,
// more than 1 MiB.
func ParseSGF(data []byte) ([]SGFNode, error) {
	if len(data) > maxSGF {
		return nil, fmt.Errorf("sgf: %d bytes is over the %d-byte limit", len(data), maxSGF)
	}
	p := sgfParser{s: data}
	p.space()
	if !p.eat('(') {
		return nil, fmt.Errorf("sgf: no game tree: expected '(' at byte %d", p.i)
	}
	nodes, err := p.sequence(0)
	if err != nil {
		return nil, err
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("sgf: the game tree has no node")
	}
	return nodes, nil
}

type sgfParser struct {
	s []byte
	i int
}

func (p *sgfParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\r' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *sgfParser) eat(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// maxDepth bounds nested variations, so a hostile file cannot exhaust
// the stack.
const maxDepth = 100

// sequence reads nodes up to this tree's ')' (the '(' is read), following
// the first sub-tree and skipping the others.
func (p *sgfParser) sequence(depth int) ([]SGFNode, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("sgf: variations nested over %d deep", maxDepth)
	}
	var nodes []SGFNode
	for {
		p.space()
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("sgf: unterminated game tree")
		}
		switch p.s[p.i] {
		case ';':
			p.i++
			n, err := p.node()
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, n)
		case '(':
			p.i++
			sub, err := p.sequence(depth + 1)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, sub...)
			for p.eat('(') { // later variations: read and drop
				if _, err := p.sequence(depth + 1); err != nil {
					return nil, err
				}
			}
			if !p.eat(')') {
				return nil, fmt.Errorf("sgf: expected ')' after the variations at byte %d", p.i)
			}
			return nodes, nil
		case ')':
			p.i++
			return nodes, nil
		default:
			return nil, fmt.Errorf("sgf: unexpected %q at byte %d", p.s[p.i], p.i)
		}
	}
}

func (p *sgfParser) node() (SGFNode, error) {
	n := SGFNode{}
	for {
		p.space()
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= 'A' && p.s[p.i] <= 'Z' {
			p.i++
		}
		if p.i == start {
			if p.i < len(p.s) && p.s[p.i] >= 'a' && p.s[p.i] <= 'z' {
				return nil, fmt.Errorf("sgf: property names are upper case (byte %d)", p.i)
			}
			return n, nil
		}
		id := string(p.s[start:p.i])
		if !p.eat('[') {
			return nil, fmt.Errorf("sgf: property %s has no value", id)
		}
		p.i-- // value reads from the '['
		for p.eat('[') {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n[id] = append(n[id], v)
		}
	}
}

func (p *sgfParser) value() (string, error) {
	var b []byte
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch c {
		case ']':
			return string(b), nil
		case '\\':
			if p.i >= len(p.s) {
				return "", fmt.Errorf("sgf: unterminated value")
			}
			c = p.s[p.i]
			p.i++
			switch c {
			case '\n':
				if p.i < len(p.s) && p.s[p.i] == '\r' {
					p.i++
				}
				continue
			case '\r':
				if p.i < len(p.s) && p.s[p.i] == '\n' {
					p.i++
				}
				continue
			}
		}
		b = append(b, c)
	}
	return "", fmt.Errorf("sgf: unterminated value")
}

// FromSGF replays a record's main line into a state (board, captures and
// history), refusing an illegal move; a game written by SGF gives back its
// position. Only SZ, KM and the B/W moves are read, and colours must
// alternate from black.
func FromSGF(data []byte) (State, error) {
	nodes, err := ParseSGF(data)
	if err != nil {
		return State{}, err
	}
	root := nodes[0]
	size, komi := 19, 0.0
	if v := root["SZ"]; len(v) > 0 {
		if size, err = strconv.Atoi(v[0]); err != nil {
			return State{}, fmt.Errorf("sgf: SZ[%s] is not a number", v[0])
		}
	}
	if v := root["KM"]; len(v) > 0 {
		if komi, err = strconv.ParseFloat(v[0], 64); err != nil {
			return State{}, fmt.Errorf("sgf: KM[%s] is not a number", v[0])
		}
	}
	if err := checkSetup(size, komi); err != nil {
		return State{}, err
	}
	var moves []int16
	for _, n := range nodes {
		for c, id := range [...]string{"B", "W"} {
			v, ok := n[id]
			if !ok {
				continue
			}
			if len(moves)%2 != c {
				return State{}, fmt.Errorf("sgf: move %d is %s's, but it is %s's turn", len(moves)+1, id, [...]string{"B", "W"}[len(moves)%2])
			}
			m, err := sgfPoint(v[0], size)
			if err != nil {
				return State{}, err
			}
			moves = append(moves, m)
		}
	}
	return replay(size, komi, moves)
}

// sgfPoint reads "dp" (or "" / "tt" on boards up to 19, a pass).
func sgfPoint(v string, size int) (int16, error) {
	if v == "" || (v == "tt" && size <= 19) {
		return passMove, nil
	}
	if len(v) != 2 {
		return 0, fmt.Errorf("sgf: %q is not a point", v)
	}
	x, y := int(v[0])-'a', int(v[1])-'a'
	if x < 0 || x >= size || y < 0 || y >= size {
		return 0, fmt.Errorf("sgf: %q is off a %dx%d board", v, size, size)
	}
	return int16(y*size + x), nil
}

// Export writes the record as SGF (format "sgf"), with the players' names
// and the match's date from meta.
func (Rules) Export(s State, format string, meta games.RecordMeta) (games.Export, error) {
	if format != "sgf" {
		return games.Export{}, games.ErrNoExport
	}
	m := RecordMeta{Date: meta.Date}
	if len(meta.Players) == 2 {
		m.Black, m.White = meta.Players[0], meta.Players[1]
	}
	return games.Export{ContentType: "application/x-go-sgf; charset=utf-8", Ext: "sgf", Data: s.SGF(m)}, nil
}
