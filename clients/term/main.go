// Command term is weiqi (围棋) in the terminal: seed 003's board, keys and
// cinnabar seal as a client of a Chaguan server. The rules are the
// server's (games/weiqi); this program only draws the view it is sent and
// sends moves.
//
//	go run ./clients/term                      # 19x19 hot-seat, two players at this terminal
//	go run ./clients/term -size 9              # 9x9 (or 13)
//	go run ./clients/term -bot normal          # black against the server's bot
//	go run ./clients/term -join http://host:8080/m/weiqi/<matchID>
//	go run ./clients/term -server http://host:8080 -match <matchID> -spectate
//
// Without -join it runs a whole server in this process (loopback only, in
// memory) and plays there; with -join it takes a free seat in a room of a
// running server, next to a browser player, or watches when none is free.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
)

// setupWait bounds starting the local server, creating the match and
// connecting.
const setupWait = 15 * time.Second

// options are the command line.
type options struct {
	size     int
	komi     float64
	bot      string
	join     string
	server   string
	match    string
	spectate bool
	name     string
	lang     lang
}

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

// run is the whole program; it returns the exit status: 0 after a game,
// 1 when setting up or running failed, 2 for bad flags or a terminal too
// small for the board.
func run(args []string, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "term:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), setupWait)
	defer cancel()

	base, id := o.server, o.match
	if o.join != "" {
		if base, id, err = parseJoin(o.join); err != nil {
			fmt.Fprintln(stderr, "term:", err)
			return 2
		}
	}
	if base != "" {
		if o.size, err = matchSize(ctx, base, id); err != nil {
			fmt.Fprintln(stderr, "term:", err)
			return 1
		}
	}
	if msg := checkTerminal(o.size, o.lang); msg != "" {
		fmt.Fprintln(stderr, msg)
		return 2
	}

	var s *session
	if base != "" {
		s, err = joinMatch(ctx, base, id, seatNames(o)[0], o.spectate)
	} else {
		var local *localServer
		if local, err = startLocal(); err == nil {
			defer local.Close()
			s, err = newMatch(ctx, local.URL, setup{size: o.size, komi: o.komi, bot: o.bot, names: seatNames(o)})
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "term:", err)
		return 1
	}
	defer s.be.Close()
	cancel()

	m := newModel(s.mode, s.seats, o.lang, s.be, s.first)
	if _, err := tea.NewProgram(m).Run(); err != nil {
		fmt.Fprintln(stderr, "term:", err)
		return 1
	}
	return 0
}

// parseFlags reads and checks the command line.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("term", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.size, "size", 19, "board size: 9, 13 or 19 (a new game only)")
	fs.Float64Var(&o.komi, "komi", 7.5, "komi for white (a new game only)")
	fs.StringVar(&o.bot, "bot", "", "play black against the server's bot at this level (easy, normal); empty: hot-seat")
	fs.StringVar(&o.join, "join", "", "the web client's invite link, http://host:8080/m/weiqi/<matchID>: take a free seat there")
	fs.StringVar(&o.server, "server", "", "a running server's URL, with -match (instead of -join)")
	fs.StringVar(&o.match, "match", "", "the match ID on -server")
	fs.BoolVar(&o.spectate, "spectate", false, "with -join or -server: watch, take no seat")
	fs.StringVar(&o.name, "name", "", "your player name (default $USER; in hot-seat: Black and White)")
	langFlag := fs.String("lang", "", "zh or en (default: zh when LC_ALL, LC_MESSAGES or LANG starts with zh, else en)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var err error
	if o.lang, err = parseLang(*langFlag); err != nil {
		return o, err
	}
	switch {
	case o.size != 9 && o.size != 13 && o.size != 19:
		return o, fmt.Errorf("-size %d: want 9, 13 or 19", o.size)
	case o.join != "" && (o.server != "" || o.match != ""):
		return o, errors.New("-join and -server/-match name the same thing: use one")
	case (o.server == "") != (o.match == ""):
		return o, errors.New("-server and -match go together")
	case o.bot != "" && (o.join != "" || o.server != ""):
		return o, errors.New("-bot starts a new local game: it does not go with -join or -server")
	case o.spectate && o.join == "" && o.server == "":
		return o, errors.New("-spectate needs -join or -server and -match")
	}
	return o, nil
}

// seatNames are the players' names in a new game.
func seatNames(o options) [2]string {
	switch {
	case o.name != "":
		return [2]string{o.name, o.name}
	case o.bot == "" && o.join == "" && o.server == "":
		return [2]string{o.lang.tr(txtBlack), o.lang.tr(txtWhite)}
	}
	name := os.Getenv("USER")
	if name == "" {
		name = o.lang.tr(text{"终端棋手", "Terminal"})
	}
	return [2]string{name, ""}
}

// checkTerminal returns the message to print when the terminal is smaller
// than the board needs (the seed's 终端过小时立即提示并退出), "" when it
// fits or is no terminal at all (Bubble Tea then reports its own error).
func checkTerminal(size int, l lang) string {
	w, h, err := term.GetSize(os.Stdout.Fd())
	if err != nil {
		return ""
	}
	mw, mh := minSize(size)
	if w >= mw && h >= mh {
		return ""
	}
	return l.tr(txtTooSmall, mw, mh, w, h) + "\n" +
		l.tr(text{"%d路棋盘至少需要 %d×%d 的终端。", "A %dx%[1]d board needs a terminal of at least %dx%d."}, size, mw, mh)
}
