package rooms

import (
	"context"
	"encoding/json"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// Replay returns a match step by step as a spectator saw it:
// the record's seed and moves replayed through the rules, the spectator's
// view and ctx at every stateID, and the log entry of each move. Secrets
// stay hidden exactly as live: views are the spectator's, and secret
// arguments are left out of the log. A match still in play replays up to
// the present, which every spectator has seen already (a Gong Zhu table
// never ends). A record that lacks its moves is not_found.
//
// Steps come a page at a time: from the stateID from (1 is the start), at
// most limit of them (1 to MaxReplaySteps); Total says how many there
// are. A long match's views grow with it (a Gong Zhu table's scoreboard),
// so the whole of one could be far too much for a phone at once.
func (m *Manager) Replay(ctx context.Context, gameName, id string, from, limit int64) (protocol.Replay, error) {
	if from < 1 || limit < 1 || limit > MaxReplaySteps {
		return protocol.Replay{}, newError(protocol.CodeBadRequest, "from must be at least 1 and limit between 1 and %d", MaxReplaySteps)
	}
	rec, g, err := m.load(ctx, gameName, id)
	if err != nil {
		return protocol.Replay{}, err
	}
	if int64(len(rec.Moves)) != rec.Seq-1 {
		return protocol.Replay{}, newError(protocol.CodeNotFound, "this match was stored without its moves, so it cannot be replayed")
	}
	st, err := g.Setup(rec.NumPlayers, rec.SetupData, rec.Options.Seed)
	if err != nil {
		return protocol.Replay{}, AsError(err)
	}
	out := protocol.Replay{MatchID: rec.ID, GameName: rec.Game, Players: rec.players(), Total: rec.Seq, From: from,
		Steps: []protocol.ReplayStep{}}
	info := g.Info()
	// step adds the state at stateID if the page holds it.
	step := func(stateID int64, st games.State, entry *protocol.LogEntry) error {
		if stateID < from || stateID >= from+limit {
			return nil
		}
		view, err := st.AppendView(nil, games.Spectator)
		if err != nil {
			return err
		}
		status := st.Status()
		// The ctx as the live match wrote it: every seat taken, the
		// outcome once there is one.
		at := Record{NumPlayers: rec.NumPlayers, Seats: rec.Seats}
		if status.Outcome != nil {
			if at.Gameover, err = json.Marshal(status.Outcome); err != nil {
				return err
			}
		}
		out.Steps = append(out.Steps, protocol.ReplayStep{
			StateID: stateID, G: view, Ctx: at.wireCtx(status), Log: entry,
		})
		return nil
	}
	if err := step(1, st, nil); err != nil {
		return protocol.Replay{}, AsError(err)
	}
	for i, mv := range rec.Moves {
		stateID := int64(i) + 2
		if stateID >= from+limit {
			break
		}
		before := st.Status()
		if st, err = st.Apply(mv.Seat, mv.Move, mv.Args); err != nil {
			return protocol.Replay{}, newError(protocol.CodeInternal, "move %d does not replay: %v", i+1, err)
		}
		entry := moveLogEntry(info, before, mv.Seat, mv.Move, mv.Args)
		if mv.Timeout { // as the clocks counted it: the seat's timeouts in a row
			entry.Text = timeoutText(timeoutCount(rec.Moves[:i], mv.Seat) + 1)
		}
		if err := step(stateID, st, &entry); err != nil {
			return protocol.Replay{}, AsError(err)
		}
	}
	return out, nil
}

// MaxReplaySteps is the most steps one replay page holds.
const MaxReplaySteps = 500

// moveLogEntry is the public log entry of a move: its arguments are left
// out when the game keeps them secret.
func moveLogEntry(info games.Info, before games.Status, seat int, name string, args json.RawMessage) protocol.LogEntry {
	entry := protocol.LogEntry{Turn: before.Turn, PlayerID: games.PlayerID(seat), Move: name}
	if spec, _ := info.Move(name); !spec.SecretArgs && len(args) > 0 && string(args) != "[]" {
		entry.Args = args
	}
	return entry
}

// timeoutCount is how many of seat's last moves in moves were timeouts in
// a row.
func timeoutCount(moves []MoveRecord, seat int) int {
	n := 0
	for i := len(moves) - 1; i >= 0; i-- {
		if moves[i].Seat != seat {
			continue
		}
		if !moves[i].Timeout {
			break
		}
		n++
	}
	return n
}
