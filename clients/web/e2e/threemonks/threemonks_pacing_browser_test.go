package threemonks_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/threemonks"
	"github.com/chaguan/chaguan/server/servertest"
)

// Pacing for the Three Monks counters: every number on the table (water,
// items, centre, supply taken, the token, the round in the status) belongs
// to the moment the log has told, not to the newest state. The room's pacer
// shows the states one by one; while the plugin narrates a state's new
// events, the table must start from the state before and take each event in
// as its log line appears.

// tmHistoryHook records, in window.__tmh, the last two states the room put
// on show (each with the number of log lines written before it) and counts
// the log lines as they are added, through a MutationObserver: it relies
// on nothing the plugin exposes but the log list and window.__chaguan.
const tmHistoryHook = `(() => {
	const list = document.querySelector("[data-log=threemonks]");
	const h = window.__tmh = { list, states: [], lines: list.children.length };
	const count = (rs) => { for (const r of rs) for (const n of r.addedNodes) if (n.nodeName === "LI") h.lines++; };
	const obs = new MutationObserver(count);
	obs.observe(list, { childList: true });
	h.flush = () => count(obs.takeRecords());
	let cur = window.__chaguan;
	Object.defineProperty(window, "__chaguan", { configurable: true, get: () => cur, set: (v) => {
		h.flush();
		if (v && v.state && v.state.G && v.state.G.monks) {
			h.states.push({ G: JSON.parse(JSON.stringify(v.state.G)), at: h.lines });
			if (h.states.length > 2) h.states.shift();
		}
		cur = v;
	} });
})()`

// tmCountersWatch is a watcher body (see browsertest.InstallWatch): with A the state
// shown before and B the one on show, B's new events are split into those
// the log has told and those still to come. A number that only events to
// come touch must still show A's value; one only told events touch (or
// none) must show B's. The round in the status is the round of the last
// told event (A's round before the first, B's once all are told).
const tmCountersWatch = `
	const hs = window.__tmh;
	if (!hs || hs.states.length < 2) return "";
	hs.flush();
	if (document.querySelector("[data-log=threemonks]") !== hs.list) return "";
	const A = hs.states[0].G, B = hs.states[1].G, at = hs.states[1].at;
	let fresh;
	if (B.round === A.round) fresh = B.events.slice(A.events.length).map((e) => [e, B.round]);
	else if (B.round === A.round + 1) fresh = B.lastEvents.slice(A.events.length).map((e) => [e, A.round]).concat(B.events.map((e) => [e, B.round]));
	else return "";
	const k = hs.lines - at;
	if (k < 0 || k > fresh.length) return "the log told " + k + " lines of a state with " + fresh.length + " new events";
	const field = (pl) => !pl ? "" : pl === "supply" ? "taken" : pl === "centre" ? "centre" : pl.startsWith("seat:") ? "holder" : pl;
	const touched = (evs) => new Set(evs.flatMap(([e]) => [field(e.from), field(e.to)]).filter(Boolean));
	const told = touched(fresh.slice(0, k)), coming = touched(fresh.slice(k));
	const seatOf = (f) => Number(f.slice(f.indexOf(":") + 1));
	const val = (g, f) => {
		if (f === "taken") return g.supplyTaken;
		if (f === "centre") return g.centre;
		if (f === "holder") return g.holder;
		const m = g.monks[seatOf(f)];
		if (f.startsWith("water:")) return m.water;
		const it = m.item || { kind: "", water: 0 };
		return it.kind + "/" + it.water;
	};
	const monk = (f) => document.querySelector("[data-table=threemonks] [data-monk=\"" + seatOf(f) + "\"]");
	const shown = (f) => {
		if (f === "taken") return Number((/\d+/.exec(document.querySelector("[data-place=supply] small").textContent) || [])[0]);
		if (f === "centre") return Number(document.querySelector("[data-centre]").dataset.centre);
		if (f === "holder") return Number([...document.querySelectorAll("[data-monk]")].find((m) => m.querySelector("[data-token]")).dataset.monk);
		if (f.startsWith("water:")) return Number(monk(f).querySelector("[data-water]").dataset.water);
		const it = monk(f).querySelector("[data-item]");
		return it.dataset.item + "/" + it.querySelector("[data-item-water]").dataset.itemWater;
	};
	const fields = ["taken", "centre", "holder"];
	for (let i = 0; i < B.numPlayers; i++) fields.push("water:" + i, "item:" + i);
	for (const f of fields) {
		if (told.has(f) && coming.has(f)) continue;
		const want = coming.has(f) ? val(A, f) : val(B, f);
		const got = shown(f);
		if (got !== want) return "round " + B.round + ", " + k + "/" + fresh.length + " new events told (last: " + (k ? fresh[k - 1][0].kind : "none") + "): " + f + " shows " + got + ", the told story says " + want;
	}
	hs.checked = (hs.checked || 0) + 1;
	if (k > 0 && k < fresh.length) hs.mid = (hs.mid || 0) + 1;
	const m = /Round (\d+)/.exec(document.querySelector("[data-status=threemonks]").textContent);
	if (!m) return "";
	const rounds = !fresh.length ? [B.round] : k === 0 ? [A.round] : k < fresh.length ? [fresh[k - 1][1]] : [fresh[k - 1][1], B.round];
	if (!rounds.includes(Number(m[1]))) return "the status says round " + m[1] + " while the log has told round " + rounds.join(" or ");
	return "";`

