import { errorMessage } from "../llm-client/errors.js";
import type { ToolResultItem } from "../llm-client/item.js";
import type { ToolCall } from "../llm-client/response.js";
import type { Tool, ToolResultValue } from "../tool/tool.js";
import { describeImages, type ImageToolOutput } from "../tool/tool-images.js";
import type { ToolOutput } from "../tool/tool-output.js";
import type { BlobStore } from "../tool-output/blob-store.js";
import { type HistoryResultOptions, toHistoryResult } from "../tool-output/history-result.js";
import { queryOfArguments } from "../tool-output/query-summary.js";

export interface ToolRunOptions {
  /** The run's signal: aborting it stops waiting for the tool at once. */
  signal: AbortSignal;
  defaultTimeoutMs: number;
  blobStore?: BlobStore;
  /** How outputs become history (inline limit, summaries); the seed's defaults when absent. */
  toolOutput?: HistoryResultOptions;
  /** Where a call's `context.progress` goes. */
  onProgress?: (call: ToolCall, text: string) => void;
}

/**
 * Runs one call and always returns a result for history: every failure — unknown tool, arguments
 * that are not JSON or do not match the schema, a throw, a timeout, a cancellation — becomes an error
 * result the model can read and act on, never an exception.
 */
export async function runTool(
  tools: ReadonlyMap<string, Tool>,
  call: ToolCall,
  options: ToolRunOptions,
): Promise<ToolResultItem> {
  const tool = tools.get(call.name);
  if (!tool) {
    const names = [...tools.keys()].join(", ") || "none";
    return errorResult(call, `unknown tool "${call.name}"; the tools you can call are: ${names}`);
  }
  if (call.parseError !== undefined) {
    return errorResult(call, `${call.parseError}. Call ${call.name} again with a JSON object as arguments.`);
  }
  const parsed = tool.parseArguments(call.arguments);
  if (!parsed.ok)
    return errorResult(call, `${parsed.error}. Call ${call.name} again with corrected arguments.`);

  const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
  const outcome = await executeBounded(tool, parsed.value, call, options, timeoutMs);
  if (outcome.kind === "cancelled") return cancelledResult(call);
  if (outcome.kind === "timeout") return errorResult(call, `${call.name} timed out after ${timeoutMs} ms`);
  if (outcome.kind === "threw") return errorResult(call, `${call.name} failed: ${outcome.message}`);
  const value = outcome.value;
  const images = typeof value === "object" && value.kind === "images" ? value.images : undefined;
  try {
    const { content, summary } = await toHistoryResult(
      images === undefined ? (value as string | ToolOutput) : ((value as ImageToolOutput).text ?? ""),
      options.blobStore,
      {
        ...options.toolOutput,
        query: options.toolOutput?.summarizeQuery ? queryOfArguments(parsed.value) : undefined,
      },
    );
    if (images === undefined || images.length === 0)
      return { type: "tool_result", callId: call.id, name: call.name, summary, content };
    // Summaries are one line: the images' descriptions join the text's on it.
    const described = describeImages(images);
    const text = (value as ImageToolOutput).text ?? "";
    return {
      type: "tool_result",
      callId: call.id,
      name: call.name,
      summary: text === "" ? described : `${described} ${summary}`,
      content,
      images,
    };
  } catch (err) {
    return errorResult(call, `${call.name} returned a result that could not be stored: ${errorMessage(err)}`);
  }
}

/** The longest delay `setTimeout` honours (2^31 - 1 ms). */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

type Outcome =
  | { kind: "ok"; value: ToolResultValue }
  | { kind: "threw"; message: string }
  | { kind: "timeout" }
  | { kind: "cancelled" };

/**
 * Races the tool against its timeout and the run's signal. The tool's own signal aborts on either,
 * so a well-behaved tool stops its work; one that ignores it is no longer waited for.
 */
function executeBounded(
  tool: Tool,
  args: unknown,
  call: ToolCall,
  options: ToolRunOptions,
  timeoutMs: number,
): Promise<Outcome> {
  const runSignal = options.signal;
  const onProgress = options.onProgress;
  if (runSignal.aborted) return Promise.resolve({ kind: "cancelled" });
  const controller = new AbortController();
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      runSignal.removeEventListener("abort", onAbort);
      if (outcome.kind !== "ok") controller.abort(new Error(outcome.kind));
      resolve(outcome);
    };
    const onAbort = (): void => settle({ kind: "cancelled" });
    // setTimeout fires at once for delays it cannot hold (Infinity, over ~24.8 days): those mean "no limit".
    const timer =
      timeoutMs <= MAX_TIMER_DELAY_MS ? setTimeout(() => settle({ kind: "timeout" }), timeoutMs) : undefined;
    runSignal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve()
      .then(() =>
        tool.execute(args, {
          signal: controller.signal,
          callId: call.id,
          toolName: call.name,
          ...(onProgress !== undefined && {
            // Progress after the call settled (a tool that ignores its signal) is no longer news.
            progress: (text: string) => {
              if (!settled) onProgress(call, text);
            },
          }),
        }),
      )
      .then(
        (value) => settle({ kind: "ok", value }),
        (err: unknown) => settle({ kind: "threw", message: errorMessage(err) }),
      );
  });
}

export function errorResult(call: Pick<ToolCall, "id" | "name">, message: string): ToolResultItem {
  return {
    type: "tool_result",
    callId: call.id,
    name: call.name,
    summary: message,
    content: message,
    isError: true,
  };
}

/** The result of a call that never ran or was stopped, so no call is left without an answer. */
export function cancelledResult(
  call: Pick<ToolCall, "id" | "name">,
  reason = "the run was cancelled",
): ToolResultItem {
  return errorResult(call, `[cancelled: ${reason}; ${call.name} did not complete]`);
}
