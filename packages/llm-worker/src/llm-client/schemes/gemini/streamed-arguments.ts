import type { GeminiPartialArg } from "./wire.js";

type PathSegment = string | number;
type Container = Record<string, unknown> | unknown[];

/**
 * The arguments of one function call whose values arrive as `partialArgs` (Gemini's
 * `streamFunctionCallArguments`): each piece names a JSON path and a value; string values may be
 * split over several pieces of the same path (`willContinue: true` on all but the last). The
 * arguments are complete JSON only at the end, so they are emitted then, as one JSON text.
 */
export class StreamedArguments {
  private readonly root: Record<string, unknown>;
  /** The path whose string the previous piece said continues. */
  private continuing: string | undefined;

  constructor(initial?: Record<string, unknown>) {
    this.root = initial === undefined ? {} : structuredClone(initial);
  }

  /** Applies one piece. Returns what is wrong with it, or undefined. */
  apply(arg: GeminiPartialArg): string | undefined {
    const path = arg.jsonPath;
    if (typeof path !== "string") return "partialArgs entry without a jsonPath";
    const segments = parseJsonPath(path);
    if (segments === undefined) return `unsupported jsonPath ${JSON.stringify(path)}`;
    const continues = this.continuing === path;
    this.continuing = undefined;
    let value: unknown;
    if (typeof arg.stringValue === "string") {
      this.continuing = arg.willContinue === true ? path : undefined;
      if (continues) {
        const before = readPath(this.root, segments);
        value = typeof before === "string" ? before + arg.stringValue : arg.stringValue;
      } else {
        value = arg.stringValue;
      }
    } else if (typeof arg.numberValue === "number") value = arg.numberValue;
    else if (typeof arg.boolValue === "boolean") value = arg.boolValue;
    else if (arg.nullValue !== undefined) value = null;
    else return undefined; // a piece that only announces the path carries nothing yet
    return writePath(this.root, segments, value) ? undefined : `jsonPath ${JSON.stringify(path)} conflicts`;
  }

  json(): string {
    return JSON.stringify(this.root);
  }
}

/**
 * `$.a.b[0]`, `$['a b']`, and the bare `a.b` some servers send. Returns undefined for anything else
 * (filters, wildcards): those cannot name one place to write.
 */
export function parseJsonPath(path: string): PathSegment[] | undefined {
  const segments: PathSegment[] = [];
  let i = 0;
  if (path.startsWith("$")) i = 1;
  else {
    const end = nextDelimiter(path, 0);
    if (end === 0) return undefined;
    segments.push(path.slice(0, end));
    i = end;
  }
  while (i < path.length) {
    const c = path[i];
    if (c === ".") {
      const end = nextDelimiter(path, i + 1);
      if (end === i + 1) return undefined;
      segments.push(path.slice(i + 1, end));
      i = end;
    } else if (c === "[") {
      const quote = path[i + 1];
      if (quote === "'" || quote === '"') {
        const close = path.indexOf(`${quote}]`, i + 2);
        if (close === -1) return undefined;
        segments.push(path.slice(i + 2, close));
        i = close + 2;
      } else {
        const close = path.indexOf("]", i + 1);
        const index = Number(path.slice(i + 1, close));
        if (close === -1 || close === i + 1 || !Number.isInteger(index) || index < 0) return undefined;
        segments.push(index);
        i = close + 1;
      }
    } else {
      return undefined;
    }
  }
  return segments.length > 0 ? segments : undefined;
}

function nextDelimiter(path: string, from: number): number {
  for (let i = from; i < path.length; i++) {
    const c = path[i];
    if (c === "." || c === "[") return i;
  }
  return path.length;
}

function readPath(root: Container, segments: readonly PathSegment[]): unknown {
  let node: unknown = root;
  for (const segment of segments) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** Writes `value` at the path, making objects and arrays on the way. False if a scalar is in the way. */
function writePath(root: Container, segments: readonly PathSegment[], value: unknown): boolean {
  let node: Container = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i] as PathSegment;
    const existing = readSlot(node, segment);
    if (existing === undefined || existing === null) {
      const child: Container = typeof segments[i + 1] === "number" ? [] : {};
      if (!writeSlot(node, segment, child)) return false;
      node = child;
    } else if (typeof existing === "object") {
      node = existing as Container;
    } else {
      return false;
    }
  }
  return writeSlot(node, segments[segments.length - 1] as PathSegment, value);
}

function readSlot(node: Container, segment: PathSegment): unknown {
  return Array.isArray(node) ? (typeof segment === "number" ? node[segment] : undefined) : node[segment];
}

function writeSlot(node: Container, segment: PathSegment, value: unknown): boolean {
  if (Array.isArray(node)) {
    if (typeof segment !== "number") return false;
    node[segment] = value;
    return true;
  }
  node[segment] = value;
  return true;
}