// checkTMCountersSampled fails unless the watcher checked the table many
// times, some of them halfway through a state's events (so the test looked
// at the moments that matter, not only at rest).
func checkTMCountersSampled(p *browsertest.Page) {
	p.T().Helper()
	checked := browsertest.Eval[int](p, `window.__tmh.checked || 0`)
	mid := browsertest.Eval[int](p, `window.__tmh.mid || 0`)
	p.T().Logf("counters checked %d times, %d of them halfway through a state's events", checked, mid)
	if checked < 100 || mid < 10 {
		p.Fail("the counters were checked %d times, %d halfway through: too few to tell", checked, mid)
	}
}

// TestThreeMonksPacing: the page never asks (cards, decision buttons)
// while the log is still telling the round, the question belongs to the
// state whose events the log ends with, the end card comes with the
// table's own winner banner, not before, and every number on the table
// belongs to the moment the log has told (tmCountersWatch).
func TestThreeMonksPacing(t *testing.T) {
	t.Parallel() // its own server and pages
	srv := servertest.Start(t, servertest.Options{Games: games.NewRegistry(threemonks.Game)})
	id := createThreeMonks(t, srv.URL)
	b := browsertest.Start(t)
	p := b.NewPage("ann")
	browsertest.SitIn(p, srv.URL, "threemonks", id, "en")
	browsertest.InstallWatch(p, `
		const s = window.__chaguan && window.__chaguan.state;
		if (!s || !s.G || !s.G.monks) return "";
		const g = s.G;
		const asking = !!document.querySelector("[data-ask]:not([disabled])") || !!document.querySelector("[data-card]:not([disabled])");
		const status = document.querySelector("[data-status=threemonks]").textContent;
		const lis = document.querySelectorAll("[data-log=threemonks] li");
		const evs = g.events.length ? g.events : g.lastEvents;
		const last = evs.length ? evs[evs.length - 1].kind : "";
		if (asking && /played out/.test(status)) return "asks while the round is played out: " + status;
		if (asking && last && lis.length && lis[lis.length - 1].dataset.ev !== last) return "asks while the log ends with " + lis[lis.length - 1].dataset.ev + ", the state with " + last;
		if (document.querySelector(".gameover") && !document.querySelector("[data-banner=threemonks]:not([hidden])")) return "the end card before the table's banner";
		return "";`)
	p.Do("record the states on show", browsertest.EvalVoid(tmHistoryHook))
	browsertest.InstallWatch(p, tmCountersWatch)
	prefer := []string{"drink", "fetch", "chant", "exchange", "rest"}
	for step := 0; step < 400; step++ {
		p.WaitJSFor("my move or the end", tmNext+` !== ""`, 90*time.Second)
		next := browsertest.Eval[string](p, tmNext)
		if next == "over" {
			p.WaitJSFor("the end card", `!!document.querySelector(".gameover")`, 90*time.Second)
			break
		}
		if next == "choose" {
			locked := browsertest.Eval[string](p, `(`+tmG+`.lastCards[0] || "")`)
			round := browsertest.Eval[int](p, tmG+`.round`)
			for _, c := range prefer {
				if c != locked {
					p.Click(fmt.Sprintf(`[data-card=%q]`, c))
					p.WaitJS("choice "+c, fmt.Sprintf(`(%s.players["0"].choice === %q || %s.round > %d || !!window.__chaguan.state.ctx.gameover)`, tmG, c, tmG, round))
					break
				}
			}
			continue
		}
		stateID := browsertest.Eval[int](p, `window.__chaguan.state.stateID`)
		p.Click(`[data-ask]`)
		p.WaitJS("decision "+next, fmt.Sprintf(`window.__chaguan.state.stateID > %d`, stateID))
	}
	browsertest.CheckWatch(p)
	checkTMCountersSampled(p)
	p.NoJSErrors()
}
