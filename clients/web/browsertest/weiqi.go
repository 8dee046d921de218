package browsertest

// WeiqiPoint returns the viewport coordinates of board point (x, y) of the
// weiqi canvas on p, once the canvas is centred and has stopped moving
// (SettledBox: it grows to fit when the host's notices above it come and
// go). It mirrors the plugin's geometry: cell = width / (n - 1 + 2.5),
// margin = 1.25 cell.
func WeiqiPoint(p *Page, x, y int) (float64, float64) {
	p.t.Helper()
	box := SettledBox(p, "canvas[data-board=weiqi]")
	n := Eval[int](p, WeiqiG+".size")
	cell := box[2] / (float64(n) - 1 + 2.5)
	return box[0] + 1.25*cell + float64(x)*cell, box[1] + 1.25*cell + float64(y)*cell
}

// WeiqiG is a JS expression for the page's latest view.
const WeiqiG = `window.__chaguan.state.G`
