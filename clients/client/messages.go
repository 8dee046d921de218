package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chaguan/chaguan/protocol"
)

// Move sends move name with args (each encoded as JSON, e.g. Move(ctx,
// "place", 7, 7)) under a fresh id and waits for the state whose ack is that
// id, which it returns, or for the error whose ref is that id, returned as a
// *MoveError. If ctx ends first it returns ctx's error; the move may still
// be applied.
func (c *Conn) Move(ctx context.Context, name string, args ...any) (*protocol.State, error) {
	return c.move(ctx, nil, name, args)
}

// MoveAt is Move with the optional stateID check: the server refuses the move
// with stale_state unless stateID is its current state.
func (c *Conn) MoveAt(ctx context.Context, stateID int64, name string, args ...any) (*protocol.State, error) {
	return c.move(ctx, &stateID, name, args)
}

func (c *Conn) move(ctx context.Context, stateID *int64, name string, args []any) (*protocol.State, error) {
	if args == nil {
		args = []any{}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("chaguan: move %s: encode args: %w", name, err)
	}
	id := c.nextID.Add(1)
	msg := protocol.ClientMessage{Type: protocol.TypeMove, ID: &id, Move: name, Args: raw, StateID: stateID}
	return c.await(ctx, msg, &id)
}

// Sync asks for the full current view and returns the next state received
// after the request was sent. While the match changes, that may be a state
// the server sent before it read the request (the answer follows it): to
// wait for a given state, watch Latest or States instead.
func (c *Conn) Sync(ctx context.Context) (*protocol.State, error) {
	return c.await(ctx, protocol.ClientMessage{Type: protocol.TypeSync}, nil)
}

// Chat sends a chat line. It returns once the line is queued; a refusal
// arrives on Errors.
func (c *Conn) Chat(ctx context.Context, text string) error {
	return c.sendMsg(ctx, protocol.ClientMessage{Type: protocol.TypeChat, Text: text})
}

// Autoplay asks the server's bot to play this seat (on) or to stop. It
// returns once the request is queued; the players list of the next state
// shows the change.
func (c *Conn) Autoplay(ctx context.Context, on bool) error {
	return c.sendMsg(ctx, protocol.ClientMessage{Type: protocol.TypeAutoplay, On: &on})
}

// await sends msg and waits for its answer: the ack or ref of id when id is
// not nil, else (sync) the next state. While the Conn reconnects it sends
// nothing and returns ErrDisconnected at once.
func (c *Conn) await(ctx context.Context, msg protocol.ClientMessage, id *int64) (*protocol.State, error) {
	b, err := json.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("chaguan: encode %s: %w", msg.Type, err)
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	s, err := c.live(msg.Type)
	if err != nil {
		c.mu.Unlock()
		return nil, err
	}
	if id != nil {
		c.waiters[*id] = ch
	} else {
		c.syncs = append(c.syncs, ch)
	}
	c.mu.Unlock()
	if id != nil {
		defer func() {
			c.mu.Lock()
			delete(c.waiters, *id)
			c.mu.Unlock()
		}()
	}
	// A socket that ends now answers ch with its failure (detach), so
	// sending into its queue cannot lose the call.
	select {
	case s.out <- b:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.closing:
	}
	select {
	case r := <-ch:
		return r.result()
	case <-ctx.Done():
		// The answer may have come in the same instant: a move the server
		// played is never reported as unanswered when its ack is here.
		select {
		case r := <-ch:
			return r.result()
		default:
		}
		return nil, ctx.Err()
	}
}

// live returns the socket to send a message of type typ on, or why there
// is none: the Conn ended (Err) or is reconnecting (ErrDisconnected). c.mu
// must be held.
func (c *Conn) live(typ string) (*socket, error) {
	switch {
	case c.cause != nil:
		return nil, c.cause
	case c.sock == nil:
		return nil, fmt.Errorf("%w: the %s was not sent", ErrDisconnected, typ)
	}
	return c.sock, nil
}

func (r reply) result() (*protocol.State, error) {
	switch {
	case r.fail != nil:
		return nil, r.fail
	case r.err != nil:
		return nil, &MoveError{Code: r.err.Code, Message: r.err.Message, MessageZh: r.err.MessageZh}
	}
	return r.st, nil
}

// sendMsg queues one frame for the writer of the live socket.
func (c *Conn) sendMsg(ctx context.Context, msg protocol.ClientMessage) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("chaguan: encode %s: %w", msg.Type, err)
	}
	c.mu.Lock()
	s, err := c.live(msg.Type)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	select {
	case <-s.closing:
		return c.ended(msg.Type)
	default:
	}
	select {
	case s.out <- b:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.closing:
		return c.ended(msg.Type)
	}
}

