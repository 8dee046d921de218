// @ts-check
// Carcassonne tiles for the web plugin: the 24 official types (A-X) of
// docs/carcassonne.md with their features, and SVG drawing of a placed
// tile from its edges and features in the design's look (docs/carcassonne.md): green fields, pale
// roads with a dark kerb, tan cities behind stone walls with blue shields,
// cloisters with a red roof, junction houses. A tile is drawn in a
// 100x100 frame; the board places it at (x*100, y*100).

// Edges: N=0, E=1, S=2, W=3. Field spots are hand-placed (unrotated).
const c = (i, edges, shield) => ({ id: "city" + i, kind: "city", edges, shield: !!shield });
const r = (i, edges) => ({ id: "road" + i, kind: "road", edges });
const f = (i, spot) => ({ id: "field" + i, kind: "field", spot });
const k = (i) => ({ id: "cloister" + i, kind: "cloister", spot: [50, 52] });

export const TILES = {
  A: { f: [k(0), r(1, [2]), f(2, [22, 22])], cloister: true },
  B: { f: [k(0), f(1, [22, 22])], cloister: true },
  C: { f: [c(0, [0, 1, 2, 3], true)] },
  D: { f: [c(0, [0]), r(1, [1, 3]), f(2, [80, 37]), f(3, [50, 78])] },
  E: { f: [c(0, [0]), f(1, [50, 68])] },
  F: { f: [c(0, [1, 3], true), f(1, [50, 10]), f(2, [50, 90])] },
  G: { f: [c(0, [0, 2]), f(1, [90, 50]), f(2, [10, 50])] },
  H: { f: [c(0, [0]), c(1, [2]), f(2, [50, 50])] },
  I: { f: [c(0, [0]), c(1, [3]), f(2, [66, 66])] },
  J: { f: [c(0, [0]), r(1, [1, 2]), f(2, [84, 84]), f(3, [32, 58])] },
  K: { f: [c(0, [0]), r(1, [2, 3]), f(2, [16, 84]), f(3, [68, 58])] },
  L: { f: [c(0, [0]), r(1, [1]), r(2, [2]), r(3, [3]), f(4, [80, 38]), f(5, [80, 80]), f(6, [20, 80])], junction: true },
  M: { f: [c(0, [0, 3], true), f(1, [70, 70])] },
  N: { f: [c(0, [0, 3]), f(1, [70, 70])] },
  O: { f: [c(0, [0, 3], true), r(1, [1, 2]), f(2, [84, 84]), f(3, [84, 32])] },
  P: { f: [c(0, [0, 3]), r(1, [1, 2]), f(2, [84, 84]), f(3, [84, 32])] },
  Q: { f: [c(0, [0, 1, 3], true), f(1, [50, 87])] },
  R: { f: [c(0, [0, 1, 3]), f(1, [50, 87])] },
  S: { f: [c(0, [0, 1, 3], true), r(1, [2]), f(2, [76, 90]), f(3, [24, 90])] },
  T: { f: [c(0, [0, 1, 3]), r(1, [2]), f(2, [76, 90]), f(3, [24, 90])] },
  U: { f: [r(0, [0, 2]), f(1, [78, 50]), f(2, [22, 50])] },
  V: { f: [r(0, [2, 3]), f(1, [18, 82]), f(2, [66, 34])] },
  W: { f: [r(0, [1]), r(1, [2]), r(2, [3]), f(3, [50, 22]), f(4, [80, 80]), f(5, [20, 80])], junction: true },
  X: { f: [r(0, [0]), r(1, [1]), r(2, [2]), r(3, [3]), f(4, [20, 20]), f(5, [80, 20]), f(6, [80, 80]), f(7, [20, 80])], junction: true },
};

export const PAL = {
  field: "#8dbb57", fieldDark: "#79a648", grass: "#a6cc6e",
  road: "#f3ead2", kerb: "#a08a66",
  city: "#d8b98a", cityDark: "#c4a270", wall: "#6b5034", wallLight: "#cdb084",
  roof: "#b8322a", shield: "#2f5fa8", shieldRim: "#f6efe0",
  house: "#7a5c3e",
};

/** SEAT_COLOURS are the meeple colours by seat. */
export const SEAT_COLOURS = ["#d33f33", "#2f6fd0", "#e7b622", "#3b3b3b", "#a24bc2"];

const MID = [[50, 0], [100, 50], [50, 100], [0, 50]];
const rot = ([x, y], q) => { for (let i = 0; i < q; i++) [x, y] = [100 - y, x]; return [x, y]; };

