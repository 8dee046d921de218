package rooms

import (
	"context"
	"encoding/json"
	"time"

	"github.com/chaguan/chaguan/protocol"
)

// Kind says what a message is, so that a sink that falls behind knows
// which queued messages a newer one makes redundant without reading them.
type Kind uint8

// The kinds of messages a room sends.
const (
	// KindOther is an error, a chat line or anything else: kept, in order.
	KindOther Kind = iota
	// KindState is a whole view without ack: any later state message for
	// the same viewer makes it redundant.
	KindState
	// KindAckedState is a whole view that answers the viewer's own move:
	// kept, so the answer is never lost.
	KindAckedState
	// KindPatch is a patch without ack: it applies to the view the message
	// before it made, so it is never dropped alone.
	KindPatch
	// KindAckedPatch is a patch that answers the viewer's own move.
	KindAckedPatch
)

// stateKind is the kind of a state message with ack (nil for none).
func stateKind(ack *int64) Kind {
	if ack != nil {
		return KindAckedState
	}
	return KindState
}

// patchKind is the kind of a patch message with ack (nil for none).
func patchKind(ack *int64) Kind {
	if ack != nil {
		return KindAckedPatch
	}
	return KindPatch
}

// Sink receives the encoded messages of one connection, each with its
// Kind. Send must not block: it returns false when the connection cannot
// keep up, and the room then drops the viewer and calls Close. Both are
// called from the room's goroutine only.
//
// A sink that falls behind may drop the queued messages Droppable names
// once a newer KindState message is queued, rather than give up: the
// viewer then sees the latest state, not each one in between. It must
// keep every other message (acked states, patches, errors, chat) in order.
type Sink interface {
	Send(msg []byte, kind Kind) bool
	Close()
}

// Resyncer is a Sink that can bring a patch viewer that fell behind up to
// date instead of dropping it. When Send refuses a patch (the queue is
// full), the room calls Resync with the viewer's whole view as a state
// message of the given kind: the sink removes the queued messages that
// only carried views (ResyncDroppable), queues the state and returns
// true; it returns false, changing nothing, when a queued view carried an
// ack (the answer to a move, which must not be lost) or when that leaves
// no room. The room then drops the viewer as before.
type Resyncer interface {
	Resync(state []byte, kind Kind) bool
}

// ResyncDroppable reports, for the kinds of a patch viewer's queued
// messages (oldest first), which a whole state queued after them makes
// redundant: a patch or a state without ack. ok is false when a queued
// patch or state carries an ack, which a resync would lose.
func ResyncDroppable(queue []Kind) (drop []bool, ok bool) {
	drop = make([]bool, len(queue))
	for i, k := range queue {
		switch k {
		case KindAckedPatch, KindAckedState:
			return nil, false
		case KindPatch, KindState:
			drop[i] = true
		}
	}
	return drop, true
}

// Droppable reports, for the kinds of a sink's queued messages (oldest
// first), which a newer state message queued after them all makes
// redundant: a state message without ack, unless the next state or patch
// message after it is a patch, which applies to it. Patches never are:
// each applies to what the one before it made.
func Droppable(queue []Kind) []bool {
	out := make([]bool, len(queue))
	patchNext := false // the nearest state or patch after i is a patch
	for i := len(queue) - 1; i >= 0; i-- {
		switch queue[i] {
		case KindPatch, KindAckedPatch:
			patchNext = true
		case KindState:
			out[i] = !patchNext
			patchNext = false
		case KindAckedState:
			patchNext = false
		}
	}
	return out
}

// Hello is who a connection says it is.
type Hello struct {
	PlayerID    *string // nil to spectate
	Credentials string
	Name        string // a spectator's chat name (optional)
	// Patches asks for patch messages after the first state instead of a
	// whole state on every change (docs/api.md, "Patches").
	Patches bool
}

