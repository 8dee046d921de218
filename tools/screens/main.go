// Command screens takes screenshots of the web client for a person to look
// at: the not-found page, the lobby, the create form and a room of every
// game with bots in the other seats, each at a laptop (1280x800) and a
// phone (390x844) size, in English and in Chinese. It starts its own
// server (memory store, bots that move after 30 ms) on a loopback port and
// a headless chromium, writes the PNGs into -out, and prints each file.
//
//	go run ./tools/screens -out /tmp/shots
//	go run ./tools/screens -out /tmp/shots -games gongzhu -extra 'gongzhu=document.querySelector("[data-action=last]").click()'
//
// -extra GAME=JS (repeatable) runs JS on that game's room after its shot
// and takes a second, "-extra", shot once -extra-wait has passed (open the
// last trick, say, or an item's card). The browser tests in clients/web
// check what the pages do; this only shows them.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/chaguan/chaguan/clients/web"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server"
)

type extras map[string]string

func (e extras) String() string { return fmt.Sprint(map[string]string(e)) }

func (e extras) Set(v string) error {
	game, js, ok := strings.Cut(v, "=")
	if !ok || game == "" || js == "" {
		return errors.New("want GAME=JS")
	}
	e[game] = js
	return nil
}

// size is a viewport the pages are shot at.
type size struct {
	name   string
	w, h   int64
	mobile bool
}

