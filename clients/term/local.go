package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server"
)

// localBotDelay is the in-process server's pause before its bot moves, as
// on a real server (main.go's -bot-delay default): a reply that lands at
// once is hard to follow.
const localBotDelay = 300 * time.Millisecond

// localServer is a whole Chaguan server in this process, on a loopback
// port, with the in-memory store: what a game in this terminal plays on
// when no -join names a running one. It is the only place the terminal
// client touches rooms and server (the wiring main.go does for the real
// server); everything else talks to it over HTTP and WebSocket, exactly as
// to a remote server, so the rules are the server's and nothing is copied.
type localServer struct {
	URL string // http://127.0.0.1:port

	store *memstore.Store
	mgr   *rooms.Manager
	h     *server.Server
	srv   *http.Server
}

// startLocal starts the in-process server. Nothing it runs logs to the
// terminal (its loggers discard), which the full-screen UI owns.
func startLocal() (*localServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("local server: %w", err)
	}
	st := memstore.New(memstore.Options{})
	mgr := rooms.New(rooms.Config{Store: st, Games: all.Registry(), BotDelay: localBotDelay})
	h := server.New(server.Config{Rooms: mgr})
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	// Serve ends with ErrServerClosed at Close; any other end closes the
	// WebSockets, which the UI shows.
	go func() { _ = srv.Serve(ln) }()
	return &localServer{URL: "http://" + ln.Addr().String(), store: st, mgr: mgr, h: h, srv: srv}, nil
}

// Close drains the WebSockets, stops the HTTP server and the rooms.
func (l *localServer) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	l.h.Shutdown(ctx)
	_ = l.srv.Shutdown(ctx)
	l.mgr.Close()
	_ = l.store.Close()
}
