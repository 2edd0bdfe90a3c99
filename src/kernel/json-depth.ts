import { ApiError } from "./errors.ts";

/** Deepest nesting of arrays and objects a request body may have (the body itself is level 1). */
export const MAX_JSON_DEPTH = 64;

/** Object keys no request may carry: JavaScript objects cannot hold them as plain data. */
const UNSTORABLE_KEYS = new Set(["__proto__"]);

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  key: string | number | undefined;
}

/** The path of a visit, built only when it is reported (paths of every node would cost memory). */
function pathOf(visit: Visit, root: string): string {
  const keys: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(at.key);
  let path = "";
  for (const key of keys.reverse()) {
    if (typeof key === "number") path += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) path += path ? `.${key}` : key;
    else path += `[${JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key)}]`;
  }
  return path || root;
}

/**
 * Whether `value` (at `depth`) passes the check: the common case, decided without allocating. The recursion stops
 * past `max` levels, so its depth is bounded whatever the value; a value that fails is walked again to name the path.
 */
function withinShape(value: unknown, depth: number, max: number): boolean {
  if (value === null || typeof value !== "object") return true;
  if (depth > max) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!withinShape(value[i], depth + 1, max)) return false;
    return true;
  }
  // for…in, not Object.keys: no array per object (a parsed value's objects are plain, with no inherited keys).
  for (const key in value) {
    if (UNSTORABLE_KEYS.has(key) || !withinShape((value as Record<string, unknown>)[key], depth + 1, max)) {
      return false;
    }
  }
  return true;
}

/**
 * Checks a parsed JSON value right after parsing, before anything recursive sees it: nesting at most
 * `MAX_JSON_DEPTH` levels and no `__proto__` keys. Iterative (an explicit stack), so a body nested a million
 * levels deep costs one linear walk and no call stack. Errors are `validation`, naming the path where the limit
 * was passed (`root` names the whole value, e.g. "Request body").
 */
export function checkJsonShape(value: unknown, root = "Request body", max = MAX_JSON_DEPTH): void {
  if (withinShape(value, 1, max)) return;
  const stack: Visit[] = [{ value, depth: 1, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const node = visit.value;
    if (node === null || typeof node !== "object") continue;
    if (visit.depth > max) {
      throw new ApiError("validation", `${pathOf(visit, root)}: nested deeper than ${max} levels.`, {
        suggestion: `Send JSON nested at most ${max} levels deep (each array or object is one level).`,
      });
    }
    const depth = visit.depth + 1;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], depth, parent: visit, key: i });
      continue;
    }
    const keys = Object.keys(node);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const child: Visit = { value: (node as Record<string, unknown>)[key], depth, parent: visit, key };
      if (UNSTORABLE_KEYS.has(key)) {
        throw new ApiError("validation", `${pathOf(child, root)}: '${key}' cannot be used as a key.`, {
          suggestion: "Rename the key: '__proto__' names an object's prototype in JavaScript, not data.",
        });
      }
      stack.push(child);
    }
  }
}
