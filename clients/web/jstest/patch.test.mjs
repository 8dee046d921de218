// Tests of static/js/patch.js with node's own test runner:
//   node --test clients/web/jstest/
// (clients/web's Go tests run them when node is on PATH).
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch, parsePointer, PatchError } from "../static/js/patch.js";

const clone = (v) => JSON.parse(JSON.stringify(v));

// RFC 6902 appendix A, the cases for the operations and errors.
const rfc = [
  ["A.1 add an object member", { foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }], { foo: "bar", baz: "qux" }],
  ["A.2 add an array element", { foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }], { foo: ["bar", "qux", "baz"] }],
  ["A.3 remove an object member", { baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }], { foo: "bar" }],
  ["A.4 remove an array element", { foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }], { foo: ["bar", "baz"] }],
  ["A.5 replace a value", { baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }], { baz: "boo", foo: "bar" }],
  ["A.6 move a value", { foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } }, [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }], { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } }],
  ["A.7 move an array element", { foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }], { foo: ["all", "cows", "eat", "grass"] }],
  ["A.8 test a value", { baz: "qux", foo: ["a", 2, "c"] }, [{ op: "test", path: "/baz", value: "qux" }, { op: "test", path: "/foo/1", value: 2 }], { baz: "qux", foo: ["a", 2, "c"] }],
  ["A.10 add a nested member", { foo: "bar" }, [{ op: "add", path: "/child", value: { grandchild: {} } }], { foo: "bar", child: { grandchild: {} } }],
  ["A.11 ignore unrecognised elements", { foo: "bar" }, [{ op: "add", path: "/baz", value: "qux", xyz: 123 }], { foo: "bar", baz: "qux" }],
  ["A.14 ~ escapes", { "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: 10 }], { "/": 9, "~1": 10 }],
  ["A.16 add an array value", { foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }], { foo: ["bar", ["abc", "def"]] }],
  ["copy", { a: { b: [1] } }, [{ op: "copy", from: "/a", path: "/c" }], { a: { b: [1] }, c: { b: [1] } }],
  ["replace the whole document", { a: 1 }, [{ op: "replace", path: "", value: [1] }], [1]],
];
for (const [name, doc, ops, want] of rfc) {
  test(name, () => {
    const before = clone(doc);
    const got = applyPatch(doc, ops);
    assert.deepEqual(got, want);
    assert.equal(JSON.stringify(got), JSON.stringify(want), "members in order");
    assert.deepEqual(doc, before, "the document given is unchanged");
  });
}

const errors = [
  ["A.9 a failed test", { baz: "qux", foo: ["a", 2, "c"] }, [{ op: "test", path: "/baz", value: "bar" }]],
  ["A.12 add to a nonexistent target", { foo: "bar" }, [{ op: "add", path: "/baz/bat", value: "qux" }]],
  ["A.15 test: string vs number", { "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: "10" }]],
  ["an index past the end", { a: [1] }, [{ op: "add", path: "/a/2", value: 3 }]],
  ["an index with a leading zero", { a: [1, 2] }, [{ op: "replace", path: "/a/01", value: 3 }]],
  ["- for a replace", { a: [1] }, [{ op: "replace", path: "/a/-", value: 3 }]],
  ["remove a missing member", { a: 1 }, [{ op: "remove", path: "/b" }]],
  ["replace a missing member", { a: 1 }, [{ op: "replace", path: "/b", value: 2 }]],
  ["a path without /", { a: 1 }, [{ op: "add", path: "a", value: 2 }]],
  ["a bad escape", { a: 1 }, [{ op: "add", path: "/~2", value: 2 }]],
  ["no value", { a: 1 }, [{ op: "add", path: "/b" }]],
  ["an unknown op", { a: 1 }, [{ op: "merge", path: "/a", value: 2 }]],
  ["a move into itself", { a: { b: 1 } }, [{ op: "move", from: "/a", path: "/a/b/c" }]],
  ["into a scalar", { a: 1 }, [{ op: "add", path: "/a/b", value: 2 }]],
  ["not an array of operations", { a: 1 }, { op: "add", path: "/b", value: 2 }],
];
for (const [name, doc, ops] of errors) {
  test(`refused: ${name}`, () => {
    const before = clone(doc);
    assert.throws(() => applyPatch(doc, ops), PatchError);
    assert.deepEqual(doc, before);
  });
}

test("a patch applies whole or not at all", () => {
  const doc = { log: [1, 2], n: 1 };
  assert.throws(() => applyPatch(doc, [{ op: "add", path: "/log/-", value: 3 }, { op: "replace", path: "/nope", value: 0 }]), PatchError);
  assert.deepEqual(doc, { log: [1, 2], n: 1 });
});

test("copy on write: the new document shares what did not change", () => {
  const doc = { G: { history: [[1], [2]], trick: { plays: [] } }, players: [{ id: 0 }] };
  const got = applyPatch(doc, [{ op: "add", path: "/G/trick/plays/-", value: { seat: 0, card: "QS" } }, { op: "add", path: "/G/trick/plays/-", value: { seat: 1, card: "2S" } }]);
  assert.equal(got.G.history, doc.G.history);
  assert.equal(got.players, doc.players);
  assert.notEqual(got.G.trick, doc.G.trick);
  assert.deepEqual(doc.G.trick.plays, []);
  assert.deepEqual(got.G.trick.plays, [{ seat: 0, card: "QS" }, { seat: 1, card: "2S" }]);
});

test("a log window: remove /log/0, add /log/-", () => {
  const doc = { log: [{ turn: 1 }, { turn: 2 }, { turn: 3 }] };
  const got = applyPatch(doc, [{ op: "remove", path: "/log/0" }, { op: "add", path: "/log/-", value: { turn: 4 } }]);
  assert.deepEqual(got.log.map((e) => e.turn), [2, 3, 4]);
});

test("__proto__ stays a plain member", () => {
  const doc = JSON.parse('{"a":{}}');
  const got = applyPatch(doc, [{ op: "add", path: "/a/__proto__", value: { polluted: true } }, { op: "add", path: "/__proto__", value: 1 }]);
  assert.equal({}.polluted, undefined);
  assert.equal(Object.getPrototypeOf(got.a), Object.prototype);
  assert.deepEqual(Object.keys(got.a), ["__proto__"]);
  assert.equal(JSON.stringify(got), '{"a":{"__proto__":{"polluted":true}},"__proto__":1}');
});

test("pointers", () => {
  assert.deepEqual(parsePointer(""), []);
  assert.deepEqual(parsePointer("/"), [""]);
  assert.deepEqual(parsePointer("/a~1b/m~0n/0"), ["a/b", "m~n", "0"]);
  assert.throws(() => parsePointer("/a~"), PatchError);
});
