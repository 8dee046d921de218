package browsertest

import (
	"fmt"

	"github.com/chromedp/chromedp"
)

// WeiqiPoint returns the viewport coordinates of board point (x, y) of the
// weiqi canvas on p, after scrolling it into view and waiting until the
// board stops moving (it grows to fit when the host's notices above it
// come and go). It mirrors the plugin's geometry: cell = width /
// (n - 1 + 2.5), margin = 1.25 cell.
func WeiqiPoint(p *Page, x, y int) (float64, float64) {
	p.t.Helper()
	xy := Eval[[]float64](p, fmt.Sprintf(`(async () => {
		const c = document.querySelector("canvas[data-board=weiqi]");
		let r = null, prev = "";
		for (let i = 0; i < 50; i++) {
			c.scrollIntoView({block: "center"});
			await new Promise((ok) => setTimeout(ok, 80));
			r = c.getBoundingClientRect();
			const key = [r.left, r.top, r.width].join();
			if (key === prev) break;
			prev = key;
		}
		const n = window.__chaguan.state.G.size;
		const cell = r.width / (n - 1 + 2.5), pad = cell * 1.25;
		return [r.left + pad + %d * cell, r.top + pad + %d * cell];
	})()`, x, y), chromedp.EvalAwaitPromise)
	if len(xy) != 2 {
		p.Fail("board point %d,%d: got %v", x, y, xy)
	}
	return xy[0], xy[1]
}

// WeiqiG is a JS expression for the page's latest view.
const WeiqiG = `window.__chaguan.state.G`
