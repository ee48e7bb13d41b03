import type { Unsubscribe } from "@yoake/llm-worker/internal";
import type { Pod, PodEvent } from "@yoake/pod";
import type { OutputStream } from "../io.js";
import { toolCallLabel } from "../tool-call-label.js";
import type { PrunedResult } from "./scripted-model.js";

const INDENT = "    ";
/** Lines of a tool result shown under its card; the rest is counted, not printed. */
const RESULT_LINES = 12;

/** Styles for a terminal; plain text when the output is a file or a pipe. */
interface Style {
  bold(text: string): string;
  dim(text: string): string;
}

const ansi: Style = { bold: (t) => `\x1b[1m${t}\x1b[22m`, dim: (t) => `\x1b[2m${t}\x1b[22m` };
const plain: Style = { bold: (t) => t, dim: (t) => t };

/**
 * Prints the headless demo as a transcript: the prompts, the attached files, the assistant's
 * words as they stream, a card per tool call (marked when several run in parallel) with what
 * the model got back — a stored output's summary, an edit's diff, an inspect answer — the
 * approvals, the prunes and the tokens of each step.
 */
export class DemoNarrator {
  private readonly style: Style;
  private midText = false;
  private callsThisTurn = 0;
  private announcedParallel = false;
  private knownItems = 0;
  /** Calls whose diff the approval notice already showed. */
  private readonly shownDiffs = new Set<string>();

  constructor(
    private readonly out: OutputStream,
    private readonly pod: Pod,
  ) {
    this.style = out.isTTY === true ? ansi : plain;
  }

  /** Follows the Pod's events until the returned function is called. */
  attach(): Unsubscribe {
    return this.pod.listen((event) => this.onEvent(event));
  }

  line(text = ""): void {
    this.endText();
    this.out.write(`${text}\n`);
  }

  heading(text: string): void {
    this.line();
    this.line(this.style.bold(text));
  }

  prompt(step: number, total: number, text: string): void {
    this.heading(`━━ step ${step} of ${total} ━━`);
    this.line(`${this.style.bold("you:")} ${text}`);
  }

  approval(callId: string, tool: string, diff: string | undefined): void {
    this.shownDiffs.add(callId);
    this.line(
      `  ⚠ ${tool} needs approval. The demo approves it (yoake would ask you; yoake -p denies it unless --yes). The change:`,
    );
    if (diff !== undefined) this.block(diff, Number.POSITIVE_INFINITY);
  }

  pruned(results: readonly PrunedResult[], requestNumber: number): void {
    const saved = results.reduce((sum, r) => sum + r.wholeBytes - Buffer.byteLength(r.nowSent), 0);
    this.line(
      `  ✂ context pruned before request ${requestNumber}: ${results.length} old tool result(s) now travel as their one-line summaries (${saved.toLocaleString("en-US")} bytes fewer in every request from now on; the stored history keeps them whole):`,
    );
    for (const result of results)
      this.line(this.style.dim(`${INDENT}${result.label} → “${result.nowSent.split("\n", 1)[0]}”`));
  }

  private onEvent(event: PodEvent): void {
    switch (event.type) {
      case "turn_start":
        this.callsThisTurn = 0;
        this.announcedParallel = false;
        this.showAttachments();
        return;
      case "text_delta":
        if (!this.midText) this.out.write(`${this.style.bold("assistant:")} `);
        this.midText = true;
        this.out.write(event.text);
        return;
      case "tool_call_complete":
        this.callsThisTurn++;
        return;
      case "tool_start":
        if (this.callsThisTurn > 1 && !this.announcedParallel) {
          this.announcedParallel = true;
          this.line(`  ${this.callsThisTurn} tool calls in one response: the Pod runs them in parallel`);
        }
        this.line(`  ⚙ ${toolCallLabel(event.call)}`);
        return;
      case "tool_end":
        this.showResult(
          toolCallLabel(event.call),
          event.call.name,
          event.result.content ?? event.result.summary,
          event.result.isError === true,
          event.durationMs,
          this.shownDiffs.has(event.call.id),
        );
        return;
      case "alert":
        this.line(`  [${event.level}] ${event.message}`);
        return;
      case "run_end":
        // A run paused for approval goes on after the answer: its figures come at the real end.
        if (event.result.status === "paused") return;
        this.line(
          this.style.dim(`  (${describeUsage(event.result.usage)} in ${event.result.turns} request(s))`),
        );
        return;
      default:
        return;
    }
  }

  /** The files `@path` references attached to the prompt, as the model receives them. */
  private showAttachments(): void {
    const history = this.pod.history;
    for (let i = this.knownItems; i < history.length; i++) {
      const item = history[i];
      if (item?.type !== "message" || item.role !== "system" || !item.text.startsWith("[File: ")) continue;
      const header = item.text.split("\n", 1)[0] ?? "";
      this.line(
        `  @ reference resolved: ${header} (${Buffer.byteLength(item.text).toLocaleString("en-US")} bytes) is attached for the model`,
      );
    }
    this.knownItems = history.length;
  }

  private showResult(
    label: string,
    tool: string,
    content: string,
    isError: boolean,
    durationMs: number,
    diffShown: boolean,
  ): void {
    const took = this.style.dim(`(${Math.round(durationMs)} ms)`);
    if (isError) {
      this.line(`  ✗ ${label} failed ${took}: ${content.split("\n", 1)[0]}`);
      return;
    }
    if (content.startsWith("[blob:")) {
      this.line(
        `  ↳ ${label}: too large for the context, stored in the blob store ${took}. The model gets this summary:`,
      );
      this.block(content, Number.POSITIVE_INFINITY);
      return;
    }
    const lines = content.split("\n").length;
    if (tool === "read_file") {
      this.line(
        `  ↳ ${label}: ${lines} line(s), ${Buffer.byteLength(content).toLocaleString("en-US")} bytes ${took}`,
      );
      const capNotice = content.split("\n").find((line) => line.startsWith("[...truncated"));
      if (capNotice !== undefined) this.line(this.style.dim(`${INDENT}${capNotice}`));
      return;
    }
    if (diffShown) {
      // An approved edit reports the diff the approval notice has just shown: its first line is news.
      this.line(`  ↳ ${label} ${took}: ${content.split("\n", 1)[0]} (the diff above)`);
      return;
    }
    this.line(`  ↳ ${label} ${took}:`);
    this.block(content, RESULT_LINES);
  }

  private block(text: string, maxLines: number): void {
    const lines = text.replace(/\n$/, "").split("\n");
    for (const line of lines.slice(0, maxLines)) this.line(this.style.dim(`${INDENT}${line}`));
    if (lines.length > maxLines)
      this.line(this.style.dim(`${INDENT}… ${lines.length - maxLines} more line(s)`));
  }

  private endText(): void {
    if (!this.midText) return;
    this.midText = false;
    this.out.write("\n");
  }
}

function describeUsage(usage: { inputTokens?: number; outputTokens?: number }): string {
  const n = (value: number | undefined) => (value ?? 0).toLocaleString("en-US");
  return `${n(usage.inputTokens)} input + ${n(usage.outputTokens)} output tokens`;
}
