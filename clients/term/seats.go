package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
)

// seatsEnv names the seats file instead of the default (tests use it, so
// does anyone who keeps several sets of seats).
const seatsEnv = "CHAGUAN_SEATS"

// heldSeat is a seat this terminal took in a match of a running server:
// what a hello needs to sit in it again (the web client keeps the same in
// the browser's storage for its "my matches").
type heldSeat struct {
	Server      string `json:"server"` // the base URL, as parseJoin gives it
	Game        string `json:"game"`
	MatchID     string `json:"matchID"`
	PlayerID    string `json:"playerID"`
	Credentials string `json:"credentials"`
	Name        string `json:"name,omitempty"`
	At          int64  `json:"at"` // when it was taken, Unix ms
}

// link is the match's invite link, what -join takes.
func (h heldSeat) link() string {
	return h.Server + "/m/" + h.Game + "/" + h.MatchID
}

// same reports whether h is the seat of the match (server, game, id).
func (h heldSeat) same(server, game, id string) bool {
	return sameServer(h.Server, server) && h.Game == game && h.MatchID == id
}

// sameServer compares base URLs, ignoring a trailing slash and the case
// of the scheme and host.
func sameServer(a, b string) bool {
	norm := func(s string) string {
		s = strings.TrimRight(s, "/")
		if i := strings.Index(s, "://"); i >= 0 {
			rest := s[i+3:]
			j := strings.IndexByte(rest, '/')
			if j < 0 {
				j = len(rest)
			}
			s = strings.ToLower(s[:i+3+j]) + rest[j:]
		}
		return s
	}
	return norm(a) == norm(b)
}

// seatsFile is the file's shape.
type seatsFile struct {
	Seats []heldSeat `json:"seats"`
}

// seatStore is the file of the seats this terminal holds: by default
// os.UserConfigDir()/chaguan/seats.json, readable by its owner only (the
// credentials in it sit in the seats), in a directory only its owner may
// enter. Two terminals writing it at the same instant may lose one of
// their changes; each write replaces the file whole, so it is never torn.
type seatStore struct {
	path string
	// ownDir is set when the directory is the default one, which the store
	// keeps at mode 0700; a directory named by -seats or the environment
	// is the user's, and is only created when missing.
	ownDir bool
}

// openSeatStore picks the seats file: flag when set, else $CHAGUAN_SEATS,
// else the default.
func openSeatStore(flag string) (*seatStore, error) {
	if flag != "" {
		return &seatStore{path: flag}, nil
	}
	if p := os.Getenv(seatsEnv); p != "" {
		return &seatStore{path: p}, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("no directory for the seats file (set -seats or $%s): %w", seatsEnv, err)
	}
	return &seatStore{path: filepath.Join(dir, "chaguan", "seats.json"), ownDir: true}, nil
}

// load reads every held seat; a missing file holds none.
func (s *seatStore) load() ([]heldSeat, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("seats file: %w", err)
	}
	var f seatsFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("seats file %s: %w (move it away to start afresh)", s.path, err)
	}
	return slices.DeleteFunc(f.Seats, func(h heldSeat) bool {
		return h.Server == "" || h.MatchID == "" || h.PlayerID == "" || h.Credentials == ""
	}), nil
}

// find returns the seat held in match (server, game, id).
func (s *seatStore) find(server, game, id string) (heldSeat, bool, error) {
	seats, err := s.load()
	if err != nil {
		return heldSeat{}, false, err
	}
	for _, h := range seats {
		if h.same(server, game, id) {
			return h, true, nil
		}
	}
	return heldSeat{}, false, nil
}

// add keeps h, replacing a seat held before in the same match. A file
// that cannot be read is not overwritten.
func (s *seatStore) add(h heldSeat) error {
	seats, err := s.load()
	if err != nil {
		return err
	}
	seats = slices.DeleteFunc(seats, func(o heldSeat) bool { return o.same(h.Server, h.Game, h.MatchID) })
	return s.save(append(seats, h))
}

// remove forgets h (its match's seat, when it still holds h's seat). The
// file goes once it holds no seat.
func (s *seatStore) remove(h heldSeat) error {
	seats, err := s.load()
	if err != nil {
		return err
	}
	n := len(seats)
	seats = slices.DeleteFunc(seats, func(o heldSeat) bool {
		return o.same(h.Server, h.Game, h.MatchID) && o.PlayerID == h.PlayerID
	})
	if len(seats) == n {
		return nil
	}
	return s.save(seats)
}

