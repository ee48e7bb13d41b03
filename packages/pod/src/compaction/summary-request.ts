import { type Item, type LlmClient, type Request, type Usage, userMessage } from "@yoake/llm-worker";
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
   * refuse a history holding tool calls without them; tool choice becomes `none`.
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

/** Asks the model for the session summary (one request, no tools called). Never throws. */
export async function requestSummary(input: SummaryRequestInput): Promise<SummaryOutcome> {
  // What the summary itself needs differs: its own output limit, no tool calls, Markdown rather
  // than the run's answer format, and no reasoning (a thinking budget may not fit under the limit).
  const {
    maxOutputTokens: _limit,
    toolChoice: _choice,
    responseFormat: _format,
    reasoning: _reasoning,
    ...prefix
  } = input.shape;
  const offersTools = (prefix.tools?.length ?? 0) > 0 || prefix.webSearch !== undefined;
  const response = await input.client.complete(
    {
      ...prefix,
      items: [...input.items, userMessage(COMPACTION_INSTRUCTION)],
      ...(offersTools && { toolChoice: "none" as const }),
      maxOutputTokens: input.summaryTokens,
    },
    input.signal === undefined ? {} : { signal: input.signal },
  );
  const usage = response.usage === undefined ? undefined : withoutRaw(response.usage);
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
