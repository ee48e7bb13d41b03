import type { EventWriter } from "../../event-writer.js";
import type { OpenaiChatToolCallDelta } from "./wire.js";

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
 * Turns Chat `delta.tool_calls[]` pieces into `tool_use` blocks, one per `index`.
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
  push(delta: OpenaiChatToolCallDelta): string | undefined {
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
  private indexOf(delta: OpenaiChatToolCallDelta): number | undefined {
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
