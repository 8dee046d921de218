// @ts-check
// dom: a tiny element builder so views read as trees, not as strings of
// HTML (no innerHTML with user data anywhere).

/**
 * h builds an element. attrs: "class", "text", "on<event>" (listeners),
 * "dataset", boolean properties (disabled, checked, hidden) and other
 * attributes. Children may be nodes, strings, numbers, arrays, or null.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  /** @type {any} (the attrs reach properties such as value) */
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "value") el.value = v;
      else if (v === true) el.setAttribute(k, "");
      else el.setAttribute(k, String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/**
 * clear removes every child of el.
 * @param {Node} el
 */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/**
 * replace clears el and appends children.
 * @param {Node} el
 * @param {...any} children
 */
export function replace(el, ...children) {
  clear(el);
  append(el, children);
}
