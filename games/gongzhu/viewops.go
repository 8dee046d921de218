package gongzhu

import (
	"slices"
	"strconv"

	"github.com/chaguan/chaguan/games"
)

// AppendViewOps implements games.ViewPatcher for the spectators' view,
// within a round: a card played adds to the trick's plays (or, when it
// leads, replaces the trick: its led suit appears), a trick taken adds to
// the finished tricks and may change a seat's point cards and the round's
// scores, and the match's opening lead goes. A round's end changes its
// tail (lastRound, the history, the 榜) and most of the rest: that, a
// seat's view (its hand and legal cards, which the framework adds to the
// spectators' operations itself: games.SeatEntries) and anything else
// unexpected are left to the diff.
func (Rules) AppendViewOps(b []byte, prev, next State, viewer int, prefix string) ([]byte, bool) {
	if viewer != games.Spectator || prev.Seats != next.Seats || prev.Round != next.Round ||
		prev.FirstLeader != next.FirstLeader || prev.LastRound != next.LastRound ||
		len(prev.History) != len(next.History) || !slices.Equal(prev.Totals, next.Totals) ||
		len(next.Tricks) < len(prev.Tricks) || (!prev.Opening.Valid() && next.Opening.Valid()) {
		return b, false
	}
	for i := range prev.Tricks {
		if !sameTrick(prev.Tricks[i], next.Tricks[i]) {
			return b, false
		}
	}
	// Cards that cannot be encoded make the view go through json.Marshal
	// (View.AppendJSON): leave those to the diff too.
	if !playsValid(next.Trick.Plays) {
		return b, false
	}
	for _, t := range next.Tricks[len(prev.Tricks):] {
		if !playsValid(t.Plays) {
			return b, false
		}
	}
	start := len(b)
	op := func(kind, path string) { b = games.AppendPatchOp(b, start, kind, prefix, path) }
	if prev.Opening.Valid() && !next.Opening.Valid() {
		op("remove", "/openingLead")
		b = append(b, '}')
	}
	tp, tn := prev.Trick, next.Trick
	if tp.Leader == tn.Leader && tp.Taker == tn.Taker && len(tp.Plays) > 0 &&
		len(tn.Plays) >= len(tp.Plays) && slices.Equal(tp.Plays, tn.Plays[:len(tp.Plays)]) {
		for _, p := range tn.Plays[len(tp.Plays):] {
			op("add", "/trick/plays/-")
			b = appendPlay(b, p)
			b = append(b, '}')
		}
	} else if !sameTrick(tp, tn) {
		op("replace", "/trick")
		b = appendTrick(b, trickView(tn))
		b = append(b, '}')
	}
	if len(next.Tricks) > len(prev.Tricks) {
		for _, t := range next.Tricks[len(prev.Tricks):] {
			op("add", "/tricks/-")
			b = appendTrick(b, trickView(t))
			b = append(b, '}')
		}
		// The new tricks' takers may have taken point cards.
		before, after := prev.Taken(), next.Taken()
		for seat := range after {
			pb, pa := PointCards(before[seat]), PointCards(after[seat])
			if !slices.Equal(pb, pa) {
				op("replace", "/pointCards/"+strconv.Itoa(seat))
				b = appendCards(b, pa)
				b = append(b, '}')
			}
		}
		sb, sa := ScoreRound(before), ScoreRound(after)
		for seat := range sa {
			if sa[seat] != sb[seat] {
				op("replace", "/roundScores/"+strconv.Itoa(seat))
				b = strconv.AppendInt(b, int64(sa[seat]), 10)
				b = append(b, '}')
			}
		}
	}
	return b, true
}

// sameTrick reports whether a and b are the same trick.
func sameTrick(a, b Trick) bool {
	return a.Leader == b.Leader && a.Taker == b.Taker && slices.Equal(a.Plays, b.Plays)
}
