import type { Item, ToolResultItem } from "../llm-client/item.js";
import { hasContent, type PruneConfig, prunableIndices } from "./prune.js";
import { estimateItemTokens, type ItemTokenCounter } from "./tokens.js";

/** The two protections of the recent context; see `PruneConfig`. */
export type PruneProtection = Pick<PruneConfig, "protectedTurns" | "protectedTailTokens">;

/**
 * Results that are short-lived: read once and cheap to read again (an `inspect` answer carries
 * `[blob:<id>] <selector>` as its summary). Neither protection keeps them, and they do not use
 * up the tail's budget.
 */
export type ShortLived = (item: ToolResultItem) => boolean;

const noneShortLived: ShortLived = () => false;

/**
 * Index of the oldest tool result inside the tail protection: walking from the newest result
 * with content, each is protected while the results newer than it add up to fewer than
 * `protectedTailTokens` (so the one that crosses the budget is protected too). `items.length`
 * when the protection is off or nothing carries content.
 */
export function tailProtectionStart(
  items: readonly Item[],
  protectedTailTokens: number,
  tokensOf: ItemTokenCounter = estimateItemTokens,
  shortLived: ShortLived = noneShortLived,
): number {
  let start = items.length;
  let newerTokens = 0;
  for (let i = items.length - 1; i >= 0 && newerTokens < protectedTailTokens; i--) {
    const item = items[i];
    if (item === undefined || !hasContent(item) || shortLived(item)) continue;
    start = i;
    newerTokens += tokensOf(item);
  }
  return start;
}

/**
 * Tool results that may be pruned: those with content outside both protections, i.e. before the
 * last `protectedTurns` turns (seed 003) and older than the `protectedTailTokens` tail; and every
 * `shortLived` result the model has already answered after (some item other than a tool result
 * follows it), and no short-lived result it has not. Ascending.
 */
export function pruneCandidates(
  items: readonly Item[],
  protection: PruneProtection,
  tokensOf: ItemTokenCounter = estimateItemTokens,
  shortLived: ShortLived = noneShortLived,
): number[] {
  const byTurns = prunableIndices(items, protection.protectedTurns);
  const tailStart =
    protection.protectedTailTokens <= 0 || byTurns.length === 0
      ? items.length
      : tailProtectionStart(items, protection.protectedTailTokens, tokensOf, shortLived);
  const seenBefore = lastAnsweredIndex(items);
  const isShortLived = (i: number): boolean => {
    const item = items[i];
    return item !== undefined && hasContent(item) && shortLived(item);
  };
  // A short-lived result the model has not seen yet stays, whatever the protections say.
  const candidates = new Set(byTurns.filter((i) => i < tailStart && !(isShortLived(i) && i > seenBefore)));
  for (let i = 0; i < seenBefore; i++) if (isShortLived(i)) candidates.add(i);
  return [...candidates].sort((a, b) => a - b);
}

/** Index of the newest item that is not a tool result: the results before it have been seen. */
function lastAnsweredIndex(items: readonly Item[]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]?.type !== "tool_result") return i;
  return -1;
}
