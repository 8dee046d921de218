package protocol

import "encoding/json"

// Replay is the body of GET /games/{name}/{id}/replay (an extension): a
// finished match step by step, each step what a spectator saw at that
// stateID. Secret move arguments stay out of the log, as they did live.
//
// Steps come a page at a time (?from=stateID&limit=n, at most 500 steps
// and about 1 MiB of them, so a page may hold fewer steps than asked):
// Total is how many steps the match has (its last stateID), From the
// stateID of the page's first step, Next the stateID the next page
// starts at (0 when this page reaches the last step).
type Replay struct {
	MatchID  string       `json:"matchID"`
	GameName string       `json:"gameName"`
	Players  []Player     `json:"players"`
	Total    int64        `json:"total"`
	From     int64        `json:"from"`
	Next     int64        `json:"next,omitempty"`
	Steps    []ReplayStep `json:"steps"`
}

// ReplayStep is the match at one stateID: the spectator's view, the ctx,
// and the log entry of the move that made it (none for the first step).
type ReplayStep struct {
	StateID int64           `json:"stateID"`
	G       json.RawMessage `json:"G"`
	Ctx     Ctx             `json:"ctx"`
	Log     *LogEntry       `json:"log,omitempty"`
}
