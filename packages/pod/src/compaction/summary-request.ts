import { type Item, type LlmClient, type Usage, userMessage } from "@yoake/llm-worker";
import type { GenerationSettings, ToolDefinition } from "@yoake/llm-worker/internal";
import { COMPACTION_INSTRUCTION } from "./summary-prompt.js";

/** What the compaction request is made of: the conversation as the Worker would send it now. */
export interface SummaryRequestInput {
  client: LlmClient;
  system: string | undefined;
  /**
   * The Worker's tool definitions. Sent (with tool choice `none`) because providers refuse a
   * history holding tool calls without tools, and because the same prefix reads from the cache.
   */
  tools: readonly ToolDefinition[];
  /** The history as it would be sent (earlier prunes applied). */
  items: readonly Item[];
  generation: GenerationSettings | undefined;
  summaryTokens: number;
  signal?: AbortSignal;
}

/** The model's summary, or why there is none; `usage` is set whenever the provider reported it. */
export type SummaryOutcome =
  | { ok: true; summary: string; truncated: boolean; usage?: Usage }
  | { ok: false; message: string; usage?: Usage };

/** Asks the model for the session summary (one request, no tools called). Never throws. */
export async function requestSummary(input: SummaryRequestInput): Promise<SummaryOutcome> {
  const generation = input.generation ?? {};
  const response = await input.client.complete(
    {
      ...(input.system !== undefined && { system: input.system }),
      items: [...input.items, userMessage(COMPACTION_INSTRUCTION)],
      ...(input.tools.length > 0 && { tools: input.tools, toolChoice: "none" as const }),
      maxOutputTokens: input.summaryTokens,
      // Reasoning is left out: a thinking budget may not fit under the summary's output limit.
      ...(generation.temperature !== undefined && { temperature: generation.temperature }),
      ...(generation.topP !== undefined && { topP: generation.topP }),
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