// seatings are the create bodies of each game's room: seat 0 for the
// screenshot's person, bots in the others.
var seatings = map[string]string{
	"gomoku":      `{"numPlayers":2,"bots":{"1":"easy"}}`,
	"gongzhu":     `{"numPlayers":4,"bots":{"1":"normal","2":"normal","3":"normal"}}`,
	"threemonks":  `{"numPlayers":8,"bots":{"1":"normal","2":"normal","3":"normal","4":"normal","5":"normal","6":"normal","7":"normal"}}`,
	"weiqi":       `{"numPlayers":2,"setupData":{"size":9},"bots":{"1":"easy"}}`,
	"carcassonne": `{"numPlayers":2,"bots":{"1":"normal"}}`,
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "screens:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("screens", flag.ContinueOnError)
	out := fs.String("out", "", "directory for the PNG files (made if missing)")
	games := fs.String("games", "gomoku,gongzhu,threemonks,weiqi,carcassonne", "comma-separated games whose rooms to shoot")
	langs := fs.String("langs", "en,zh", "comma-separated languages")
	settle := fs.Duration("settle", 2500*time.Millisecond, "pause after a room starts, so the bots' first moves and the animations are on screen")
	extraWait := fs.Duration("extra-wait", 8*time.Second, "pause after an -extra script before its shot")
	browser := fs.String("chromium", "", "the browser (default: chromium on PATH, or /usr/bin/chromium)")
	ex := extras{}
	fs.Var(ex, "extra", "GAME=JS: run JS on GAME's room after its shot and take an -extra shot (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("-out DIR is required")
	}
	var gameList []string
	for _, g := range strings.Split(*games, ",") {
		if _, ok := seatings[g]; !ok {
			return fmt.Errorf("-games: unknown game %q", g)
		}
		gameList = append(gameList, g)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	path := *browser
	if path == "" {
		path = findChromium()
	}
	if path == "" {
		return errors.New("no chromium: install it (Debian: apt-get install chromium) or name it with -chromium")
	}

	base, stop, err := startServer()
	if err != nil {
		return err
	}
	defer stop()

	dataDir, err := os.MkdirTemp("", "chaguan-screens-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dataDir)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(dataDir), chromedp.WindowSize(1280, 900))
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(bctx); err != nil {
		return fmt.Errorf("start %s: %w", path, err)
	}

	s := &shooter{dir: *out, w: stdout}
	for _, sz := range []size{{"desk", 1280, 800, false}, {"phone", 390, 844, true}} {
		for _, lang := range strings.Split(*langs, ",") {
			if err := s.page(bctx, base, sz, lang, gameList, *settle, *extraWait, ex); err != nil {
				return fmt.Errorf("%s %s: %w", sz.name, lang, err)
			}
		}
	}
	return nil
}

// startServer serves the lobby, API and web client on a loopback port,
// as `go run .` does with the memory store.
func startServer() (base string, stop func(), err error) {
	store := memstore.New(memstore.Options{})
	inst := server.NewMetricsFor()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	mgr := rooms.New(rooms.Config{Store: store, Games: all.Registry(), BotDelay: 30 * time.Millisecond, Logger: log, Metrics: inst.Metrics})
	h := server.New(server.Config{Rooms: mgr, Assets: web.Assets(), Logger: log, Registry: inst.Registry, Metrics: inst.Metrics,
		Throttle: server.Throttle{Rate: -1}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		h.Shutdown(ctx)
		_ = srv.Close()
		mgr.Close()
		_ = store.Close()
	}, nil
}

type shooter struct {
	dir string
	w   io.Writer
}

// page shoots every page in one browser context at one size and language.
func (s *shooter) page(bctx context.Context, base string, sz size, lang string, games []string, settle, extraWait time.Duration, ex extras) error {
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	defer cancel()
	if err := chromedp.Do(ctx); err != nil { // open the tab in this context, not in a step's
		return fmt.Errorf("open a browser context: %w", err)
	}
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) error {
		c, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if err := chromedp.Do(c, actions...); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	wait := func(what, expr string) error {
		return step("wait for "+what, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(50*time.Millisecond)))
	}
	js := func(src string) chromedp.Action[chromedp.Void] { return chromedp.Evaluate[chromedp.Void](src) }
	click := func(sel string) error {
		return step("click "+sel, chromedp.WaitVisible(chromedp.CSS(sel)),
			js(fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: "center"})`, sel)),
			chromedp.Click(chromedp.CSS(sel)))
	}
	shot := func(name string) error {
		c, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		png, err := chromedp.Run(c, chromedp.CaptureScreenshot())
		if err != nil {
			return fmt.Errorf("screenshot %s: %w", name, err)
		}
		f := filepath.Join(s.dir, name+".png")
		if err := os.WriteFile(f, png, 0o644); err != nil {
			return err
		}
		fmt.Fprintln(s.w, f)
		return nil
	}
	name := func(what string) string { return fmt.Sprintf("%s-%s-%s", sz.name, lang, what) }

	if err := step("size", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: sz.w, Height: sz.h, DeviceScaleFactor: 1, Mobile: sz.mobile,
		})
		return err
	})); err != nil {
		return err
	}
	if err := step("open the not-found page", chromedp.Navigate(base+"/nope?lang="+lang)); err != nil {
		return err
	}
	if err := wait("the not-found page", `!!document.querySelector("#view h1")`); err != nil {
		return err
	}
	if err := shot(name("notfound")); err != nil {
		return err
	}
	if err := step("open the lobby", chromedp.Navigate(base+"/?lang="+lang)); err != nil {
		return err
	}
	if err := wait("the lobby", `!!document.querySelector(".game-card")`); err != nil {
		return err
	}
	if err := shot(name("lobby")); err != nil {
		return err
	}
	if err := click(`.game-card[data-game="threemonks"] [data-action="new"]`); err != nil {
		return err
	}
	if err := click(`[data-create="threemonks"] [data-fill="normal"]`); err != nil {
		return err
	}
	if err := step("scroll", js(`document.querySelector('[data-create="threemonks"]').scrollIntoView()`)); err != nil {
		return err
	}
	if err := shot(name("create")); err != nil {
		return err
	}
	for _, g := range games {
		id, err := create(base, g)
		if err != nil {
			return err
		}
		if err := step("open "+g, chromedp.Navigate(fmt.Sprintf("%s/m/%s/%s?lang=%s", base, g, id, lang))); err != nil {
			return err
		}
		if err := step("type the name", chromedp.WaitVisible(chromedp.CSS(`[data-field="name"]`)),
			js(`(() => { const e = document.querySelector('[data-field="name"]'); e.value = ""; e.dispatchEvent(new Event("input", {bubbles: true})); })()`),
			chromedp.SendKeys(chromedp.CSS(`[data-field="name"]`), "Ann")); err != nil {
			return err
		}
		if err := click(`[data-action="sit"][data-seat="0"]`); err != nil {
			return err
		}
		if err := wait(g+" started", `window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`); err != nil {
			return err
		}
		time.Sleep(settle)
		if err := step("scroll to the top", js(`window.scrollTo(0, 0)`)); err != nil {
			return err
		}
		if err := shot(name(g)); err != nil {
			return err
		}
		if src := ex[g]; src != "" {
			if err := step("the -extra script", js(src)); err != nil {
				return err
			}
			time.Sleep(extraWait)
			if err := shot(name(g + "-extra")); err != nil {
				return err
			}
		}
	}
	return nil
}

// create makes a match of game with bots in every seat but 0.
func create(base, game string) (string, error) {
	resp, err := http.Post(base+"/games/"+game+"/create", "application/json", strings.NewReader(seatings[game]))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out struct {
		MatchID string `json:"matchID"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &out) != nil || out.MatchID == "" {
		return "", fmt.Errorf("create %s: %s %s", game, resp.Status, b)
	}
	return out.MatchID, nil
}

// findChromium returns the path of a chromium-like browser, or "".
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}
