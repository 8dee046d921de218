package client

import (
	"errors"
	"fmt"
)

// APIError is a lobby request the server refused: any non-2xx status. Code
// and Message come from the body {"error":…,"message":…}; when the body is
// not that shape, Code is empty and Message holds the start of the body.
type APIError struct {
	Status  int    // HTTP status, e.g. 409
	Code    string // protocol code, e.g. "conflict"
	Message string // the server's human sentence
}

func (e *APIError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("chaguan lobby: HTTP %d: %s", e.Status, e.Message)
	}
	return fmt.Sprintf("chaguan lobby: HTTP %d %s: %s", e.Status, e.Code, e.Message)
}

// MoveError is an error message the server sent over the WebSocket in answer
// to one of this client's messages: a refused move (matched by its ref) or a
// refused hello.
type MoveError struct {
	Code      string // protocol code, e.g. "invalid_move"
	Message   string // English (or only) reason
	MessageZh string // Chinese reason, when the game gave one
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("chaguan: %s: %s", e.Code, e.Message)
}

// ErrClosed is returned by Conn methods once the connection is closed, by
// Close or by the server; Conn.Err says why when it was not Close.
var ErrClosed = errors.New("chaguan: connection closed")

// ErrDisconnected is returned by the Conn methods that send while a Conn
// dialled with Options.Reconnect is between sockets: the socket dropped and
// the Conn is connecting again (Status is StatusReconnecting). Such a call
// sent nothing. A move or Sync whose socket dropped before its answer came
// returns an error wrapping it too: that move may have been applied, which
// the state after the reconnect shows.
var ErrDisconnected = errors.New("chaguan: disconnected, reconnecting")

// IsCode reports whether err is an *APIError or *MoveError with that code.
func IsCode(err error, code string) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Code == code
	}
	var me *MoveError
	if errors.As(err, &me) {
		return me.Code == code
	}
	return false
}
