package main

import "github.com/chaguan/chaguan/protocol"

// What a lean Gong Zhu seat reads from its view: the first card of
// G.players[me].legal. A seat's view holds only its own entry in
// "players" (a spectator's holds none), so the scan takes the first entry
// that has a legal card without needing to know the seat.

// cardCodes maps every card's wire code (rank 23456789TJQKA, suit SHDC) to
// itself, so that the scan names a card without allocating and ignores
// anything that is not one.
var cardCodes = func() map[string]string {
	m := make(map[string]string, 52)
	for _, r := range "23456789TJQKA" {
		for _, s := range "SHDC" {
			code := string(r) + string(s)
			m[code] = code
		}
	}
	return m
}()

// scanLegal sets v.card to the first legal card in G.players, or leaves
// it empty when there is none (not this seat's turn, or a spectator).
func scanLegal(g []byte, v *view) {
	if players, ok := member(g, "players"); ok {
		scanPlayers(players, v)
	}
}

// scanPlayers is scanLegal from G.players.
func scanPlayers(players []byte, v *view) { v.card = firstLegal(players) }

// firstLegal returns the first card of the first "legal" array among the
// members of the players object, or "".
func firstLegal(players []byte) string {
	it := members{b: players}
	for {
		_, entry, ok := it.next()
		if !ok {
			return ""
		}
		if c := legalOf(entry); c != "" {
			return c
		}
	}
}

// legalOf returns the first card of the "legal" array of one player's
// entry, or "".
func legalOf(entry []byte) string {
	val, ok := member(entry, "legal")
	// val is ["QS","2C",…] (or null); card codes need no escapes.
	if !ok || val[0] != '[' {
		return ""
	}
	i := protocol.SkipSpace(val, 1)
	if i >= len(val) || val[i] != '"' {
		return ""
	}
	end := skipString(val, i)
	if end < 0 {
		return ""
	}
	return cardCodes[string(val[i+1:end-1])]
}