// Viewer is one live connection to a match. Its methods may be called from
// any goroutine (normally the connection's reader); each posts a command to
// the room and never blocks. Results and refusals reach the Sink.
type Viewer struct {
	m    *Manager
	r    *room
	sink Sink
	// patches: the connection takes patch messages (Hello.Patches).
	patches bool
	// seat, credHash, name and sent are owned by the room goroutine.
	seat     int
	credHash string
	name     string
	sent     sentView // what a patch viewer holds: the last view sent to it
}

// Connect attaches a connection to a match. On success the room has already
// queued the first state message on sink. Wrong credentials give an
// unauthorized error; an unknown match not_found.
func (m *Manager) Connect(ctx context.Context, gameName, id string, h Hello, sink Sink) (*Viewer, error) {
	g, err := m.game(gameName)
	if err != nil {
		return nil, err
	}
	v := &Viewer{m: m, sink: sink, seat: -1, patches: h.Patches}
	reply := make(chan error, 1)
	if err := m.post(id, g, cmdConnect{v: v, hello: h, game: gameName, reply: reply}); err != nil {
		return nil, err
	}
	select {
	case err := <-reply:
		if err != nil {
			return nil, err
		}
		return v, nil
	case <-ctx.Done():
		go func() { // the room may still attach it: detach when it does
			if err := <-reply; err == nil {
				v.Close()
			}
		}()
		return nil, newError(protocol.CodeUnavailable, "timed out joining the room")
	}
}

func (v *Viewer) post(cmd command) error { return v.r.offer(cmd) }

// Move asks to play a move; id is the client's counter (echoed as ack or
// ref), stateID the optional state the client saw.
func (v *Viewer) Move(id *int64, name string, args json.RawMessage, stateID *int64) error {
	return v.post(cmdMove{v: v, id: id, name: name, args: args, stateID: stateID, at: time.Now()})
}

// Sync asks for the full current view.
func (v *Viewer) Sync() error { return v.post(cmdSync{v: v}) }

// Chat sends a chat line to everyone watching the match, cleaned as names
// are (no controls, direction overrides or zero-width characters; spaces
// folded), so a line cannot disguise itself or garble the page.
func (v *Viewer) Chat(text string) error {
	text = cleanName(text)
	if !validChat(text) || !hasVisible(text) {
		return newError(protocol.CodeBadRequest, "chat text must be 1 to %d characters with something visible", protocol.MaxChat)
	}
	return v.post(cmdChat{v: v, text: text})
}

// Autoplay turns the server's bot on or off for the viewer's seat.
func (v *Viewer) Autoplay(on bool) error { return v.post(cmdAutoplay{v: v, on: on}) }

// Close detaches the viewer. It is safe to call more than once; the room
// will not call the sink after it has processed the close.
func (v *Viewer) Close() {
	// A full inbox must not leak the viewer: fall back to a blocking send
	// bounded by the manager's life.
	select {
	case v.r.inbox <- cmdDisconnect{v: v}:
	default:
		go func() {
			select {
			case v.r.inbox <- cmdDisconnect{v: v}:
			case <-v.r.done:
			case <-v.m.ctx.Done():
			}
		}()
	}
}

type command interface{}

type (
	cmdDepart  struct{} // the process stops: its players leave (Manager.Close)
	cmdRecord  struct{ rec *Record }
	cmdConnect struct {
		v     *Viewer
		hello Hello
		game  string
		reply chan error
	}
	cmdDisconnect struct{ v *Viewer }
	cmdMove       struct {
		v       *Viewer
		id      *int64
		name    string
		args    json.RawMessage
		stateID *int64
		at      time.Time
	}
	cmdSync struct{ v *Viewer }
	cmdChat struct {
		v    *Viewer
		text string
	}
	cmdAutoplay struct {
		v  *Viewer
		on bool
	}
	botResult struct {
		version int64
		stateID int64 // the Record.StateID the bot decided at
		seat    int
		name    string
		args    json.RawMessage
		err     error
		// thinking: not an answer but the news that an Engine is taking
		// a while (bots.go).
		thinking bool
		reason   string                // the Engine's reason (LogEntry.BotReason)
		fallback *protocol.LogFallback // the fallback level played instead
	}
)
