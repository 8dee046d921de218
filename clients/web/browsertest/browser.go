// Package browsertest is the harness of the web client's browser tests
// (the packages under clients/web/e2e, one per game and one for the site
// around them): one headless chromium per test package, one browser context (its
// own cookies and localStorage, so its own person) per Page, closed when
// the test that opened it ends, helpers that wait for
// conditions instead of sleeping, and screenshots of every page on failure.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// stepTimeout bounds one helper call (a click, a wait for a condition):
// generous, so it catches a hang, not a slow machine.
const stepTimeout = time.Minute

// findChromium returns the path of a chromium-like browser, or "".
func findChromium() string {
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is a test's handle on the shared headless chromium: the pages it
// opened.
type Browser struct {
	t   testing.TB
	ctx context.Context // has run once, so children share the browser

	mu    sync.Mutex
	pages []*Page // every page, for screenshots on failure
}

// shortBrowserTests are the browser tests that -short (CI's race run)
// keeps: one whole match through the page, lobby to play-again. The full
// suite, which CI runs first, runs them all.
var shortBrowserTests = map[string]bool{"TestGomokuInBrowser": true}

// Start gives t (a test or a benchmark; skipped when there is no
// chromium) the package's headless chromium, started by the first test
// that asks and shared by all (each Page is its own browser context, so
// tests share no cookies or storage); the pages t opened close when t ends.
// One chromium for the run instead of one per test saves a start and a
// stop per test, seconds each on a busy machine.
func Start(t testing.TB) *Browser {
	t.Helper()
	path := findChromium()
	if path == "" {
		t.Skip("no chromium on PATH: browser tests skipped")
	}
	if top, _, _ := strings.Cut(t.Name(), "/"); testing.Short() && !shortBrowserTests[top] {
		t.Skip("-short: browser test left to the full suite (-short keeps TestGomokuInBrowser)")
	}
	ctx, err := sharedChromium(path)
	if err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return &Browser{t: t, ctx: ctx}
}

// chromium is the package's one browser (see StartBrowser).
var chromium struct {
	mu     sync.Mutex
	ctx    context.Context // has run once, so children share the browser
	cancel func()
	dir    string // its user data directory
}

// sharedChromium returns the context of the package's chromium, starting
// it (again, if the last one has gone) when needed.
func sharedChromium(path string) (context.Context, error) {
	chromium.mu.Lock()
	defer chromium.mu.Unlock()
	if chromium.ctx != nil && chromium.ctx.Err() == nil {
		return chromium.ctx, nil
	}
	stopChromiumLocked()
	dir, err := os.MkdirTemp("", "chaguan-chromium-")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	chromium.ctx, chromium.dir = ctx, dir
	chromium.cancel = func() {
		cancel()
		cancelAlloc()
	}
	if err := chromedp.Do(ctx); err != nil {
		stopChromiumLocked()
		return nil, err
	}
	return ctx, nil
}

// stopChromiumLocked stops the package's chromium, if any, and removes its
// user data directory; chromium.mu is held.
func stopChromiumLocked() {
	if chromium.cancel != nil {
		chromium.cancel()
	}
	if chromium.dir != "" {
		os.RemoveAll(chromium.dir)
	}
	chromium.ctx, chromium.cancel, chromium.dir = nil, nil, ""
}

// Main runs a package's tests (call it from the package's TestMain, as
// os.Exit(browsertest.Main(m))) and then stops the package's chromium.
func Main(m *testing.M) int {
	code := m.Run()
	chromium.mu.Lock()
	stopChromiumLocked()
	chromium.mu.Unlock()
	return code
}

// Page is one tab in its own browser context: a separate person, with
// separate localStorage.
type Page struct {
	b    *Browser
	t    testing.TB
	name string
	ctx  context.Context
	// Poll is how often WaitJS checks its condition (default 50 ms;
	// benchmarks lower it so the wait does not dominate the figure).
	Poll time.Duration

	mu       sync.Mutex
	jsErrors []string // uncaught exceptions and promise rejections seen
}

// listen records the page's uncaught JavaScript exceptions.
func (p *Page) listen(ev any) {
	var d *runtime.ExceptionDetails
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		d = e.ExceptionDetails
	case runtime.EventExceptionThrown:
		d = e.ExceptionDetails
	}
	if d == nil {
		return
	}
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg += " " + d.Exception.Description
	}
	p.mu.Lock()
	p.jsErrors = append(p.jsErrors, msg)
	p.mu.Unlock()
}

