import { createRequire } from "node:module";
import type { Item, ToolResultItem } from "./item.js";

/**
 * The longest tool-call id every scheme takes: OpenAI Chat rejects ids over 40 characters, and
 * Anthropic takes only `[a-zA-Z0-9_-]`. Ids within both limits go through unchanged.
 */
const MAX_ID_LENGTH = 40;
const PORTABLE_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * A history made by one provider, made fit for any other (what a fallback sends):
 *
 * - tool-call ids that some scheme would reject (too long, or with characters outside
 *   `[a-zA-Z0-9_-]`) become `call_<hash>`, on the call and its results alike, so they still pair
 *   up; the mapping is a pure function of the id, so every request sends the same prefix and the
 *   provider's cache keeps working;
 * - a tool call with no result gets one saying it was not answered, after the results its turn
 *   has (before the next turn or message, or at the end): every provider rejects a call left open.
 *
 * Reasoning, signatures and server-tool payloads need nothing here: each scheme sends back only
 * what it produced itself (items record their `origin`) and leaves the rest out.
 * Returns `items` itself when nothing needed a change.
 */
export function carryHistory(items: readonly Item[]): readonly Item[] {
  const answered = new Set<string>();
  let portable = true;
  for (const item of items) {
    if (item.type === "tool_result") answered.add(item.callId);
    if ((item.type === "tool_call" || item.type === "tool_result") && !isPortableId(item.callId))
      portable = false;
  }
  const open = items.some((item) => item.type === "tool_call" && !answered.has(item.callId));
  if (portable && !open) return items;

  const out: Item[] = [];
  let pending: ToolResultItem[] = [];
  /** Results have followed the open calls' turn: the next item of another type ends it. */
  let inResults = false;
  const flush = (): void => {
    out.push(...pending);
    pending = [];
    inResults = false;
  };
  for (const item of items) {
    if (item.type === "tool_result") inResults = true;
    else if (inResults || (item.type === "message" && item.role !== "assistant")) flush();
    if (item.type === "tool_call") {
      const callId = portableId(item.callId);
      out.push(callId === item.callId ? item : { ...item, callId });
      if (!answered.has(item.callId)) pending.push(unansweredResult(callId, item.name));
    } else if (item.type === "tool_result") {
      const callId = portableId(item.callId);
      out.push(callId === item.callId ? item : { ...item, callId });
    } else out.push(item);
  }
  flush();
  return out;
}

function isPortableId(id: string): boolean {
  return id.length <= MAX_ID_LENGTH && PORTABLE_ID.test(id);
}

/** The id as every scheme takes it (see `carryHistory`). */
export function portableId(id: string): string {
  if (isPortableId(id)) return id;
  // `node:crypto` is required here, not imported: loading it is a visible part of importing the library.
  const { createHash } = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return `call_${createHash("sha256").update(id).digest("hex").slice(0, 24)}`;
}

function unansweredResult(callId: string, name: string): ToolResultItem {
  const text = `[${name} was not run: the conversation moved on before it was answered]`;
  return { type: "tool_result", callId, name, summary: text, content: text, isError: true };
}
