import type { EventWriter } from "../event-writer.js";
import type { GeminiPartialArg } from "./gemini/wire.js";
import { MalformedFrame } from "./json-frame-decoder.js";
import { isRecord } from "./wire-json.js";

/*
 * Tool calls whose arguments arrive in pieces, for the schemes whose wire has no block boundaries
 * for them. Two shapes of piece exist: JSON text cut anywhere, tagged with the call's index
 * (OpenAI Chat and the servers compatible with it: `ToolCallStreams`), and one value per JSON
 * path (`StreamedArguments`; Gemini's `partialArgs` is the one wire of that shape, so its type is
 * read here). Both emit `tool_use` blocks through the
 * decoder's `EventWriter`; what is wrong with a piece is returned or thrown as `MalformedFrame`,
 * so the decoder fails the stream as malformed.
 */

/** A piece of one call as OpenAI-compatible servers send it; `index` says which call. */
export interface IndexedToolCallPiece {
  index?: number | null;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface ToolCallState {
  index: number;
  id: string | undefined;
  name: string | undefined;
  /** Everything received so far, streamed or not. */
  arguments: string;
  /** pending: not yet a block (no name yet, or buffered); live: the open block; closed: emitted. */
  state: "pending" | "live" | "closed";
}

/**
 * Turns indexed pieces (Chat `delta.tool_calls[]`) into `tool_use` blocks, one per `index`.
 *
 * Our blocks never overlap, but a server may interleave the pieces of parallel calls. So the call
 * being streamed stays live until another index appears; then it is closed if its arguments already
 * parse as complete JSON (the usual case: calls come one after the other). Otherwise the calls are
 * interleaved, and from then on every other call is buffered (id, name and arguments kept) while the
 * live one goes on streaming; the buffered calls are emitted whole, in index order, by `flush()` at
 * the end of the choice. A call opens as soon as its name is known; a call with no id on the wire
 * gets a synthesized one.
 */
export class ToolCallStreams {
  /** By wire index (a sparse array: indices are small integers). */
  private readonly calls: ToolCallState[] = [];
  private live: ToolCallState | undefined;
  private buffering = false;
  private lastIndex = -1;
  private count = 0;

  constructor(private readonly writer: EventWriter) {}

  /** Whether the response has made any tool call. */
  get any(): boolean {
    return this.count > 0;
  }

  /** Takes one tool call piece. Returns what is wrong with it when it breaks the protocol. */
  push(delta: IndexedToolCallPiece): string | undefined {
    const fn = delta.function;
    const piece = fn?.arguments ?? "";
    if (typeof piece !== "string") return "tool call arguments are not a string";
    const index = this.indexOf(delta);
    if (index === undefined) return "a tool call index is not a non-negative integer";

    let call = this.calls[index];
    if (call === undefined) {
      call = { index, id: undefined, name: undefined, arguments: "", state: "pending" };
      this.calls[index] = call;
      this.count++;
    }
    if (call.state === "closed") {
      // A call is closed early only when its arguments were complete JSON; more of them would be lost.
      return piece.trim() === "" ? undefined : `tool call ${index} received arguments after it was complete`;
    }
    if (call.id === undefined && typeof delta.id === "string" && delta.id !== "") call.id = delta.id;
    if (call.name === undefined && typeof fn?.name === "string" && fn.name !== "") call.name = fn.name;
    call.arguments += piece;
    if (call.state === "live") {
      if (piece !== "") this.writer.delta({ kind: "input_json", json: piece });
      return undefined;
    }

    const live = this.live;
    if (live !== undefined) {
      if (isCompleteJson(live.arguments)) this.closeLive();
      else this.buffering = true;
    }
    if (!this.buffering && this.live === undefined && call.name !== undefined) this.openLive(call);
    return undefined;
  }

  /** Another kind of block is about to open: the live call ends here. */
  interrupt(): void {
    this.closeLive();
  }

  /** The choice is finished: closes the live call and emits the buffered ones, in index order. */
  flush(): void {
    this.closeLive();
    for (const call of this.calls) {
      if (call === undefined || call.state !== "pending") continue;
      this.openLive(call);
      this.closeLive();
    }
    this.buffering = false;
  }

  private openLive(call: ToolCallState): void {
    call.state = "live";
    this.live = call;
    const name = call.name ?? "";
    if (call.id === undefined) {
      this.writer.openBlock({ blockType: "tool_use", id: `call_${call.index}`, name, synthesizedId: true });
    } else {
      this.writer.openBlock({ blockType: "tool_use", id: call.id, name });
    }
    if (call.arguments !== "") this.writer.delta({ kind: "input_json", json: call.arguments });
  }

  private closeLive(): void {
    const live = this.live;
    if (live === undefined) return;
    this.live = undefined;
    live.state = "closed";
    this.writer.closeBlock();
  }

  /** The wire index, or for servers that leave it out: a new call when a new id shows up. */
  private indexOf(delta: IndexedToolCallPiece): number | undefined {
    const index = delta.index;
    if (index === undefined || index === null) {
      const last = this.calls[this.lastIndex];
      const startsNewCall = typeof delta.id === "string" && last?.id !== undefined && last.id !== delta.id;
      this.lastIndex = this.lastIndex < 0 || startsNewCall ? this.lastIndex + 1 : this.lastIndex;
      return this.lastIndex;
    }
    if (!Number.isInteger(index) || index < 0) return undefined;
    this.lastIndex = index;
    return index;
  }
}

/** Whether tool arguments are a whole JSON value (objects and arrays only: a number could go on). */
function isCompleteJson(text: string): boolean {
  const trimmed = text.trimEnd();
  const last = trimmed.charCodeAt(trimmed.length - 1);
  if (last !== 0x7d /* } */ && last !== 0x5d /* ] */) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

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

  /** Applies a frame's `partialArgs`; a piece of the wrong shape throws `MalformedFrame`. */
  applyAll(pieces: unknown): void {
    if (!Array.isArray(pieces)) throw new MalformedFrame("partialArgs is not an array");
    for (const piece of pieces) {
      if (!isRecord(piece)) throw new MalformedFrame("a partialArgs entry is not an object");
      const problem = this.apply(piece);
      if (problem !== undefined) throw new MalformedFrame(problem);
    }
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
