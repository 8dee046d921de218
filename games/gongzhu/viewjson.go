package gongzhu

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// AppendJSON appends the view's JSON, byte for byte what json.Marshal
// writes (games.JSONAppender; gametest compares the two on every view of
// its playouts): the room encodes each seat's and the spectators' view on
// every move, and encoding/json spent most of a Gong Zhu move's time on
// them, cards through encoding.TextMarshaler above all. A view holding a
// card json.Marshal cannot encode (never one the rules built) is written
// by json.Marshal's own path, as far as it goes.
func (v View) AppendJSON(b []byte) []byte {
	if !v.cardsValid() {
		j, _ := json.Marshal(v)
		return append(b, j...)
	}
	b = slices.Grow(b, 1024+200*(len(v.Tricks)+len(v.History)))
	return v.appendTail(v.appendHead(b))
}

// appendHead appends the view's JSON up to "lastRound", without the
// closing brace: what changes from move to move.
func (v View) appendHead(b []byte) []byte {
	b = append(b, `{"seats":`...)
	b = strconv.AppendInt(b, int64(v.Seats), 10)
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(v.Round), 10)
	b = append(b, `,"firstLeader":`...)
	b = strconv.AppendInt(b, int64(v.FirstLeader), 10)
	if v.OpeningLead {
		b = append(b, `,"openingLead":true`...)
	}
	b = append(b, `,"players":`...)
	b = appendPlayers(b, v.Players)
	b = append(b, `,"trick":`...)
	b = appendTrick(b, v.Trick)
	b = append(b, `,"tricks":`...)
	b = appendTricks(b, v.Tricks)
	b = append(b, `,"pointCards":`...)
	b = appendCardLists(b, v.PointCards)
	b = append(b, `,"roundScores":`...)
	b = appendInts(b, v.RoundScores)
	b = append(b, `,"totals":`...)
	b = appendInts(b, v.Totals)
	b = append(b, `,"tricksPerRound":`...)
	return strconv.AppendInt(b, int64(v.TricksTotal), 10)
}

// appendTail appends the view's members from "lastRound" on and the
// closing brace: the part every state of a round shows alike, which
// Rules.AppendPublicView takes from the round's cache (roundjson.go).
func (v View) appendTail(b []byte) []byte {
	if r := v.LastRound; r != nil {
		b = append(b, `,"lastRound":{"round":`...)
		b = strconv.AppendInt(b, int64(r.Round), 10)
		b = append(b, `,"firstLeader":`...)
		b = strconv.AppendInt(b, int64(r.FirstLead), 10)
		b = append(b, `,"tricks":`...)
		b = appendTricks(b, r.Tricks)
		b = append(b, `,"taken":`...)
		b = appendCardLists(b, r.Taken)
		b = append(b, `,"pointCards":`...)
		b = appendCardLists(b, r.PointCards)
		b = append(b, `,"scores":`...)
		b = appendInts(b, r.Scores)
		b = append(b, '}')
	}
	b = append(b, `,"history":`...)
	b = games.AppendList(b, v.History, appendHistoryRow)
	if len(v.Teams) > 0 {
		b = append(b, `,"teams":`...)
		b = games.AppendList(b, v.Teams, appendInts)
	}
	b = append(b, `,"scoreboard":`...)
	b = appendScoreboard(b, v.Scoreboard)
	return append(b, '}')
}

// validCards reports whether every card of cs can be encoded.
func validCards(cs []cards.Card) bool {
	for _, c := range cs {
		if !c.Valid() {
			return false
		}
	}
	return true
}

// playsValid reports whether every card played in ps can be encoded.
func playsValid(ps []Play) bool {
	for _, p := range ps {
		if !p.Card.Valid() {
			return false
		}
	}
	return true
}

// cardsValid reports whether every card of the view can be encoded.
func (v View) cardsValid() bool {
	ok := validCards
	trickOK := func(t TrickView) bool { return playsValid(t.Plays) }
	listsOK := func(ls [][]cards.Card) bool {
		for _, l := range ls {
			if !ok(l) {
				return false
			}
		}
		return true
	}
	for _, p := range v.Players {
		if !ok(p.Hand) || !ok(p.Legal) {
			return false
		}
	}
	if !trickOK(v.Trick) || !listsOK(v.PointCards) {
		return false
	}
	for _, t := range v.Tricks {
		if !trickOK(t) {
			return false
		}
	}
	if r := v.LastRound; r != nil {
		for _, t := range r.Tricks {
			if !trickOK(t) {
				return false
			}
		}
		if !listsOK(r.Taken) || !listsOK(r.PointCards) {
			return false
		}
	}
	return true
}

