import type { RecordedRequest, ScriptedBlock, ScriptedResponse } from "@yoake/llm-worker/testing";
import { type AnthropicTranscript, readAnthropicTranscript } from "./anthropic-transcript.js";
import { stepFor } from "./demo-steps.js";
import { isSubAgentRequest, subAgent } from "./plan-and-delegate-step.js";

/** The model id the demo configures; the mock answers as it. */
export const DEMO_MODEL_ID = "yoake-demo-scripted";

/** A tool result the Pod sent whole once and, in a later request, only as its summary. */
export interface PrunedResult {
  toolUseId: string;
  /** `read_file logs/server.log`, when the call was the model's own. */
  label: string;
  /** Bytes of the result when it was sent whole. */
  wholeBytes: number;
  /** What the model sees now instead. */
  nowSent: string;
}

/** Told as soon as a request shows that the Pod pruned tool results from the context. */
export type PruneObserver = (pruned: readonly PrunedResult[], requestNumber: number) => void;

const CHARS_PER_TOKEN = 4;

/**
 * The demo's model: a mock provider handler that plays the tour, one step per user prompt,
 * reading each real request — the attached files, the tool results, a blob id in a summary — to
 * decide what to say and which tool to call next. It also notices when a result it was sent whole
 * comes back as a summary: the Pod pruned its context.
 */
export class ScriptedDemoModel {
  private requestCount = 0;
  private readonly wholeBytes = new Map<string, number>();
  private readonly pruned = new Map<string, PrunedResult>();
  private readonly labels = new Map<string, string>();

  constructor(private readonly onPrune?: PruneObserver) {}

  /** Pass to `startMockProvider().setHandler`. */
  readonly handler = (request: RecordedRequest): ScriptedResponse => this.reply(request);

  /** The results pruned so far, oldest first. */
  get prunedResults(): readonly PrunedResult[] {
    return [...this.pruned.values()];
  }

  reply(request: RecordedRequest): ScriptedResponse {
    const number = ++this.requestCount;
    const transcript = readAnthropicTranscript(request.body);
    this.notePrunes(transcript, number);
    // A sub-agent's requests carry its own conversation: its task, not the tour's prompts.
    const step = isSubAgentRequest(transcript) ? subAgent : stepFor(transcript.prompts.length);
    const blocks = step({
      transcript,
      call: (key, name, args) => this.call(number, key, name, args),
      result: (key) => {
        const id = callOf(transcript, key);
        return id === undefined ? undefined : transcript.results.get(id);
      },
      called: (key) => callOf(transcript, key) !== undefined,
      prunedSoFar: () =>
        this.prunedResults.map((p) => `${p.label} (${p.wholeBytes.toLocaleString("en-US")} bytes)`),
    });
    return { blocks, model: DEMO_MODEL_ID, usage: usageOf(request.body, blocks) };
  }

  private call(
    requestNumber: number,
    key: string,
    name: string,
    args: Record<string, unknown>,
  ): ScriptedBlock {
    // Unique across the session (a step can be played twice in the UI), and findable by its key.
    const id = `toolu_demo${requestNumber}_${key}`;
    const target = typeof args.path === "string" ? ` ${args.path}` : "";
    this.labels.set(id, `${name}${target}`);
    return { type: "tool_call", id, name, arguments: args };
  }

  private notePrunes(transcript: AnthropicTranscript, requestNumber: number): void {
    const fresh: PrunedResult[] = [];
    for (const result of transcript.results.values()) {
      const bytes = Buffer.byteLength(result.text);
      const whole = this.wholeBytes.get(result.toolUseId);
      if (whole === undefined) {
        this.wholeBytes.set(result.toolUseId, bytes);
      } else if (bytes < whole && !this.pruned.has(result.toolUseId)) {
        const pruned: PrunedResult = {
          toolUseId: result.toolUseId,
          label: this.labels.get(result.toolUseId) ?? result.toolUseId,
          wholeBytes: whole,
          nowSent: result.text,
        };
        this.pruned.set(result.toolUseId, pruned);
        fresh.push(pruned);
      }
    }
    if (fresh.length > 0) this.onPrune?.(fresh, requestNumber);
  }
}

/** The id of this step's call `key` (the newest, should the step have run twice). */
function callOf(transcript: AnthropicTranscript, key: string): string | undefined {
  return transcript.callsSincePrompt.findLast((id) => id.endsWith(`_${key}`));
}

/** Plausible figures: about four characters a token, as providers roughly count English and code. */
function usageOf(body: unknown, blocks: readonly ScriptedBlock[]): ScriptedResponse["usage"] {
  let outputChars = 0;
  for (const block of blocks) {
    outputChars +=
      block.type === "tool_call"
        ? JSON.stringify(block.arguments).length + block.name.length
        : block.text.length;
  }
  return {
    inputTokens: Math.ceil(JSON.stringify(body ?? "").length / CHARS_PER_TOKEN),
    outputTokens: Math.ceil(outputChars / CHARS_PER_TOKEN),
  };
}
