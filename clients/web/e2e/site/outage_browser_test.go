package site_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/server/servertest"
)

// refusedClick clicks board point (x, y) on p while Redis is cut off: the
// page shows want in an error toast and the board keeps its n moves.
func refusedClick(p *browsertest.Page, n, x, y int, want string) {
	p.T().Helper()
	p.WaitJS(fmt.Sprintf("my turn after %d moves", n), browsertest.GomokuMovesIs(n)+` && window.__chaguan.state.G.toMove === window.__chaguan.you`)
	p.ClickXY(browsertest.GomokuPoint(p, x, y))
	p.WaitJS("the outage toast", fmt.Sprintf(`[...document.querySelectorAll("#toasts .toast.error")].some((e) => e.textContent.includes(%s))`, browsertest.JSString(want)))
	if got := browsertest.Eval[int](p, `window.__chaguan.state.G.moves.length`); got != n {
		p.Fail("a refused move shows: %d moves, want %d", got, n)
	}
}

// TestStorageOutageInBrowser: the server reaches Redis through a proxy;
// while the proxy is cut a move is refused with unavailable; the page says
// so in a toast in the viewer's language (Ann in English at 1280x800, Bob
// in Chinese on a 390x844 phone), the board does not change, and once
// Redis is reachable again the same click plays the move, without a
// reload.
func TestStorageOutageInBrowser(t *testing.T) {
	url := redistest.URL(t)
	proxy := redistest.NewProxy(t, url)
	st, err := redisstore.New(context.Background(), redisstore.Options{URL: proxy.URL, Prefix: redistest.Prefix(t, url)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	base := servertest.Start(t, servertest.Options{Store: st}).URL
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	browsertest.SizePage(ann, 1280, 800, false)
	invite := browsertest.CreateGomoku(ann, base, "Ann")
	bob := browsertest.SeatBob(b, invite, "zh")
	browsertest.SizePage(bob, 390, 844, true)

	proxy.Cut()
	refusedClick(ann, 0, 7, 7, "storage is unavailable")
	proxy.Mend()
	browsertest.PlaceStone(ann, 0, 7, 7)

	proxy.Cut()
	refusedClick(bob, 1, 8, 8, "存储暂时不可用")
	b.Screenshots()
	proxy.Mend()
	browsertest.PlaceStone(bob, 1, 8, 8)
	ann.WaitJS("Bob's move", browsertest.GomokuMovesIs(2))
	ann.NoJSErrors()
	bob.NoJSErrors()
}