// save writes seats whole: a file of mode 0600 renamed over the old one.
func (s *seatStore) save(seats []heldSeat) error {
	if len(seats) == 0 {
		if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("seats file: %w", err)
		}
		return nil
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("seats file: %w", err)
	}
	if s.ownDir {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("seats file: %w", err)
		}
	}
	b, err := json.MarshalIndent(seatsFile{Seats: seats}, "", "  ")
	if err != nil {
		return fmt.Errorf("seats file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".seats-*.json") // mode 0600
	if err != nil {
		return fmt.Errorf("seats file: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename: nothing left to remove
	_, err = tmp.Write(append(b, '\n'))
	if err == nil {
		err = tmp.Chmod(0o600)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path)
	}
	if err != nil {
		return fmt.Errorf("seats file: %w", err)
	}
	return nil
}

// lookupWait bounds each lobby request of the seats' list.
const lookupWait = 5 * time.Second

// seatRow is a held seat as -join lists it: what its match says now.
type seatRow struct {
	h      heldSeat
	status string
	gone   bool // expired, over, or the seat passed to the bot: forgotten
}

// describeSeats asks each held seat's server about its match (the lobby's
// GET of one match, which says whose move it is), newest seat first, and
// forgets the seats whose match expired or ended or whose seat passed to
// the bot, as the web client's "my matches" does.
func describeSeats(store *seatStore, l lang) ([]seatRow, error) {
	seats, err := store.load()
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(seats, func(a, b heldSeat) int { return cmp.Compare(b.At, a.At) })
	rows := make([]seatRow, len(seats))
	for i, h := range seats {
		rows[i] = seatRow{h: h}
		r := &rows[i]
		ctx, cancel := context.WithTimeout(context.Background(), lookupWait)
		m, err := client.NewLobby(h.Server, nil).GetMatch(ctx, h.Game, h.MatchID)
		cancel()
		var ae *client.APIError
		switch {
		case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
			r.status, r.gone = l.tr(txtMineExpired), true
		case err != nil:
			r.status = l.tr(txtMineUnknown, err)
		default:
			r.status, r.gone = seatStatus(m, h.PlayerID, l)
		}
		if r.gone {
			if err := store.remove(h); err != nil {
				return rows, err
			}
		}
	}
	return rows, nil
}

// seatStatus says where seat stands in match m: whose move it is, or that
// the match is over or the seat passed to the bot (gone).
func seatStatus(m *protocol.Match, seat string, l lang) (status string, gone bool) {
	i, err := strconv.Atoi(seat)
	switch {
	case err == nil && i >= 0 && i < len(m.Players) && m.Players[i].IsBot:
		return l.tr(txtMineToBot), true
	case len(m.Gameover) > 0 && string(m.Gameover) != "null":
		return l.tr(txtGameOver), true
	case !m.Started:
		return l.tr(txtMineWaiting), false
	case slices.Contains(m.ToMove, seat):
		return l.tr(txtMineYourMove), false
	case len(m.ToMove) == 1:
		return l.tr(txtToPlay, colourOf(m.ToMove[0], l)), false
	}
	return l.tr(txtMineInPlay), false
}

// pickSeat is -join without a link: it lists the seats held, and when
// stdin is a terminal asks which to go back to. It returns that seat's
// link, or "" and the exit status when there is nothing to play.
func pickSeat(store *seatStore, l lang, stdin io.Reader, interactive bool, out io.Writer) (link string, code int) {
	rows, err := describeSeats(store, l)
	if err != nil {
		fmt.Fprintln(out, "term:", err)
		return "", 1
	}
	var live []heldSeat
	if len(rows) > 0 {
		fmt.Fprintln(out, l.tr(txtMineTitle, store.path))
	}
	for _, r := range rows {
		num := "  "
		if !r.gone {
			live = append(live, r.h)
			num = strconv.Itoa(len(live)) + "."
		}
		fmt.Fprintf(out, "%3s %s  %s  %s  %s\n", num, r.h.Game, r.h.MatchID,
			l.tr(txtMineSeat, colourOf(r.h.PlayerID, l), r.h.PlayerID), r.status)
		if !r.gone {
			fmt.Fprintf(out, "      %s\n", r.h.link())
		}
	}
	if len(live) == 0 {
		fmt.Fprintln(out, l.tr(txtMineNone))
		return "", 0
	}
	if !interactive {
		fmt.Fprintln(out, l.tr(txtMineHow))
		return "", 0
	}
	fmt.Fprint(out, l.tr(txtMinePick, len(live)))
	line, _ := bufio.NewReader(stdin).ReadString('\n')
	line = strings.TrimSpace(line)
	if line == "" {
		return "", 0
	}
	n, err := strconv.Atoi(line)
	if err != nil || n < 1 || n > len(live) {
		fmt.Fprintln(out, l.tr(txtMineBadPick, line, len(live)))
		return "", 2
	}
	return live[n-1].link(), 0
}
