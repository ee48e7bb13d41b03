import { type Item, type LlmClient, type Request, type Usage, userMessage } from "@yoake/llm-worker";
import { addUsage } from "@yoake/llm-worker/internal";
import { COMPACTION_INSTRUCTION } from "./summary-prompt.js";

/**
 * A request of the Worker without its items: its system prompt, tools and generation settings
 * (the provider's web search, cache hints, sampling, provider options…).
 */
export type RequestShape = Omit<Request, "items">;

/** What the compaction request is made of: the conversation as the Worker would send it now. */
export interface SummaryRequestInput {
  client: LlmClient;
  /**
   * The shape of the Worker's requests, sent as it is so that the prefix (tools, the provider's
   * own tools such as web search, system prompt, then the history) is byte for byte the one the
   * last request wrote to the provider's prompt cache. Tools are also needed because providers
   * refuse a history holding tool calls without them.
   */
  shape: RequestShape;
  /** The history as it would be sent (earlier prunes applied). */
  items: readonly Item[];
  summaryTokens: number;
  signal?: AbortSignal;
}

/** The model's summary, or why there is none; `usage` is set whenever the provider reported it. */
export type SummaryOutcome =
  | { ok: true; summary: string; truncated: boolean; usage?: Usage }
  | { ok: false; message: string; usage?: Usage };

/**
 * Asks the model for the session summary. Never throws. The request keeps the Worker's tool choice
 * and reasoning settings: Anthropic keeps the cached conversation only while both stay the same
 * (a change keeps just the tools and system prompt), and on a long session that conversation is
 * most of what the request costs. Of its own it has an output limit (plus the thinking budget,
 * which Anthropic counts in it) and Markdown rather than the run's answer format. A model that
 * answers the instruction with a tool call instead is asked once more with tools off.
 */
export async function requestSummary(input: SummaryRequestInput): Promise<SummaryOutcome> {
  const { maxOutputTokens: _limit, responseFormat: _format, ...prefix } = input.shape;
  const request: Request = {
    ...prefix,
    items: [...input.items, userMessage(COMPACTION_INSTRUCTION)],
    maxOutputTokens: input.summaryTokens + (prefix.reasoning?.budgetTokens ?? 0),
  };
  const options = input.signal === undefined ? {} : { signal: input.signal };
  let response = await input.client.complete(request, options);
  let usage = response.usage === undefined ? undefined : withoutRaw(response.usage);
  if (response.status === "completed" && response.text.trim() === "" && response.toolCalls.length > 0) {
    response = await input.client.complete({ ...request, toolChoice: "none" }, options);
    if (response.usage !== undefined) usage = addUsage(usage ?? {}, withoutRaw(response.usage));
  }
  const withUsage = usage === undefined ? {} : { usage };
  if (response.status !== "completed") {
    const why = response.error?.message ?? `the response ${response.status}`;
    return { ok: false, message: `the summary request failed: ${why}`, ...withUsage };
  }
  const summary = response.text.trim();
  if (summary === "") return { ok: false, message: "the model answered with an empty summary", ...withUsage };
  return { ok: true, summary, truncated: response.stopReason === "max_tokens", ...withUsage };
}

function withoutRaw(usage: Usage & { raw?: unknown }): Usage {
  const { raw: _raw, ...normalized } = usage;
  return normalized;
}
