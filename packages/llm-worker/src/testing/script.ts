import type { StopReason } from "../llm-client/event.js";

/**
 * A response the mock provider plays back, provider-neutral: each scheme's encoder renders it in
 * that provider's real wire format (block starts, deltas in pieces, usage, finish reason).
 */
export interface ScriptedResponse {
  blocks: ScriptedBlock[];
  /** Defaults to `tool_use` when a tool call is scripted, else `end_turn`. */
  stopReason?: StopReason;
  usage?: ScriptedUsage;
  /** Characters per streamed piece of text, thinking and tool arguments (default 8). */
  pieceSize?: number;
  responseId?: string;
  model?: string;
}

export type ScriptedBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string; signature?: string }
  | { type: "tool_call"; id?: string; name: string; arguments: unknown };

/** In the normalized meaning (inputTokens includes cache reads and writes). */
export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
}

/** Splits a string into pieces of `size` characters (at least one piece, possibly empty). */
export function pieces(text: string, size = 8): string[] {
  if (text.length === 0) return [""];
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

export function stopReasonOf(response: ScriptedResponse): StopReason {
  return (
    response.stopReason ?? (response.blocks.some((b) => b.type === "tool_call") ? "tool_use" : "end_turn")
  );
}
