package rooms

import (
	"context"
	"errors"
	"fmt"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// Error is the one typed application error of rooms. Code is a protocol
// error code; the server maps it to an HTTP status or a wire error in one
// place. Message never holds a credential or another seat's secret.
type Error struct {
	Code      string
	Message   string
	MessageZh string // the game's Chinese reason, when it gave one
	cause     error
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Unwrap gives errors.Is access to the cause (games.ErrInvalidMove, …).
func (e *Error) Unwrap() error { return e.cause }

// Frame encodes e as the wire error message; ref echoes the move's id.
func (e *Error) Frame(ref *int64) []byte {
	return mustMarshal(protocol.Error{Type: protocol.TypeError, Code: e.Code, Message: e.Message, MessageZh: e.MessageZh, Ref: ref})
}

func newError(code, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...)}
}

// AsError turns any error from rooms, a store or a game into an *Error.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var me *games.MoveError
	switch {
	case errors.As(err, &me):
		return &Error{Code: protocol.CodeInvalidMove, Message: me.Reason.En, MessageZh: me.Reason.Zh, cause: err}
	case errors.Is(err, games.ErrInvalidMove):
		return &Error{Code: protocol.CodeInvalidMove, Message: err.Error(), cause: err}
	case errors.Is(err, games.ErrUnknownMove):
		return &Error{Code: protocol.CodeUnknownMove, Message: err.Error(), cause: err}
	case errors.Is(err, games.ErrNotYourTurn):
		return &Error{Code: protocol.CodeNotYourTurn, Message: "it is not your turn", MessageZh: "还没轮到你", cause: err}
	case errors.Is(err, games.ErrGameOver):
		return &Error{Code: protocol.CodeGameOver, Message: "the game is over", MessageZh: "对局已结束", cause: err}
	case errors.Is(err, games.ErrBadSetup), errors.Is(err, games.ErrNoBot):
		return &Error{Code: protocol.CodeBadRequest, Message: err.Error(), cause: err}
	case errors.Is(err, ErrNotFound):
		return &Error{Code: protocol.CodeNotFound, Message: "no such match", cause: err}
	case errors.Is(err, ErrConflict):
		return &Error{Code: protocol.CodeConflict, Message: "the match changed meanwhile; try again", cause: err}
	case errors.Is(err, ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: protocol.CodeUnavailable, Message: "storage is unavailable; try again in a moment",
			MessageZh: "存储暂时不可用，请稍后再试", cause: err}
	}
	return &Error{Code: protocol.CodeInternal, Message: "internal error", cause: err}
}
