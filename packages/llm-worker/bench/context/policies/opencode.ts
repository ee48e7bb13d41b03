/**
 * opencode's two rules, written from its published behaviour:
 *
 * - Truncation (`Truncate.output`): output over 2,000 lines or 50 KB keeps its first lines within
 *   both limits, the full output is saved to a file, and a hint says where and how to read it.
 * - Prune (`SessionCompaction.prune`, run when a prompt's loop ends): walking back from the newest
 *   message, skipping the last two user turns, it adds up the tool outputs' estimated tokens
 *   (characters / 4); outputs beyond the newest 40,000 tokens are marked for pruning, and if they
 *   come to more than 20,000 tokens they are marked compacted for good. It stops at an output
 *   compacted earlier. A compacted output is sent as `[Old tool result content cleared]`.
 */
import type { Interceptor, Item, ToolResultItem } from "../../../src/index.js";
import { isUserMessage } from "../../../src/internal.js";
import type { PreRequestContext } from "../../../src/worker/hooks.js";
import type { Disk, OutputRule } from "../tools.js";

export const OPENCODE_MAX_LINES = 2_000;
export const OPENCODE_MAX_BYTES = 50 * 1024;
export const OPENCODE_PRUNE_PROTECT = 40_000;
export const OPENCODE_PRUNE_MINIMUM = 20_000;
export const OPENCODE_CLEARED = "[Old tool result content cleared]";

export function opencodeTruncateRule(disk: Disk): OutputRule {
  return (output, context) => {
    const lines = output.split("\n");
    const totalBytes = Buffer.byteLength(output, "utf8");
    if (lines.length <= OPENCODE_MAX_LINES && totalBytes <= OPENCODE_MAX_BYTES) return output;
    const kept: string[] = [];
    let bytes = 0;
    let hitBytes = false;
    for (let i = 0; i < lines.length && kept.length < OPENCODE_MAX_LINES; i++) {
      const size = Buffer.byteLength(lines[i] as string, "utf8") + (kept.length > 0 ? 1 : 0);
      if (bytes + size > OPENCODE_MAX_BYTES) {
        hitBytes = true;
        break;
      }
      kept.push(lines[i] as string);
      bytes += size;
    }
    const removed = hitBytes ? totalBytes - bytes : lines.length - kept.length;
    const path = `/home/dev/.local/share/opencode/tool-output/tool_${context.callId}`;
    disk.write(path, output);
    const hint =
      `The tool call succeeded but the output was truncated. Full output saved to: ${path}\n` +
      "Use Grep to search the full content or Read with offset/limit to view specific sections.";
    return `${kept.join("\n")}\n\n...${removed} ${hitBytes ? "bytes" : "lines"} truncated...\n\n${hint}`;
  };
}

const estimateTokens = (text: string): number => Math.max(0, Math.round(text.length / 4));

/** opencode's prune as an interceptor: decided at the end of each turn, applied to every request after. */
export class OpencodePrune implements Interceptor {
  readonly name = "opencode-prune";
  readonly #compacted = new Set<string>();
  readonly #cleared = new Map<string, ToolResultItem>();
  prunes = 0;

  onTurnEnd(context: { items: readonly Item[] }): undefined {
    this.prune(context.items);
    return undefined;
  }

  onPreRequest(context: PreRequestContext): undefined {
    if (this.#compacted.size === 0) return undefined;
    context.request.items = context.request.items.map((item) =>
      item.type === "tool_result" && this.#compacted.has(item.callId) ? this.#clearedCopy(item) : item,
    );
    return undefined;
  }

  prune(items: readonly Item[]): void {
    let total = 0;
    let pruned = 0;
    let turns = 0;
    const toPrune: string[] = [];
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i] as Item;
      if (isUserMessage(item)) turns++;
      if (turns < 2) continue;
      // Only completed calls count; failed ones have no output to clear.
      if (item.type !== "tool_result" || item.isError) continue;
      if (this.#compacted.has(item.callId)) break;
      const tokens = estimateTokens(item.content ?? item.summary);
      total += tokens;
      if (total <= OPENCODE_PRUNE_PROTECT) continue;
      pruned += tokens;
      toPrune.push(item.callId);
    }
    if (pruned <= OPENCODE_PRUNE_MINIMUM) return;
    for (const id of toPrune) this.#compacted.add(id);
    this.prunes++;
  }

  #clearedCopy(item: ToolResultItem): ToolResultItem {
    let copy = this.#cleared.get(item.callId);
    if (copy === undefined) {
      copy = { ...item, content: OPENCODE_CLEARED };
      this.#cleared.set(item.callId, copy);
    }
    return copy;
  }
}