// NoJSErrors fails the test if the page threw an uncaught exception or left
// a promise rejection unhandled.
func (p *Page) NoJSErrors() {
	p.t.Helper()
	p.mu.Lock()
	errs := append([]string(nil), p.jsErrors...)
	p.mu.Unlock()
	if len(errs) > 0 {
		p.Fail("uncaught JavaScript errors:\n%s", strings.Join(errs, "\n"))
	}
}

// NewPage opens a fresh browser context named name (used in failure
// messages and screenshot file names).
func (b *Browser) NewPage(name string) *Page {
	b.t.Helper()
	p := &Page{b: b, t: b.t, name: name, Poll: 50 * time.Millisecond}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(p.listen))
	b.t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatalf("%s: open a browser context: %v", name, err)
	}
	p.ctx = ctx
	b.mu.Lock()
	b.pages = append(b.pages, p)
	b.mu.Unlock()
	return p
}

// Name returns the page's name, as given to NewPage.
func (p *Page) Name() string { return p.name }

// SetName renames the page (its next screenshots are named after it).
func (p *Page) SetName(name string) { p.name = name }

// T returns the test (or benchmark) that opened the page.
func (p *Page) T() testing.TB { return p.t }

// SetT makes the page report to t from now on: a subtest's page fails the
// subtest, from the subtest's own goroutine.
func (p *Page) SetT(t testing.TB) { p.t = t }

// Context returns the page's chromedp context, for actions the helpers do
// not cover; they run without the step timeout unless the caller sets one.
func (p *Page) Context() context.Context { return p.ctx }

// Fail takes a screenshot of every page, then fails the test.
func (p *Page) Fail(format string, args ...any) {
	p.t.Helper()
	p.b.Screenshots()
	p.t.Fatalf(p.name+": "+format, args...)
}

// Screenshots saves a full-page PNG of every page into
// $CHAGUAN_SCREENSHOTS, or t.TempDir() when that is unset, and logs the
// paths.
func (b *Browser) Screenshots() {
	dir := os.Getenv("CHAGUAN_SCREENSHOTS")
	if dir == "" {
		dir = b.t.TempDir()
	}
	b.mu.Lock()
	pages := append([]*Page(nil), b.pages...)
	b.mu.Unlock()
	for _, p := range pages {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		cancel()
		if err != nil {
			b.t.Logf("%s: screenshot: %v", p.name, err)
			continue
		}
		f := filepath.Join(dir, fmt.Sprintf("%s-%s.png", sanitize(b.t.Name()), p.name))
		if err := os.WriteFile(f, png, 0o644); err != nil {
			b.t.Logf("%s: screenshot: %v", p.name, err)
			continue
		}
		b.t.Logf("%s: screenshot in %s", p.name, f)
	}
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' || r == ':' {
			return '_'
		}
		return r
	}, s)
}

// Do runs actions with the step timeout and fails the test on an error.
func (p *Page) Do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.Fail("%s: %v", what, err)
	}
}

// Open navigates to url and waits for the app's main element.
func (p *Page) Open(url string) {
	p.t.Helper()
	p.Do("open "+url, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("#view")))
}

// Click clicks the first element matching the CSS selector once visible,
// centred and settled (settleJS): a click on an element at the bottom
// edge of the viewport can miss it, and a page still laying itself out on
// a loaded machine moves it between the box chromedp reads and its click.
func (p *Page) Click(sel string) {
	p.t.Helper()
	p.Do("click "+sel, chromedp.WaitVisible(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](settleJS(sel), chromedp.EvalAwaitPromise),
		chromedp.Click(chromedp.CSS(sel)))
}

// settleJS is a JavaScript promise that scrolls the first element matching
// the CSS selector to the middle of the viewport and resolves, once its
// box has stayed put for three reads an animation frame and 20 ms apart
// (at most forty reads; scrolled back to the middle whenever it moved),
// to that box: [left, top, width, height] in viewport CSS pixels; null
// when nothing matches.
func settleJS(sel string) string {
	return fmt.Sprintf(`(async () => {
		const find = () => document.querySelector(%s);
		const box = () => %s;
		const same = (a, b) => a !== null && b !== null && a.every((v, i) => v === b[i]);
		const centre = () => { const e = find(); if (e) e.scrollIntoView({block: "center", inline: "center"}); };
		const frame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 20)));
		centre();
		let last = box();
		for (let kept = 0, n = 0; kept < 3 && n < 40; n++) {
			await frame();
			const b = box();
			if (same(b, last)) { kept++; continue; }
			kept = 0;
			centre();
			last = box();
		}
		return last;
	})()`, JSString(sel), boxJS(sel))
}

