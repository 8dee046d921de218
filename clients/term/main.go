// Command term is weiqi (围棋) in the terminal: the weiqi design's board,
// keys and cinnabar seal (docs/weiqi.md, "Design") as a client of a Chaguan
// server. The rules are the server's (games/weiqi); this program only draws
// the view it is sent and sends moves.
//
//	go run ./clients/term                      # 19x19 hot-seat, two players at this terminal
//	go run ./clients/term -size 9              # 9x9 (or 13)
//	go run ./clients/term -bot normal          # black against the server's bot
//	go run ./clients/term -join http://host:8080/m/weiqi/<matchID>
//	go run ./clients/term -join                # the seats you hold: pick one
//	go run ./clients/term -server http://host:8080 -match <matchID> -spectate
//
// Without -join it runs a whole server in this process (loopback only, in
// memory) and plays there; with -join it takes a free seat in a room of a
// running server, next to a browser player, or watches when none is free.
// A seat it takes on a running server is kept in the seats file
// (os.UserConfigDir()/chaguan/seats.json, or -seats, or $CHAGUAN_SEATS), so
// that -join with the same link sits in it again after a quit; the
// connection itself comes back by itself after a drop or a server restart.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
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
	// list is -join without a link: list the seats held and pick one.
	list  bool
	seats string // the seats file, "" for the default
}

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

// run is the whole program; it returns the exit status: 0 after a game,
// 1 when setting up or running failed, 2 for bad flags or a terminal too
// small for the board.
func run(args []string, stderr io.Writer) int {
	return runIO(args, os.Stdin, term.IsTerminal(os.Stdin.Fd()), os.Stdout, stderr)
}

// runIO is run with its input and output named: -join without a link
// lists the held seats on stdout and, when stdin is a terminal
// (interactive), reads the number of the one to go back to.
func runIO(args []string, stdin io.Reader, interactive bool, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "term:", err)
		return 2
	}
	var store *seatStore
	if o.list || o.join != "" || o.server != "" {
		if store, err = openSeatStore(o.seats); err != nil {
			if o.list {
				fmt.Fprintln(stderr, "term:", err)
				return 1
			}
			store = nil // play all the same; the seat is not remembered
		}
	}
	if o.list {
		link, code := pickSeat(store, o.lang, stdin, interactive, stdout)
		if link == "" {
			return code
		}
		o.join = link
	}
	ctx, cancel := context.WithTimeout(context.Background(), setupWait)
	defer cancel()

	base, id := strings.TrimRight(o.server, "/"), o.match
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
	if msg := checkTerminal(o.size, o.lang, base == ""); msg != "" {
		fmt.Fprintln(stderr, msg)
		return 2
	}

	var s *session
	if base != "" {
		s, err = resumeOrJoin(ctx, base, id, seatNames(o)[0], o.spectate, store, o.lang)
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
	s.keep(m)
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
	fs.Func("join", "the web client's invite `link`, http://host:8080/m/weiqi/<matchID>: your seat there when you hold one, else a free seat; without a link: list the seats you hold", func(v string) error {
		o.join, o.list = v, v == ""
		return nil
	})
	fs.StringVar(&o.seats, "seats", "", "the file of the seats you hold (default $"+seatsEnv+", else the user config directory's chaguan/seats.json)")
	fs.StringVar(&o.server, "server", "", "a running server's URL, with -match (instead of -join)")
	fs.StringVar(&o.match, "match", "", "the match ID on -server")
	fs.BoolVar(&o.spectate, "spectate", false, "with -join or -server: watch, take no seat")
	fs.StringVar(&o.name, "name", "", "your player name (default $USER; in hot-seat: Black and White)")
	langFlag := fs.String("lang", "", "zh or en (default: zh when LC_ALL, LC_MESSAGES or LANG starts with zh, else en)")
	if err := fs.Parse(bareJoin(args)); err != nil {
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
	case o.list && (o.server != "" || o.match != "" || o.bot != "" || o.spectate):
		return o, errors.New("-join without a link lists your seats: it goes with no -server, -match, -bot or -spectate")
	case o.spectate && o.join == "" && o.server == "":
		return o, errors.New("-spectate needs -join or -server and -match")
	}
	return o, nil
}

// bareJoin lets -join stand without a value (the flag package wants one):
// "-join" last or before another flag becomes "-join=".
func bareJoin(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "-join" || a == "--join") && (i == len(args)-1 || strings.HasPrefix(args[i+1], "-")) {
			a = "-join="
		}
		out = append(out, a)
	}
	return out
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
// than the board needs (the design's 终端过小时立即提示并退出), "" when it
// fits or is no terminal at all (Bubble Tea then reports its own error).
// choose says the size is this command's to choose (a new game).
func checkTerminal(size int, l lang, choose bool) string {
	w, h, err := term.GetSize(os.Stdout.Fd())
	if err != nil {
		return ""
	}
	return tooSmallMessage(size, w, h, l, choose)
}

// tooSmallMessage is what checkTerminal prints for a w×h terminal: what
// the board of size needs and, for a new game, the smaller boards this
// terminal fits (-size 13, -size 9), or "" when the board fits. A
// terminal that is not UTF-8 gets it in English and ASCII.
func tooSmallMessage(size, w, h int, l lang, choose bool) string {
	mw, mh := minSize(size)
	if w >= mw && h >= mh {
		return ""
	}
	if lk.ascii {
		l = langEn
	}
	msg := l.tr(txtTooSmall, mw, mh, w, h) + "\n" +
		l.tr(text{"%d路棋盘至少需要 %d×%d 的终端。", "A %dx%[1]d board needs a terminal of at least %dx%d."}, size, mw, mh) + "\n"
	var fits []string
	for _, s := range []int{13, 9} {
		if sw, sh := minSize(s); s < size && w >= sw && h >= sh {
			fits = append(fits, l.tr(text{"-size %d（%d×%d）", "-size %d (%dx%d)"}, s, sw, sh))
		}
	}
	sw, sh := minSize(9)
	switch {
	case !choose:
		msg += l.tr(text{"对局的棋盘大小已定：请放大终端。", "The match's board size is fixed: enlarge the terminal."})
	case len(fits) > 0:
		msg += l.tr(text{"当前终端可用 %s。", "This terminal fits %s."}, strings.Join(fits, l.tr(text{" 或 ", " or "})))
	default:
		msg += l.tr(text{"请放大终端：最小的 9 路棋盘（-size 9）也需要 %d×%d。", "Enlarge the terminal: the smallest board, -size 9, needs %dx%d."}, sw, sh)
	}
	if lk.ascii {
		msg = toASCII(msg)
	}
	return msg
}
