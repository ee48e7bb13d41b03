import type { ErrorInfo, StopReason, Usage } from "./event.js";
import type { Item } from "./item.js";

/** A tool call of a response with its arguments parsed. */
export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text as streamed ("" when the model sent none). */
  argumentsText: string;
  /** Parsed arguments: `{}` for an empty text; undefined when the text is not valid JSON. */
  arguments: unknown;
  /** Why `argumentsText` did not parse; the worker answers such a call with an error result. */
  parseError?: string;
  synthesizedId?: true;
}

/**
 * A whole response, gathered from its event stream by the Timeline's `ResponseCollector`
 * (`client.complete`, `collectResponse`, the Worker).
 */
export interface Response {
  responseId?: string;
  model?: string;
  /**
   * Every block as a history item, in stream order. A text or thinking block cut off by an error or
   * cancellation keeps what arrived; a tool call cut off mid-arguments is left out.
   */
  items: Item[];
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage?: Usage & { raw: unknown };
  status: "completed" | "failed" | "cancelled";
  stopReason: StopReason;
  rawStopReason: string | number | null;
  incompleteDetails?: unknown;
  /** The first error the stream reported. */
  error?: ErrorInfo;
}

export function parseToolArguments(text: string): { value: unknown; error?: string } {
  if (text.trim() === "") return { value: {} };
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { value: undefined, error: `invalid JSON arguments: ${(err as Error).message}` };
  }
}
