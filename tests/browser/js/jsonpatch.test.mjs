// Unit tests of static/js/jsonpatch.js: `node --test tests/browser/js/`.
// The examples are those of RFC 6902 appendix A, plus the client's own needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch, parsePointer, getPointer, PatchError } from "../../../static/js/jsonpatch.js";

const ok = (doc, ops, want) => assert.deepStrictEqual(applyPatch(doc, ops), want);
const bad = (doc, ops) => assert.throws(() => applyPatch(doc, ops), PatchError);

test("A.1 add an object member", () => ok({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }], { foo: "bar", baz: "qux" }));
test("A.2 add an array element", () =>
  ok({ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }], { foo: ["bar", "qux", "baz"] }));
test("A.3 remove an object member", () => ok({ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }], { foo: "bar" }));
test("A.4 remove an array element", () =>
  ok({ foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }], { foo: ["bar", "baz"] }));
test("A.5 replace a value", () =>
  ok({ baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }], { baz: "boo", foo: "bar" }));
test("A.6 move a value", () =>
  ok(
    { foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } },
    [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }],
    { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } },
  ));
test("A.7 move an array element", () =>
  ok({ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }], {
    foo: ["all", "cows", "eat", "grass"],
  }));
test("A.8 test succeeds", () => {
  const doc = { baz: "qux", foo: ["a", 2, "c"] };
  ok(doc, [{ op: "test", path: "/baz", value: "qux" }, { op: "test", path: "/foo/1", value: 2 }], doc);
});
test("A.9 test fails", () => bad({ baz: "qux" }, [{ op: "test", path: "/baz", value: "bar" }]));
test("A.10 add a nested member object", () =>
  ok({ foo: "bar" }, [{ op: "add", path: "/child", value: { grandchild: {} } }], { foo: "bar", child: { grandchild: {} } }));
test("A.11 unrecognised members are ignored", () =>
  ok({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux", xyz: 123 }], { foo: "bar", baz: "qux" }));
test("A.12 add to a nonexistent target fails", () => bad({ foo: "bar" }, [{ op: "add", path: "/baz/bat", value: "qux" }]));
test("A.14 ~ escapes", () => ok({ "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: 10 }], { "/": 9, "~1": 10 }));
test("A.15 comparing strings and numbers fails", () => bad({ "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: "10" }]));
test("A.16 add an array value", () =>
  ok({ foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }], { foo: ["bar", ["abc", "def"]] }));

test("copy", () => ok({ a: [1, 2] }, [{ op: "copy", from: "/a", path: "/b" }], { a: [1, 2], b: [1, 2] }));
test("replace the whole document", () => ok({ a: 1 }, [{ op: "replace", path: "", value: [1] }], [1]));
test("append with - and insert at the end index", () =>
  ok([1], [{ op: "add", path: "/-", value: 2 }, { op: "add", path: "/2", value: 3 }], [1, 2, 3]));
test("test compares objects regardless of key order", () =>
  ok({ a: { x: 1, y: [1, { z: null }] } }, [{ op: "test", path: "/a", value: { y: [1, { z: null }], x: 1 } }], {
    a: { x: 1, y: [1, { z: null }] },
  }));

test("bad array indexes are refused", () => {
  bad([1, 2], [{ op: "replace", path: "/2", value: 0 }]);
  bad([1, 2], [{ op: "add", path: "/3", value: 0 }]);
  bad([1, 2], [{ op: "remove", path: "/01" }]);
  bad([1, 2], [{ op: "remove", path: "/-" }]);
  bad([1, 2], [{ op: "remove", path: "/-1" }]);
});
test("missing members and malformed operations are refused", () => {
  bad({ a: 1 }, [{ op: "remove", path: "/b" }]);
  bad({ a: 1 }, [{ op: "replace", path: "/b", value: 1 }]);
  bad({ a: 1 }, [{ op: "add", path: "/a" }]);
  bad({ a: 1 }, [{ op: "frobnicate", path: "/a" }]);
  bad({ a: 1 }, [{ op: "add", path: "a", value: 1 }]);
  bad({ a: { b: 1 } }, [{ op: "move", from: "/a", path: "/a/b/c" }]);
  bad({ a: 1 }, { op: "add" });
});

test("the input document is never mutated and untouched parts are shared", () => {
  const doc = { view: { table: ["2H", "7S"], hand: ["9D"] }, other: { big: [1, 2, 3] } };
  const frozen = JSON.stringify(doc);
  const out = applyPatch(doc, [
    { op: "remove", path: "/view/table/1" },
    { op: "add", path: "/view/table/-", value: "4C" },
  ]);
  assert.equal(JSON.stringify(doc), frozen);
  assert.deepStrictEqual(out.view.table, ["2H", "4C"]);
  assert.equal(out.other, doc.other);
  assert.equal(out.view.hand, doc.view.hand);
});

test("a failing patch leaves the document unchanged and names the operation", () => {
  const doc = { a: [1] };
  const frozen = JSON.stringify(doc);
  try {
    applyPatch(doc, [{ op: "add", path: "/a/-", value: 2 }, { op: "remove", path: "/nope" }]);
    assert.fail("should throw");
  } catch (err) {
    assert.ok(err instanceof PatchError);
    assert.equal(err.index, 1);
  }
  assert.equal(JSON.stringify(doc), frozen);
});

test("__proto__ is an ordinary member name", () => {
  const out = applyPatch({}, [{ op: "add", path: "/__proto__", value: { polluted: true } }]);
  assert.deepStrictEqual(Object.keys(out), ["__proto__"]);
  assert.equal({}.polluted, undefined);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
});

test("pointers", () => {
  assert.deepStrictEqual(parsePointer(""), []);
  assert.deepStrictEqual(parsePointer("/a~1b/~0c/"), ["a/b", "~c", ""]);
  assert.equal(getPointer({ a: [{ b: 5 }] }, "/a/0/b"), 5);
  assert.equal(getPointer({ a: [] }, "/a/0"), undefined);
});

// Cases made by Python's jsonpatch.make_patch, when the pytest wrapper passes them.
const casesFile = process.env.JSONPATCH_CASES;
if (casesFile) {
  const { readFileSync } = await import("node:fs");
  const cases = JSON.parse(readFileSync(casesFile, "utf8"));
  test(`${cases.length} patches made by python jsonpatch apply exactly`, () => {
    for (const { src, dst, patch } of cases) assert.deepStrictEqual(applyPatch(src, patch), dst);
  });
}