// boxJS is a JavaScript expression: the box of the first element matching
// the CSS selector, [left, top, width, height] in viewport CSS pixels;
// null when nothing matches.
func boxJS(sel string) string {
	return fmt.Sprintf(`((e) => { if (!e) return null; const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })(document.querySelector(%s))`, JSString(sel))
}

// SettledBox returns the box of the first element matching the CSS
// selector, [left, top, width, height] in viewport CSS pixels, once
// centred and settled (settleJS): where a click lands on it now.
func SettledBox(p *Page, sel string) []float64 {
	p.t.Helper()
	box := Eval[[]float64](p, settleJS(sel), chromedp.EvalAwaitPromise)
	if len(box) != 4 {
		p.Fail("the box of %s: got %v", sel, box)
	}
	return box
}

// Box returns the box of the first element matching the CSS selector as it
// is laid out now, [left, top, width, height] in viewport CSS pixels.
func Box(p *Page, sel string) []float64 {
	p.t.Helper()
	box := Eval[[]float64](p, boxJS(sel))
	if len(box) != 4 {
		p.Fail("the box of %s: got %v", sel, box)
	}
	return box
}

// Type replaces the value of an input with text, as typed keys.
func (p *Page) Type(sel, text string) {
	p.t.Helper()
	// chromedp.Clear leaves number inputs as they were, so empty the value
	// in the page (with the input event a person's edit would fire).
	p.Do("type into "+sel, chromedp.WaitVisible(chromedp.CSS(sel)),
		EvalVoid(fmt.Sprintf(`(() => { const e = document.querySelector(%s); e.value = ""; e.dispatchEvent(new Event("input", {bubbles: true})); })()`, JSString(sel))),
		chromedp.SendKeys(chromedp.CSS(sel), text))
}

// ClickXY clicks at viewport coordinates.
func (p *Page) ClickXY(x, y float64) {
	p.t.Helper()
	p.Do(fmt.Sprintf("click at %.0f,%.0f", x, y), chromedp.MouseClickXY(x, y))
}

// HoverXY moves the mouse to x, y (CSS pixels in the viewport), as a
// person's pointer comes to rest over something before they click it.
func (p *Page) HoverXY(x, y float64) {
	p.t.Helper()
	p.Do(fmt.Sprintf("move the mouse to %.0f,%.0f", x, y), chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
}

// WaitJS waits until the JavaScript expression is truthy.
func (p *Page) WaitJS(what, expr string) {
	p.t.Helper()
	p.WaitJSFor(what, expr, stepTimeout)
}

// WaitJSFor is WaitJS with its own time limit, for what a page takes long
// over on a busy machine (a queue of animations, say).
func (p *Page) WaitJSFor(what, expr string, limit time.Duration) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, limit)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(p.Poll))); err != nil {
		got := p.evalString(`document.querySelector("#view") ? document.querySelector("#view").innerText.slice(0, 600) : ""`)
		p.Fail("waiting for %s (%s): %v\npage text:\n%s", what, expr, err, got)
	}
}

// WaitText waits until the first element matching sel contains text.
func (p *Page) WaitText(sel, text string) {
	p.t.Helper()
	p.WaitJS(fmt.Sprintf("%q in %s", text, sel),
		fmt.Sprintf(`(() => { const e = document.querySelector(%s); return !!e && e.textContent.includes(%s); })()`, JSString(sel), JSString(text)))
}

// Text returns the text content of the first element matching sel, "" if none.
func (p *Page) Text(sel string) string {
	p.t.Helper()
	return p.evalString(fmt.Sprintf(`(() => { const e = document.querySelector(%s); return e ? e.textContent : ""; })()`, JSString(sel)))
}

func (p *Page) evalString(expr string) string {
	var s string
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return s
}

// Eval evaluates a JavaScript expression on p and decodes its JSON value
// (pass chromedp.EvalAwaitPromise for an async expression).
func Eval[T any](p *Page, expr string, opts ...chromedp.EvaluateOption) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		p.Fail("evaluate %s: %v", expr, err)
	}
	return v
}

// JSString quotes s as a JavaScript string literal.
func JSString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// SetSelect sets a <select>'s value and fires its change event.
func SetSelect(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const s = document.querySelector(%s);
		if (!s) throw new Error("no select " + %s);
		s.value = %s;
		s.dispatchEvent(new Event("change", {bubbles: true}));
	})()`, JSString(sel), JSString(sel), JSString(value)))
}

// EvalVoid runs JavaScript for its effects.
func EvalVoid(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](js)
}
