// A small stand-in for the browser's globals the client's modules use
// (document, elements, localStorage, navigator, location, history,
// window), for the node tests in this directory. Only what the modules
// touch is here: elements with attributes, dataset, classList, children
// and text, and document.querySelectorAll for "[data-…]" selectors.

const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

export class FakeNode {
  constructor() {
    this.parentNode = null;
    this.childNodes = [];
  }
  get firstChild() { return this.childNodes[0] || null; }
  appendChild(c) {
    if (c.parentNode) c.parentNode.removeChild(c);
    c.parentNode = this;
    this.childNodes.push(c);
    return c;
  }
  removeChild(c) {
    const i = this.childNodes.indexOf(c);
    if (i < 0) throw new Error("not a child");
    this.childNodes.splice(i, 1);
    c.parentNode = null;
    return c;
  }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(""); }
  set textContent(v) {
    for (const c of this.childNodes) c.parentNode = null;
    this.childNodes = [];
    if (v !== "" && v !== null && v !== undefined) this.appendChild(new FakeText(String(v)));
  }
}

export class FakeText extends FakeNode {
  constructor(text) { super(); this.data = text; }
  get textContent() { return this.data; }
  set textContent(v) { this.data = String(v); }
}

export class FakeElement extends FakeNode {
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    this.attributes = new Map();
    this.dataset = {};
    this.hidden = false;
    this.listeners = {};
    const classes = new Set();
    this._classes = classes;
    this.classList = {
      add: (...c) => c.forEach((x) => classes.add(x)),
      remove: (...c) => c.forEach((x) => classes.delete(x)),
      contains: (c) => classes.has(c),
      toggle: (c, force) => {
        const on = force === undefined ? !classes.has(c) : !!force;
        if (on) classes.add(c); else classes.delete(c);
        return on;
      },
    };
  }
  get className() { return [...this._classes].join(" "); }
  set className(v) {
    this._classes.clear();
    for (const c of String(v).split(/\s+/)) if (c) this._classes.add(c);
  }
  get children() { return this.childNodes.filter((c) => c instanceof FakeElement); }
  setAttribute(k, v) {
    if (k === "class") { this.className = v; return; }
    this.attributes.set(k, String(v));
    if (k.startsWith("data-")) this.dataset[camel(k.slice(5))] = String(v);
  }
  getAttribute(k) {
    if (k === "class") return this.className;
    if (k.startsWith("data-")) {
      const v = this.dataset[camel(k.slice(5))];
      return v === undefined ? null : v;
    }
    return this.attributes.has(k) ? this.attributes.get(k) : null;
  }
  hasAttribute(k) { return this.getAttribute(k) !== null; }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  removeEventListener(type, fn) {
    this.listeners[type] = (this.listeners[type] || []).filter((f) => f !== fn);
  }
  /** querySelectorAll supports "[data-name]" only, over the descendants. */
  querySelectorAll(sel) {
    const m = /^\[data-([a-z-]+)\]$/.exec(sel);
    if (!m) throw new Error("fakedom: unsupported selector " + sel);
    const key = camel(m[1]);
    const out = [];
    const walk = (n) => {
      for (const c of n.children) {
        if (key in c.dataset) out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }
}

/** fakeStorage is a localStorage: getItem, setItem, removeItem, key, length, clear. */
export function fakeStorage(entries = {}) {
  const m = new Map(Object.entries(entries));
  return {
    get length() { return m.size; },
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => { m.set(k, String(v)); },
    removeItem: (k) => { m.delete(k); },
    clear: () => m.clear(),
  };
}

/** brokenStorage is a localStorage that throws on every use (storage disabled). */
export function brokenStorage() {
  const no = () => { throw new Error("SecurityError: storage is disabled"); };
  return { get length() { return no(); }, key: no, getItem: no, setItem: no, removeItem: no, clear: no };
}

/**
 * setGlobal defines a global, replacing node's own where it has one
 * (navigator, performance, and later versions' others are accessors).
 */
export function setGlobal(name, value) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: true });
}

/**
 * install puts a fresh document (with a body), window, history, location,
 * navigator and localStorage in place and returns them.
 */
export function install({ storage = fakeStorage(), languages = ["en-US"], language, search = "", pathname = "/" } = {}) {
  const body = new FakeElement("body");
  const documentElement = new FakeElement("html");
  documentElement.appendChild(body);
  const document = {
    body,
    documentElement,
    createElement: (tag) => new FakeElement(tag),
    createTextNode: (text) => new FakeText(text),
    querySelectorAll: (sel) => documentElement.querySelectorAll(sel),
    getElementById: () => null,
  };
  const location = { protocol: "http:", host: "example.test", origin: "http://example.test", pathname, search };
  const history = {
    entries: [pathname + search],
    pushState(_s, _t, path) { this.entries.push(path); location.pathname = new URL(path, "http://example.test").pathname; },
    replaceState(_s, _t, path) { this.entries[this.entries.length - 1] = path; location.pathname = new URL(path, "http://example.test").pathname; },
  };
  const window = new EventTarget();
  const navigator = { languages, language: language ?? languages[0] };
  setGlobal("document", document);
  setGlobal("Node", FakeNode);
  setGlobal("window", window);
  setGlobal("location", location);
  setGlobal("history", history);
  setGlobal("navigator", navigator);
  setGlobal("localStorage", storage);
  return { document, window, location, history, navigator, localStorage: storage };
}