// City shapes in a canonical frame, turned by k quarter turns.
const SHAPES = {
  cap: { fill: "M0,0 H100 C78,42 22,42 0,0 Z", walls: ["M100,0 C78,42 22,42 0,0"], spot: [50, 15] },
  corner: { fill: "M0,0 H100 C62,22 22,62 0,100 Z", walls: ["M100,0 C62,22 22,62 0,100"], spot: [24, 26], shield: [48, 13] },
  band: { fill: "M0,0 H100 C72,30 72,70 100,100 H0 C28,70 28,30 0,0 Z", walls: ["M100,0 C72,30 72,70 100,100", "M0,100 C28,70 28,30 0,0"], spot: [50, 30], shield: [50, 68] },
  three: { fill: "M0,0 H100 V100 C70,62 30,62 0,100 Z", walls: ["M100,100 C70,62 30,62 0,100"], spot: [50, 38], shield: [22, 20] },
  full: { fill: "M0,0 H100 V100 H0 Z", walls: [], spot: [50, 50], shield: [24, 22] },
};

function shapeOf(edges) {
  const s = [...edges].sort();
  if (s.length === 1) return ["cap", s[0]];
  if (s.length === 4) return ["full", 0];
  if (s.length === 3) { const m = [0, 1, 2, 3].find((e) => !s.includes(e)); return ["three", (m + 2) % 4]; }
  if ((s[1] - s[0]) === 2) return ["band", s[0] % 2];
  const a = s[0] === 0 && s[1] === 3 ? 3 : s[0];
  return ["corner", (a + 1) % 4];
}

/**
 * features returns the tile's features after turning it rot degrees.
 * @param {string} type
 * @param {number} rotation
 * @returns {any[]}
 */
export function features(type, rotation) {
  const t = TILES[type];
  if (!t) return [];
  const q = ((rotation / 90) | 0) % 4;
  return t.f.map((ft) => {
    const out = { ...ft };
    if (ft.edges) out.edges = ft.edges.map((e) => (e + q) % 4);
    if (ft.kind === "city") {
      const [name, kk] = shapeOf(out.edges);
      out.shape = name; out.k = kk;
      out.spot = rot(SHAPES[name].spot, kk);
      if (ft.shield) out.shieldAt = rot(SHAPES[name].shield || [50, 50], kk);
    } else if (ft.kind === "road") {
      if (out.edges.length === 2) {
        const [a, b] = out.edges.map((e) => MID[e]);
        out.spot = [0.25 * a[0] + 25 + 0.25 * b[0], 0.25 * a[1] + 25 + 0.25 * b[1]];
      } else {
        const m = MID[out.edges[0]];
        out.spot = [0.7 * m[0] + 15, 0.7 * m[1] + 15];
      }
    } else {
      out.spot = rot(ft.spot, q);
    }
    return out;
  });
}

/**
 * spotOf returns the [x, y] (0-100) of a feature on a placed tile.
 * @param {string} type
 * @param {number} rotation
 * @param {string} id
 * @returns {[number, number]}
 */
export function spotOf(type, rotation, id) {
  const ft = features(type, rotation).find((x) => x.id === id);
  return ft ? ft.spot : [50, 50];
}

const cache = new Map();

/**
 * tileSVG returns the SVG markup of a tile in its 100x100 frame.
 * @param {string} type
 * @param {number} rotation
 * @returns {string}
 */
