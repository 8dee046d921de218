package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"

	"github.com/labstack/echo/v4"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// httpStatus maps a wire error code to the lobby's HTTP status: the one
// place where codes meet statuses.
func httpStatus(code string) int {
	switch code {
	case protocol.CodeBadRequest, protocol.CodeInvalidMove, protocol.CodeUnknownMove:
		return http.StatusBadRequest
	case protocol.CodeUnauthorized, protocol.CodeForbidden:
		return http.StatusForbidden
	case protocol.CodeNotFound:
		return http.StatusNotFound
	case protocol.CodeConflict, protocol.CodeNotStarted, protocol.CodeStaleState, protocol.CodeGameOver, protocol.CodeNotYourTurn:
		return http.StatusConflict
	case protocol.CodeRateLimited:
		return http.StatusTooManyRequests
	case protocol.CodeUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// fail writes the error body of docs/protocol.md ("Errors") for err.
func (s *Server) fail(c echo.Context, err error) error {
	e := rooms.AsError(err)
	if e.Code == protocol.CodeInternal {
		s.log.Error("internal error", "path", c.Path(), "err", err)
	}
	s.metrics.MoveRefused(e.Code)
	if e.Code == protocol.CodeUnavailable {
		// Busy or briefly down: worth trying again soon.
		c.Response().Header().Set("Retry-After", retryAfter)
	}
	return c.JSON(httpStatus(e.Code), protocol.ErrorBody{Error: e.Code, Message: e.Message})
}

// retryAfter is the Retry-After (seconds) of a 503.
const retryAfter = "2"

func badRequest(format string, a ...any) error {
	return &rooms.Error{Code: protocol.CodeBadRequest, Message: fmt.Sprintf(format, a...)}
}

// httpError handles Echo's own errors (unknown route, oversized body, …)
// in the same body shape.
func (s *Server) httpError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		code := protocol.CodeBadRequest
		switch he.Code {
		case http.StatusNotFound:
			code = protocol.CodeNotFound
		case http.StatusMethodNotAllowed:
			code = protocol.CodeNotFound
		case http.StatusRequestEntityTooLarge:
			code = protocol.CodeBadRequest
		case http.StatusInternalServerError:
			code = protocol.CodeInternal
		}
		_ = c.JSON(he.Code, protocol.ErrorBody{Error: code, Message: fmt.Sprint(he.Message)})
		return
	}
	_ = s.fail(c, err)
}

// recoverMiddleware turns a handler panic into a 500; the process lives on.
func (s *Server) recoverMiddleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("panic in handler", "path", c.Path(), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				err = &rooms.Error{Code: protocol.CodeInternal, Message: "internal error"}
			}
		}()
		return next(c)
	}
}

// bodyLimit refuses request bodies over n bytes with 413.
func bodyLimit(n int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.ContentLength > n {
				return c.JSON(http.StatusRequestEntityTooLarge, protocol.ErrorBody{Error: protocol.CodeBadRequest, Message: fmt.Sprintf("body larger than %d bytes", n)})
			}
			r.Body = http.MaxBytesReader(c.Response(), r.Body, n)
			return next(c)
		}
	}
}

// readAll reads a limited body, mapping the limit to bad_request.
func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, badRequest("body larger than %d bytes", mbe.Limit)
		}
		return nil, badRequest("cannot read body: %v", err)
	}
	return b, nil
}
