import type { Item } from "../llm-client/item.js";
import { hasContent, type PruneConfig, prunableIndices } from "./prune.js";
import { estimateItemTokens, type ItemTokenCounter } from "./tokens.js";

/** The two protections of the recent context; see `PruneConfig`. */
export type PruneProtection = Pick<PruneConfig, "protectedTurns" | "protectedTailTokens">;

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
): number {
  let start = items.length;
  let newerTokens = 0;
  for (let i = items.length - 1; i >= 0 && newerTokens < protectedTailTokens; i--) {
    const item = items[i];
    if (item === undefined || !hasContent(item)) continue;
    start = i;
    newerTokens += tokensOf(item);
  }
  return start;
}

/**
 * Tool results that may be pruned: those with content outside both protections, i.e. before the
 * last `protectedTurns` turns (seed 003) and older than the `protectedTailTokens` tail. Ascending.
 */
export function pruneCandidates(
  items: readonly Item[],
  protection: PruneProtection,
  tokensOf: ItemTokenCounter = estimateItemTokens,
): number[] {
  const byTurns = prunableIndices(items, protection.protectedTurns);
  if (protection.protectedTailTokens <= 0 || byTurns.length === 0) return byTurns;
  const tailStart = tailProtectionStart(items, protection.protectedTailTokens, tokensOf);
  return byTurns.filter((i) => i < tailStart);
}