export function tileSVG(type, rotation) {
  const key = type + rotation;
  if (cache.has(key)) return cache.get(key);
  const t = TILES[type];
  const fs = features(type, rotation);
  const out = [];
  out.push(`<rect width="100" height="100" fill="url(#cc-grass)"/>`);
  // Roads under cities, so a road runs into a city gate.
  const roads = fs.filter((x) => x.kind === "road");
  const roadPaths = roads.map((rd) => {
    if (rd.edges.length === 2) {
      const [a, b] = rd.edges.map((e) => MID[e]);
      return `M${a[0]},${a[1]} Q50,50 ${b[0]},${b[1]}`;
    }
    const m = MID[rd.edges[0]];
    const end = t.cloister ? [50 + (m[0] - 50) * 0.3, 50 + (m[1] - 50) * 0.3] : [50, 50];
    return `M${m[0]},${m[1]} L${end[0]},${end[1]}`;
  });
  for (const d of roadPaths) out.push(`<path d="${d}" fill="none" stroke="${PAL.kerb}" stroke-width="13" stroke-linecap="butt"/>`);
  for (const d of roadPaths) out.push(`<path d="${d}" fill="none" stroke="${PAL.road}" stroke-width="9" stroke-linecap="butt"/>`);
  for (const d of roadPaths) out.push(`<path d="${d}" fill="none" stroke="${PAL.kerb}" stroke-width="0.8" stroke-dasharray="4 5" opacity=".55"/>`);
  if (t.junction) {
    out.push(`<rect x="41" y="41" width="18" height="18" rx="2" fill="${PAL.house}" stroke="#4e3a27" stroke-width="1.5"/>`);
    out.push(`<path d="M39,43 L50,35 L61,43 Z" fill="${PAL.roof}" stroke="#6e1d18" stroke-width="1"/>`);
  }
  for (const ct of fs.filter((x) => x.kind === "city")) {
    const sh = SHAPES[ct.shape];
    const tr = ct.k ? ` transform="rotate(${ct.k * 90} 50 50)"` : "";
    out.push(`<g${tr}><path d="${sh.fill}" fill="url(#cc-city)"/>`);
    for (const w of sh.walls) {
      out.push(`<path d="${w}" fill="none" stroke="${PAL.wall}" stroke-width="5.5" stroke-linecap="round"/>`);
      out.push(`<path d="${w}" fill="none" stroke="${PAL.wallLight}" stroke-width="1.6" stroke-linecap="round"/>`);
    }
    out.push(`</g>`);
    if (ct.shieldAt) {
      const [x, y] = ct.shieldAt;
      out.push(`<g transform="translate(${x} ${y})"><path d="M-7,-8 H7 V-1 C7,5 3,8 0,10 C-3,8 -7,5 -7,-1 Z" fill="${PAL.shield}" stroke="${PAL.shieldRim}" stroke-width="1.6"/><path d="M0,-6 V7 M-5,-2 H5" stroke="${PAL.shieldRim}" stroke-width="1.6"/></g>`);
    }
  }
  if (t.cloister) {
    out.push(`<g transform="translate(50 50)"><ellipse cx="0" cy="12" rx="19" ry="4" fill="rgba(0,0,0,.18)"/>` +
      `<rect x="-14" y="-6" width="28" height="18" fill="#efe2c4" stroke="#6b5437" stroke-width="1.4"/>` +
      `<path d="M-17,-5 L0,-17 L17,-5 Z" fill="${PAL.roof}" stroke="#6e1d18" stroke-width="1.2"/>` +
      `<rect x="-4" y="2" width="8" height="10" rx="4" fill="#6b5437"/>` +
      `<path d="M0,-26 V-17 M-3.5,-22.5 H3.5" stroke="#6b5437" stroke-width="1.8"/></g>`);
  }
  out.push(`<rect x=".5" y=".5" width="99" height="99" fill="none" stroke="rgba(40,30,15,.28)" stroke-width="1"/>`);
  const s = out.join("");
  cache.set(key, s);
  return s;
}

/** DEFS are the SVG patterns a board needs (grass, city stones). */
export const DEFS = `<defs>
<pattern id="cc-grass" width="100" height="100" patternUnits="userSpaceOnUse">
<rect width="100" height="100" fill="${PAL.field}"/>
<g stroke="${PAL.grass}" stroke-width="1.2" stroke-linecap="round" opacity=".8">
<path d="M12,20 l2,-5 M15,21 l-1,-5 M62,14 l2,-5 M65,15 l-1,-5 M83,58 l2,-5 M86,59 l-1,-5 M30,70 l2,-5 M33,71 l-1,-5 M52,88 l2,-5 M55,89 l-1,-5 M8,52 l2,-5 M90,90 l-1,-5"/></g>
<g fill="${PAL.fieldDark}" opacity=".55"><circle cx="40" cy="40" r="1.3"/><circle cx="75" cy="30" r="1.1"/><circle cx="22" cy="88" r="1.2"/><circle cx="70" cy="75" r="1"/></g>
</pattern>
<pattern id="cc-city" width="20" height="12" patternUnits="userSpaceOnUse">
<rect width="20" height="12" fill="${PAL.city}"/>
<path d="M0,6 H20 M10,0 V6 M0,6 V12 M20,6 V12" stroke="${PAL.cityDark}" stroke-width=".8" fill="none"/>
</pattern>
<filter id="cc-shadow" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="0" dy="1.5" stdDeviation="1.6" flood-opacity=".45"/></filter>
</defs>`;

/**
 * meepleSVG draws a meeple of the seat's colour standing at (x, y).
 * @param {number} seat
 * @param {number} x
 * @param {number} y
 * @param {number} [size]
 * @param {string} [extra] more attributes
 * @returns {string}
 */
export function meepleSVG(seat, x, y, size = 1, extra = "") {
  const col = SEAT_COLOURS[seat % SEAT_COLOURS.length];
  return `<g class="cc-meeple" data-seat="${seat}" transform="translate(${x} ${y}) scale(${size})"${extra}>` +
    `<path d="M0,-11 C3.6,-11 4.6,-8 4,-5.5 C7,-5 10.5,-3.6 10.5,-1 C10.5,1 8,1.2 5.5,0.6 L8.5,9 H2.5 L0,4 L-2.5,9 H-8.5 L-5.5,0.6 C-8,1.2 -10.5,1 -10.5,-1 C-10.5,-3.6 -7,-5 -4,-5.5 C-4.6,-8 -3.6,-11 0,-11 Z" ` +
    `fill="${col}" stroke="#1d140c" stroke-width="1.3" stroke-linejoin="round" filter="url(#cc-shadow)"/></g>`;
}

/**
 * esc escapes text for SVG markup.
 * @param {any} s
 * @returns {string}
 */
export const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));
