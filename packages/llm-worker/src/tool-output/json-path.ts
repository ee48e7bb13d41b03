import type { JsonValue } from "../tool/tool-output.js";
import { describeJsonWithArticle, isJsonObject } from "./json-describe.js";

const INDEX = /^\d+$/;
/** Keys listed in a "not found" message, so the model can pick one without another call. */
const KEYS_LISTED = 20;

/** Where a path points, for messages: `results.3` or "the top level". */
export function pathLabel(path: readonly string[]): string {
  return path.length === 0 ? "the top level" : `"${path.join(".")}"`;
}

/**
 * The value at `path` inside `root`. At an object a segment is a key; a key that itself holds
 * dots is found too, because the rest of the path is first tried as one key. At an array a
 * segment is an index. Throws an Error whose message says what exists there instead.
 */
export function resolvePath(root: JsonValue, path: readonly string[]): JsonValue {
  let node = root;
  let at = 0;
  while (at < path.length) {
    const where = pathLabel(path.slice(0, at));
    const segment = path[at] ?? "";
    if (isJsonObject(node)) {
      const rest = path.slice(at).join(".");
      if (at < path.length - 1 && Object.hasOwn(node, rest)) return node[rest] ?? null;
      if (!Object.hasOwn(node, segment)) throw new Error(missingKey(node, segment, where));
      node = node[segment] ?? null;
    } else if (Array.isArray(node)) {
      const index = INDEX.test(segment) ? Number(segment) : Number.NaN;
      if (!(index < node.length)) {
        throw new Error(
          node.length === 0
            ? `${where} is an empty array: it has no "${segment}"`
            : `${where} is an array of ${node.length} entries: "${segment}" is not one of its indices 0 to ${node.length - 1}`,
        );
      }
      node = node[index] ?? null;
    } else {
      throw new Error(`${where} is ${describeJsonWithArticle(node)}: it has no "${segment}" inside`);
    }
    at++;
  }
  return node;
}

function missingKey(node: { [key: string]: JsonValue }, segment: string, where: string): string {
  const keys = Object.keys(node);
  if (keys.length === 0) return `${where} is an empty object: it has no key "${segment}"`;
  const listed = keys.slice(0, KEYS_LISTED).join(", ");
  const more = keys.length > KEYS_LISTED ? `, … (${keys.length} keys)` : "";
  return `no key "${segment}" at ${where}; its keys: ${listed}${more}`;
}
