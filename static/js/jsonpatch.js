// RFC 6902 JSON Patch and RFC 6901 JSON Pointer, without mutation.
//
// applyPatch(doc, ops) returns a new document and never changes `doc` or the
// operations: every container on a changed path is copied, everything else is
// shared.  Any failure (a bad pointer, a missing member, an out-of-range index,
// a failed `test`, an unknown op) throws a PatchError and, since nothing was
// mutated, leaves the caller's document as it was: the client then asks the
// server again with its last good seq (docs/protocol.md).

export class PatchError extends Error {
  constructor(message, index = null) {
    super(index === null ? message : `operation ${index}: ${message}`);
    this.name = "PatchError";
    this.index = index;
  }
}

const INDEX_RE = /^(0|[1-9][0-9]*)$/;

/** Split a JSON Pointer ("/a/b~1c") into its unescaped reference tokens. */
export function parsePointer(pointer) {
  if (typeof pointer !== "string") throw new PatchError("a pointer must be a string");
  if (pointer === "") return [];
  if (pointer[0] !== "/") throw new PatchError(`pointer must start with "/": ${pointer}`);
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

function arrayIndex(arr, token, forAdd) {
  if (forAdd && token === "-") return arr.length;
  if (!INDEX_RE.test(token)) throw new PatchError(`bad array index: ${token}`);
  const i = Number(token);
  const max = forAdd ? arr.length : arr.length - 1;
  if (i > max) throw new PatchError(`array index out of range: ${token}`);
  return i;
}

// Assign without ever touching a prototype, even for a key named __proto__.
function put(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  return obj;
}

function copyObject(obj) {
  const out = {};
  for (const k of Object.keys(obj)) put(out, k, obj[k]);
  return out;
}

/** The value at `tokens` in `doc`; throws when it does not exist. */
function getAt(doc, tokens) {
  let node = doc;
  for (const token of tokens) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (isObject(node) && hasOwn(node, token)) node = node[token];
    else throw new PatchError(`no value at /${tokens.join("/")}`);
  }
  return node;
}

/** Copy the containers along `tokens` and replace the node there by fn(node). */
function modify(node, tokens, i, fn) {
  if (i === tokens.length) return fn(node);
  const token = tokens[i];
  if (Array.isArray(node)) {
    const idx = arrayIndex(node, token, false);
    const copy = node.slice();
    copy[idx] = modify(node[idx], tokens, i + 1, fn);
    return copy;
  }
  if (isObject(node) && hasOwn(node, token)) {
    return put(copyObject(node), token, modify(node[token], tokens, i + 1, fn));
  }
  throw new PatchError(`no container at /${tokens.slice(0, i + 1).join("/")}`);
}

function addAt(doc, tokens, value) {
  if (tokens.length === 0) return value;
  const last = tokens[tokens.length - 1];
  return modify(doc, tokens.slice(0, -1), 0, (parent) => {
    if (Array.isArray(parent)) {
      const copy = parent.slice();
      copy.splice(arrayIndex(parent, last, true), 0, value);
      return copy;
    }
    if (isObject(parent)) return put(copyObject(parent), last, value);
    throw new PatchError("cannot add to a value that is not an object or array");
  });
}

function removeAt(doc, tokens) {
  if (tokens.length === 0) throw new PatchError("cannot remove the whole document");
  const last = tokens[tokens.length - 1];
  return modify(doc, tokens.slice(0, -1), 0, (parent) => {
    if (Array.isArray(parent)) {
      const copy = parent.slice();
      copy.splice(arrayIndex(parent, last, false), 1);
      return copy;
    }
    if (isObject(parent) && hasOwn(parent, last)) {
      const copy = copyObject(parent);
      delete copy[last];
      return copy;
    }
    throw new PatchError(`nothing to remove at /${tokens.join("/")}`);
  });
}

function replaceAt(doc, tokens, value) {
  if (tokens.length === 0) return value;
  getAt(doc, tokens); // must exist
  const last = tokens[tokens.length - 1];
  return modify(doc, tokens.slice(0, -1), 0, (parent) => {
    if (Array.isArray(parent)) {
      const copy = parent.slice();
      copy[arrayIndex(parent, last, false)] = value;
      return copy;
    }
    return put(copyObject(parent), last, value);
  });
}

/** Structural equality of two JSON values (object key order ignored). */
export function deepEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

function applyOne(doc, op) {
  if (!isObject(op) || typeof op.op !== "string") throw new PatchError("an operation must be an object with an op");
  const path = parsePointer(op.path);
  switch (op.op) {
    case "add":
      if (!hasOwn(op, "value")) throw new PatchError("add needs a value");
      return addAt(doc, path, op.value);
    case "remove":
      return removeAt(doc, path);
    case "replace":
      if (!hasOwn(op, "value")) throw new PatchError("replace needs a value");
      return replaceAt(doc, path, op.value);
    case "move": {
      const from = parsePointer(op.from);
      if (from.length < path.length && from.every((t, i) => t === path[i])) {
        throw new PatchError("cannot move a value into one of its own children");
      }
      const value = getAt(doc, from);
      return addAt(removeAt(doc, from), path, value);
    }
    case "copy":
      return addAt(doc, path, getAt(doc, parsePointer(op.from)));
    case "test":
      if (!hasOwn(op, "value")) throw new PatchError("test needs a value");
      if (!deepEqual(getAt(doc, path), op.value)) throw new PatchError(`test failed at ${op.path}`);
      return doc;
    default:
      throw new PatchError(`unknown op: ${op.op}`);
  }
}

/** Apply an RFC 6902 patch; returns the new document, or throws PatchError. */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch must be an array of operations");
  let out = doc;
  ops.forEach((op, i) => {
    try {
      out = applyOne(out, op);
    } catch (err) {
      if (err instanceof PatchError && err.index === null) throw new PatchError(err.message, i);
      throw err;
    }
  });
  return out;
}

/** The value a pointer refers to, or undefined. */
export function getPointer(doc, pointer) {
  try {
    return getAt(doc, parsePointer(pointer));
  } catch {
    return undefined;
  }
}