// ended is the error of a message of type typ that found its socket
// ending: ErrDisconnected while the Conn will reconnect, else the Conn's
// Err once it has ended.
func (c *Conn) ended(typ string) error {
	if c.opts.Reconnect && !c.closed() {
		return fmt.Errorf("%w: the %s was not sent", ErrDisconnected, typ)
	}
	<-c.done
	return c.Err()
}

// syncFrame asks the server for the full current view.
var syncFrame = []byte(`{"type":"sync"}`)

// maxHeldAcks bounds the acks of skipped patches kept for the state that
// answers a sync.
const maxHeldAcks = 256

// patchState is what the reader of one socket keeps for patches.
type patchState struct {
	view      View
	resyncing bool    // a sync was sent for a gap: patches wait for the state
	held      []int64 // acks of the patches skipped meanwhile: that state answers them
}

// dispatch routes one server frame of socket s (nil in tests: no
// patches); it runs on s's reader goroutine and never blocks. Frames it
// cannot decode and unknown types are ignored (extensions are allowed on
// the wire).
func (c *Conn) dispatch(s *socket, data []byte) {
	var m inbound
	if json.Unmarshal(data, &m) != nil {
		return
	}
	switch m.Type {
	case protocol.TypeState:
		st := &m.State
		if s == nil || !c.opts.Patches {
			c.onState(st)
			return
		}
		// The view held from now on; a state that cannot be held (never one
		// the server writes) makes the next patch ask for another.
		pv := &s.pv
		_ = pv.view.setState(data, st)
		held := pv.held
		pv.resyncing, pv.held = false, nil
		c.onState(st)
		for _, id := range held {
			c.answer(id, st)
		}
	case protocol.TypePatch:
		if s != nil && c.opts.Patches {
			c.onPatch(s, &m)
		}
	case protocol.TypeError:
		c.onError(&protocol.Error{
			Type: m.Type, Code: m.Code, Message: m.Message, MessageZh: m.MessageZh, Ref: m.Ref,
		})
	case protocol.TypeChat:
		pushNewest(c.chats, &protocol.Chat{Type: m.Type, From: m.From, Name: m.Name, Text: m.Text, At: m.At})
	}
}

// onPatch applies patch message m to the view s holds and delivers the
// state it makes; on a gap, or a patch that does not apply, it asks for a
// sync and skips patches until the state answering it, keeping their acks
// for that state.
func (c *Conn) onPatch(s *socket, m *inbound) {
	pv := &s.pv
	if !pv.resyncing {
		p := protocol.Patch{Type: m.Type, StateID: m.StateID, Base: m.Base, Ack: m.Ack, Ops: m.Ops}
		err := pv.view.Apply(&p)
		var st *protocol.State
		if err == nil {
			st, err = pv.view.State(m.Ack)
		}
		if err == nil {
			c.patched.Add(1)
			c.onState(st)
			return
		}
		pv.resyncing = true
		pv.view.Reset()
		c.resyncs.Add(1)
		select {
		case s.wantSync <- struct{}{}:
		default: // one is already asked for
		}
	}
	if m.Ack != nil && len(pv.held) < maxHeldAcks {
		pv.held = append(pv.held, *m.Ack)
	}
}

// answer gives the move waiting for id (if any) st as its answer.
func (c *Conn) answer(id int64, st *protocol.State) {
	c.mu.Lock()
	w := c.waiters[id]
	delete(c.waiters, id)
	c.mu.Unlock()
	if w != nil {
		w <- reply{st: st}
	}
}

func (c *Conn) onState(st *protocol.State) {
	c.mu.Lock()
	c.latest = st
	var w chan reply
	if st.Ack != nil {
		w = c.waiters[*st.Ack]
		delete(c.waiters, *st.Ack)
	}
	syncs, hello := c.syncs, c.hello
	c.syncs, c.hello = nil, nil
	c.mu.Unlock()
	// Each channel has room for its one reply: these sends never block.
	if w != nil {
		w <- reply{st: st}
	}
	for _, s := range syncs {
		s <- reply{st: st}
	}
	if hello != nil {
		hello <- reply{st: st}
	}
	if c.opts.observe != nil {
		c.opts.observe(st)
	}
	pushNewest(c.states, st)
}

func (c *Conn) onError(e *protocol.Error) {
	c.mu.Lock()
	var w chan reply
	if e.Ref != nil {
		w = c.waiters[*e.Ref]
		delete(c.waiters, *e.Ref)
	} else if c.hello != nil {
		w, c.hello = c.hello, nil
	}
	c.mu.Unlock()
	if w != nil {
		w <- reply{err: e}
		return
	}
	pushNewest(c.errs, e)
}

// pushNewest puts v into ch, dropping the oldest entry when ch is full. ch
// must have a single sender (the reader), so the loop ends in two rounds.
func pushNewest[T any](ch chan T, v T) {
	for {
		select {
		case ch <- v:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
	}
}
