// @ts-check
// The weiqi plugin's sidebar: status, prompts, both players with their
// captures (and approvals in scoring), the seal pool (the last move as a
// large cinnabar chop), buttons, the count at the end, the last 20 moves,
// komi, the SGF link and the key help.

import { h } from "/assets/js/dom.js";
import { colourKey, resultText, fmt, KEYS, EVOLUTION_GENS } from "./weiqi_text.js";

/**
 * createSide builds the sidebar. on: {pass, undo, score, resign,
 * answer(yes), approve, resume, replay, help} the buttons' actions.
 * It returns {el, render(s), statusText(), fillHelp(el)}.
 * @param {import("../js/types.js").PluginApi} api
 * @param {Record<string, (...args: any[]) => any>} on
 */
export function createSide(api, on) {
  const t = api.t;
  const seated = api.you !== null;
  let status = "";

  const btn = (cls, move, fn) => h("button", { class: "btn small " + cls, type: "button", "data-move": move, onclick: fn });
  const b = {
    pass: btn("", "pass", on.pass),
    undo: btn("", "requestUndo", on.undo),
    score: btn("", "requestScoring", on.score),
    resign: btn("danger", "resign", on.resign),
    accept: btn("primary", "accept", () => on.answer(true)),
    refuse: btn("", "refuse", () => on.answer(false)),
    approve: btn("primary", "approve", on.approve),
    resume: btn("", "resume", on.resume),
    replay: h("button", { class: "wq-help-btn", type: "button", "data-move": "replay", onclick: on.replay }),
  };
  const helpBtn = h("button", { class: "wq-help-btn", type: "button", "data-action": "help", onclick: on.help });
  const statusEl = h("div", { class: "status-bar wq-status", "data-status": "weiqi" });
  const prompt = h("div", { class: "wq-prompt", "data-prompt": "weiqi", hidden: true });
  const promptText = h("p");
  const promptRow = h("div", { class: "row" }, b.accept, b.refuse);
  prompt.append(promptText, promptRow);
  // In scoring: the shaded territory is only a preview, the count comes
  // after the evolution (docs/weiqi.md), which a newcomer cannot guess.
  const note = h("p", { class: "wq-note", "data-note": "evolution", hidden: true });
  const players = h("div", { class: "wq-players" });
  const sealBox = h("div", { class: "wq-seal-pool", "data-seal": "" });
  const actions = h("div", { class: "row wq-actions" }, seated ? [b.pass, b.undo, b.score, b.approve, b.resume, b.resign] : null);
  const scoreBox = h("div", { class: "wq-score", "data-score": "", hidden: true });
  const recordTitle = h("h4", { class: "wq-h" });
  const record = h("ol", { class: "wq-record", "data-record": "weiqi" });
  const sgf = h("a", { class: "wq-sgf", "data-sgf": "weiqi", download: "" });
  const info = h("div", { class: "wq-info" });
  const foot = h("div", { class: "wq-foot" }, info, h("div", { class: "wq-links" }, b.replay, sgf, helpBtn));
  const el = h("aside", { class: "wq-side" }, statusEl, prompt, note, players, sealBox, actions, scoreBox, recordTitle, record, foot);

  const nameOf = (st, seat) => {
    const p = st && st.players && st.players[Number(seat)];
    return (p && p.name) || t("room.emptySeat");
  };

  const statusOf = (s) => {
    const { g, state: st } = s;
    if (!g || !s.started) return { text: t("weiqi.waiting"), cls: "" };
    if (s.evolving) return { text: t("weiqi.evolving", { g: Math.max(0, s.gen), last: s.lastGen }) + " · " + t("weiqi.evolveSkip"), cls: "over evolving" };
    if (s.over) {
      let text = resultText(g.result, t);
      const winner = g.result && g.result[0] === "B" ? "0" : g.result && g.result[0] === "W" ? "1" : null;
      if (seated && winner !== null) text += " " + (api.you === winner ? t("weiqi.youWin") : t("weiqi.youLose"));
      return { text, cls: "over" };
    }
    if (g.phase === "scoring") {
      if (seated && g.approved && g.approved[Number(api.you)]) return { text: t("weiqi.approvedWait"), cls: "" };
      return { text: t(seated ? "weiqi.scoringYou" : "weiqi.scoring"), cls: seated ? "mine" : "" };
    }
    const req = g.undoRequest != null ? ["undo", g.undoRequest] : g.scoringRequest != null ? ["scoring", g.scoringRequest] : null;
    if (req) {
      const [kind, who] = req;
      if (api.you === who) return { text: t(`weiqi.${kind}Waiting`), cls: "" };
      if (seated) return { text: t("weiqi.answerNeeded"), cls: "mine" };
      return { text: t(`weiqi.${kind}Pending`, { name: nameOf(st, who) }), cls: "" };
    }
    const colour = t(colourKey(g.toMove));
    const no = t("weiqi.moveNo", { n: (g.moves ? g.moves.length : 0) + 1 });
    if (api.you === g.toMove) return { text: `${t("weiqi.yourTurn", { colour })} · ${no}`, cls: "mine" };
    return { text: `${t("weiqi.toMove", { colour })} · ${no}`, cls: "" };
  };

  const playerRow = (s, seat) => {
    const g = s.g;
    const i = Number(seat);
    const active = g && s.started && !s.over && g.phase === "play" && g.toMove === seat;
    const won = g && g.result && g.result[0] === (seat === "0" ? "B" : "W");
    const extra = [];
    if (g && g.phase === "scoring" && !s.over) {
      const ok = g.approved && g.approved[i];
      extra.push(h("span", { class: "wq-appr" + (ok ? " ok" : ""), "data-approved": ok ? "1" : "0" }, ok ? "✓ " + t("weiqi.approved") : t("weiqi.notApproved")));
    }
    return h("div", { class: "wq-player" + (active ? " active" : "") + (won ? " won" : ""), "data-seat": seat },
      h("span", { class: "wq-stone " + (seat === "0" ? "b" : "w") }),
      h("span", { class: "wq-pname" }, nameOf(s.state, seat)),
      api.you === seat ? h("span", { class: "pill jade" }, t("common.you")) : null,
      h("span", { class: "wq-caps", title: t("weiqi.captures") },
        h("small", null, t("weiqi.captures")), h("b", { "data-captures": seat }, String(g && g.captures ? g.captures[i] || 0 : 0))),
      extra);
  };

  const sealPool = (g) => {
    const rec = g && g.recent && g.recent.length ? g.recent[g.recent.length - 1] : null;
    const last = g ? g.last : null;
    const isPass = last === "pass";
    const chop = h("div", { class: "wq-chop" + (last ? "" : " empty") + (isPass ? " pass" : ""), "data-last": last || "" },
      last ? (isPass ? t("weiqi.sealPass") : last) : "印");
    const cap = last
      ? [h("b", null, t("weiqi.lastMove")),
        h("span", null, (rec ? t("weiqi.moveNo", { n: rec.n }) + " · " : "") + t(rec && rec.color === "W" ? "weiqi.white" : "weiqi.black")),
        rec && rec.captured ? h("span", { class: "wq-capd" }, `${t("weiqi.captures")} ${rec.captured}`) : null]
      : [h("b", null, t("weiqi.seal")), h("span", null, t("weiqi.noMove"))];
    sealBox.replaceChildren(chop, h("div", { class: "wq-seal-cap" }, cap));
  };

  const scoreTable = (g) => {
    const sc = g.score;
    const row = (seat, s, komi) => h("tr", null,
      h("th", null, h("span", { class: "wq-stone " + (seat === "0" ? "b" : "w") }), t(colourKey(seat))),
      h("td", null, fmt(s.stones)), h("td", null, fmt(s.territory)), h("td", null, komi ? fmt(s.komi) : "—"),
      h("td", { class: "wq-total" }, fmt(s.total)));
    const parts = [];
    if (sc && sc.black && sc.white) {
      parts.push(h("h4", { class: "wq-h" }, t("weiqi.scoreTitle")), h("table", null,
        h("thead", null, h("tr", null, h("th"), h("th", null, t("weiqi.stones")), h("th", null, t("weiqi.territory")),
          h("th", null, t("weiqi.komiShort")), h("th", null, t("weiqi.total")))),
        h("tbody", null, row("0", sc.black, false), row("1", sc.white, true))));
    }
    parts.push(h("div", { class: "wq-result", "data-result": g.result || "" }, resultText(g.result, t)));
    const winner = g.result && g.result[0] === "B" ? "0" : g.result && g.result[0] === "W" ? "1" : null;
    if (seated && winner !== null) parts.push(h("div", { class: "wq-verdict" + (api.you === winner ? " win" : "") }, t(api.you === winner ? "weiqi.youWin" : "weiqi.youLose")));
    scoreBox.replaceChildren(...parts);
  };

  const recordList = (g) => {
    const rec = (g && g.recent) || [];
    if (!rec.length) { record.replaceChildren(h("li", { class: "wq-empty" }, t("weiqi.recordEmpty"))); return; }
    record.replaceChildren(...rec.map((m, i) => {
      const mv = m.move === "pass" ? t("weiqi.passMove") : m.move;
      const colour = t(m.color === "W" ? "weiqi.white" : "weiqi.black");
      const title = `${t("weiqi.moveNo", { n: m.n })} · ${colour} ${mv}` + (m.captured ? ` · ${t("weiqi.captures")} ${m.captured}` : "");
      return h("li", { class: i === rec.length - 1 ? "last" : "", title },
        h("span", { class: "wq-n" }, String(m.n)),
        h("span", { class: "wq-stone " + (m.color === "W" ? "w" : "b") }),
        h("span", { class: "wq-mv" }, m.move === "pass" ? t("weiqi.passShort") : m.move),
        m.captured ? h("sup", { class: "wq-x" }, String(m.captured)) : null);
    }));
    record.scrollTop = record.scrollHeight;
  };

  return {
    el,
    statusText: () => status,
    fillHelp(box) {
      box.replaceChildren(h("div", { class: "wq-help-card" },
        h("h4", null, t("weiqi.helpTitle")),
        h("dl", null, KEYS.map(([k, key]) => [h("dt", null, k.split(/\s{2,}/).map((x) => h("kbd", null, x))), h("dd", null, t(key))])),
        h("p", { class: "wq-help-close" }, t("weiqi.help.close"))));
    },
    render(s) {
      const g = s.g;
      const st = statusOf(s);
      status = st.text;
      statusEl.textContent = st.text;
      statusEl.className = "status-bar wq-status" + (st.cls ? " " + st.cls : "");
      // Prompts: the opponent's request, the resign key, a touch tap.
      let ask = "";
      const answerable = seated && g && s.started && !s.over && g.phase === "play" &&
        ((g.undoRequest != null && g.undoRequest !== api.you) || (g.scoringRequest != null && g.scoringRequest !== api.you));
      if (s.resignArmed) ask = t("weiqi.resignKey");
      else if (answerable) ask = g.undoRequest != null ? t("weiqi.undoAsked", { name: nameOf(s.state, g.undoRequest) }) : t("weiqi.scoringAsked", { name: nameOf(s.state, g.scoringRequest) });
      else if (s.armed) ask = t("weiqi.tapAgain");
      else if (g && s.started && !s.over && g.phase === "play" && g.passes === 1 && g.last === "pass" && g.recent && g.recent.length) {
        ask = t("weiqi.passedHint", { colour: t(g.recent[g.recent.length - 1].color === "W" ? "weiqi.white" : "weiqi.black") });
      }
      prompt.hidden = ask === "";
      prompt.dataset.kind = s.resignArmed ? "resign" : answerable ? (g.undoRequest != null ? "undo" : "scoring") : "";
      promptText.textContent = ask;
      promptRow.hidden = !answerable || s.resignArmed;
      const inScoring = !!g && s.started && !s.over && g.phase === "scoring";
      note.hidden = !inScoring;
      if (inScoring) note.textContent = t("weiqi.previewNote", { n: EVOLUTION_GENS });
      b.accept.textContent = t("weiqi.accept");
      b.refuse.textContent = t("weiqi.refuse");

      players.replaceChildren(playerRow(s, "0"), playerRow(s, "1"));
      sealPool(g);

      const live = !!g && s.started && !s.over;
      const play = live && g.phase === "play";
      const scoring = live && g.phase === "scoring";
      const req = !!g && (g.undoRequest != null || g.scoringRequest != null);
      const mine = !!g && api.you !== null && g.approved && g.approved[Number(api.you)];
      for (const [k, key] of [["pass", "pass"], ["undo", "undo"], ["score", "score"], ["resign", "resign"], ["approve", "approve"], ["resume", "resume"], ["replay", "replay"]]) {
        b[k].textContent = t("weiqi." + key);
      }
      b.pass.hidden = b.undo.hidden = b.score.hidden = !play && live;
      b.pass.disabled = !s.myTurn;
      b.undo.disabled = !play || req || !g.moves || g.moves.length === 0;
      b.score.disabled = !play || req;
      b.approve.hidden = b.resume.hidden = !scoring;
      b.approve.disabled = !scoring || mine;
      b.resume.disabled = !scoring;
      b.resign.disabled = !live;
      actions.hidden = !seated || s.over;

      const showScore = s.over && !s.evolving && g && g.result;
      scoreBox.hidden = !showScore;
      if (showScore) scoreTable(g);
      b.replay.hidden = !(showScore && g.evolution);

      recordTitle.textContent = t("weiqi.record");
      recordList(g);

      info.replaceChildren(...[
        h("span", null, h("small", null, t("weiqi.komi")), h("b", { "data-komi": "" }, g ? fmt(g.komi) : "—")),
        h("span", null, h("small", null, t("weiqi.size")), h("b", null, g ? `${g.size}×${g.size}` : "—")),
        h("span", null, h("small", null, t("weiqi.phase")), h("b", null, g ? t("weiqi.phase." + (s.over ? "over" : g.phase || "play")) : "—")),
        g && g.phase === "scoring" && !s.over
          ? h("span", { title: t("weiqi.edits", { n: g.edits || 0 }) }, h("small", null, t("weiqi.dead")), h("b", { "data-dead": "" }, String((g.dead || []).length)))
          : null].filter(Boolean));
      const id = s.state && s.state.matchID;
      sgf.hidden = !id;
      if (id) {
        sgf.href = `/games/weiqi/${encodeURIComponent(id)}/sgf`;
        sgf.setAttribute("download", `weiqi-${id}.sgf`);
      }
      sgf.textContent = "⤓ " + t("weiqi.sgf");
      sgf.title = t("weiqi.sgfTitle");
      helpBtn.textContent = t("weiqi.helpHint");
    },
  };
}