// appendPlayers writes the players map with its keys sorted, as
// encoding/json does.
// AppendSeatEntry appends viewer's own entry of a view's players map, the
// one thing a seat's view has that the spectator's has not
// (games.SeatEntries): the room then builds Gong Zhu's view once per move
// for all five viewers, not once each.
func (Rules) AppendSeatEntry(b []byte, s State, viewer int) []byte {
	if viewer < 0 || viewer >= s.Seats || viewer >= len(s.Hands) {
		return b
	}
	p := PlayerView{Hand: cards.Sorted(s.Hands[viewer]), Legal: s.Legal(viewer)}
	if !validCards(p.Hand) || !validCards(p.Legal) {
		j, _ := json.Marshal(map[string]PlayerView{games.PlayerID(viewer): p})
		return append(b, j[1:len(j)-1]...)
	}
	return appendEntry(b, games.PlayerID(viewer), p)
}

func appendEntry(b []byte, k string, p PlayerView) []byte {
	b = games.AppendString(b, k)
	b = append(b, `:{"hand":`...)
	b = appendCards(b, p.Hand)
	b = append(b, `,"legal":`...)
	b = appendCards(b, p.Legal)
	return append(b, '}')
}

func appendPlayers(b []byte, ps map[string]PlayerView) []byte {
	if ps == nil {
		return append(b, "null"...)
	}
	var buf [4]string
	keys := buf[:0]
	for k := range ps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendEntry(b, k, ps[k])
	}
	return append(b, '}')
}

func appendTricks(b []byte, ts []TrickView) []byte { return games.AppendList(b, ts, appendTrick) }

func appendTrick(b []byte, t TrickView) []byte {
	b = append(b, `{"leader":`...)
	b = strconv.AppendInt(b, int64(t.Leader), 10)
	if t.LedSuit != "" {
		b = append(b, `,"ledSuit":`...)
		b = games.AppendString(b, t.LedSuit)
	}
	b = append(b, `,"plays":`...)
	b = appendPlays(b, t.Plays)
	b = append(b, `,"taker":`...)
	b = strconv.AppendInt(b, int64(t.Taker), 10)
	return append(b, '}')
}

func appendPlays(b []byte, ps []Play) []byte { return games.AppendList(b, ps, appendPlay) }

func appendPlay(b []byte, p Play) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(p.Seat), 10)
	b = append(b, `,"card":`...)
	b = appendCard(b, p.Card)
	return append(b, '}')
}

func appendHistoryRow(b []byte, h HistoryRow) []byte {
	b = appendRoundSummary(b, h.RoundSummary)
	b = b[:len(b)-1] // the summary's closing brace: the team members follow
	if len(h.TeamScores) > 0 {
		b = append(b, `,"teamScores":`...)
		b = appendInts(b, h.TeamScores)
	}
	if len(h.TeamTotals) > 0 {
		b = append(b, `,"teamTotals":`...)
		b = appendInts(b, h.TeamTotals)
	}
	return append(b, '}')
}

func appendScoreboard(b []byte, s Scoreboard) []byte {
	b = append(b, `{"rows":`...)
	if s.Rows == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, r := range s.Rows {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"rank":`...)
			b = strconv.AppendInt(b, int64(r.Rank), 10)
			b = append(b, `,"seat":`...)
			b = strconv.AppendInt(b, int64(r.Seat), 10)
			b = append(b, `,"lastRound":`...)
			b = strconv.AppendInt(b, int64(r.LastRound), 10)
			b = append(b, `,"total":`...)
			b = strconv.AppendInt(b, int64(r.Total), 10)
			if r.Team != nil {
				b = append(b, `,"team":`...)
				b = strconv.AppendInt(b, int64(*r.Team), 10)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(s.Teams) > 0 {
		b = append(b, `,"teams":[`...)
		for i, t := range s.Teams {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"rank":`...)
			b = strconv.AppendInt(b, int64(t.Rank), 10)
			b = append(b, `,"team":`...)
			b = strconv.AppendInt(b, int64(t.Team), 10)
			b = append(b, `,"seats":`...)
			b = appendInts(b, t.Seats)
			b = append(b, `,"lastRound":`...)
			b = strconv.AppendInt(b, int64(t.LastRound), 10)
			b = append(b, `,"total":`...)
			b = strconv.AppendInt(b, int64(t.Total), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendInts(b []byte, xs []int) []byte {
	return games.AppendList(b, xs, func(b []byte, x int) []byte { return strconv.AppendInt(b, int64(x), 10) })
}

func appendCardLists(b []byte, ls [][]cards.Card) []byte { return games.AppendList(b, ls, appendCards) }

func appendCards(b []byte, cs []cards.Card) []byte { return games.AppendList(b, cs, appendCard) }

// appendCard writes a valid card's wire code ("QS") as a JSON string.
func appendCard(b []byte, c cards.Card) []byte {
	b = append(b, '"')
	b = append(b, c.Rank.String()...)
	b = append(b, c.Suit.String()...)
	return append(b, '"')
}
