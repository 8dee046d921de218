// @ts-check
// patch: RFC 6902 JSON Patch, for the patch messages the server sends a
// connection that asked for them (docs/api.md, "Patches"). applyPatch
// never changes the document it is given: it returns a new one that
// shares every part no operation touched, or throws a PatchError, and the
// document given is then still the one to use (a patch applies whole or
// not at all). A member an "add" creates comes last in its object, as the
// server's own encoding has it.

/** PatchError is thrown for an operation that cannot be applied. */
export class PatchError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "PatchError";
  }
}

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isContainer = (v) => v !== null && typeof v === "object";

/**
 * parsePointer splits an RFC 6901 JSON Pointer into its tokens.
 * @param {string} p
 * @returns {string[]}
 */
export function parsePointer(p) {
  if (typeof p !== "string") throw new PatchError("a path must be a string");
  if (p === "") return [];
  if (p[0] !== "/") throw new PatchError(`path ${JSON.stringify(p)} does not start with /`);
  return p.slice(1).split("/").map((t) => {
    if (/~[^01]|~$/.test(t)) throw new PatchError(`path ${JSON.stringify(p)} has a bad ~ escape`);
    return t.replace(/~1/g, "/").replace(/~0/g, "~");
  });
}

// index reads an array index token for arr; end allows arr.length ("-").
function index(arr, tok, end) {
  if (tok === "-" && end) return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(tok)) throw new PatchError(`bad array index ${JSON.stringify(tok)}`);
  const i = Number(tok);
  if (i > arr.length || (i === arr.length && !end)) throw new PatchError(`array index ${i} out of range (length ${arr.length})`);
  return i;
}

// setOwn sets an object's own member; "__proto__" stays a plain member.
function setOwn(obj, key, value) {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

// get returns the value at tokens, or throws.
function get(doc, tokens) {
  let node = doc;
  for (const tok of tokens) {
    if (Array.isArray(node)) node = node[index(node, tok, false)];
    else if (isContainer(node) && hasOwn(node, tok)) node = node[tok];
    else throw new PatchError(`no value at ${JSON.stringify(tok)}`);
  }
  return node;
}

// Copy on write: copy returns a container this patch may change, fresh
// holds those this call made.
function copy(node, fresh) {
  if (fresh.has(node)) return node;
  const c = Array.isArray(node) ? node.slice() : { ...node };
  fresh.add(c);
  return c;
}

// parentOf returns [root, parent] where parent, the container holding
// tokens' last one, and every container above it are this patch's own.
function parentOf(root, tokens, fresh) {
  if (!isContainer(root)) throw new PatchError("the document is not a container");
  const top = copy(root, fresh);
  let node = top;
  for (const tok of tokens.slice(0, -1)) {
    let key;
    if (Array.isArray(node)) key = index(node, tok, false);
    else if (hasOwn(node, tok)) key = tok;
    else throw new PatchError(`no member ${JSON.stringify(tok)}`);
    if (!isContainer(node[key])) throw new PatchError(`${JSON.stringify(tok)} is not a container`);
    const child = copy(node[key], fresh);
    setOwn(node, key, child);
    node = child;
  }
  return [top, node];
}

function add(root, tokens, value, fresh) {
  if (tokens.length === 0) return value;
  const [top, parent] = parentOf(root, tokens, fresh);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(index(parent, last, true), 0, value);
  else setOwn(parent, last, value);
  return top;
}

function remove(root, tokens, fresh) {
  if (tokens.length === 0) throw new PatchError("cannot remove the whole document");
  const [top, parent] = parentOf(root, tokens, fresh);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(index(parent, last, false), 1);
  else if (hasOwn(parent, last)) delete parent[last];
  else throw new PatchError(`no member ${JSON.stringify(last)} to remove`);
  return top;
}

function replace(root, tokens, value, fresh) {
  if (tokens.length === 0) return value;
  const [top, parent] = parentOf(root, tokens, fresh);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent[index(parent, last, false)] = value;
  else if (hasOwn(parent, last)) setOwn(parent, last, value);
  else throw new PatchError(`no member ${JSON.stringify(last)} to replace`);
  return top;
}

/**
 * deepEqual compares two JSON values.
 * @param {any} a
 * @param {any} b
 * @returns {boolean}
 */
export function deepEqual(a, b) {
  if (a === b) return true;
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => hasOwn(b, k) && deepEqual(a[k], b[k]));
}

/**
 * applyPatch applies RFC 6902 operations (add, remove, replace, move, copy,
 * test) to doc and returns the new document; doc is never changed. Any
 * operation that cannot be applied throws a PatchError.
 * @param {any} doc
 * @param {{op: string, path: string, value?: any, from?: string}[]} ops
 * @returns {any}
 */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch is an array of operations");
  const fresh = new Set();
  let root = doc;
  ops.forEach((op, i) => {
    if (!isContainer(op) || typeof op.op !== "string") throw new PatchError(`operation ${i} is not an operation`);
    const path = parsePointer(op.path);
    const needValue = op.op === "add" || op.op === "replace" || op.op === "test";
    if (needValue && !hasOwn(op, "value")) throw new PatchError(`operation ${i} (${op.op}) has no value`);
    switch (op.op) {
      case "add": root = add(root, path, op.value, fresh); break;
      case "remove": root = remove(root, path, fresh); break;
      case "replace": root = replace(root, path, op.value, fresh); break;
      case "move": {
        const from = parsePointer(op.from);
        if (from.length < path.length && from.every((t, j) => t === path[j])) throw new PatchError("cannot move a value into itself");
        const value = get(root, from);
        root = add(remove(root, from, fresh), path, value, fresh);
        break;
      }
      case "copy": {
        const value = get(root, parsePointer(op.from));
        root = add(root, path, isContainer(value) ? JSON.parse(JSON.stringify(value)) : value, fresh);
        break;
      }
      case "test":
        if (!deepEqual(get(root, path), op.value)) throw new PatchError(`test failed at ${JSON.stringify(op.path)}`);
        break;
      default:
        throw new PatchError(`unknown op ${JSON.stringify(op.op)}`);
    }
  });
  return root;
}
