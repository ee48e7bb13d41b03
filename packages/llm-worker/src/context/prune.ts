import { type Item, isUserMessage, type ToolResultItem } from "../llm-client/item.js";

/**
 * Prune (seed 003): a projection of the context sent to the model in which old tool results keep
 * their `summary` and lose their `content`, to win back context-window tokens. It is applied to
 * the items of one request, never to the stored history.
 *
 * This file is the seed's pure part: which results may be dropped (`prunableIndices`) and how
 * (`pruneItems`). Whether it is worth it is decided elsewhere (`planPrune`), from token accounting.
 */

/** How much of the recent context is kept whole, and when a prune is worth its cache cost. */
export interface PruneConfig {
  /**
   * The last this-many turns are never pruned. A turn starts at each user message. 0 turns this
   * protection off (every result outside the tail protection may be pruned).
   */
  protectedTurns: number;
  /**
   * Prune only when it removes at least this many tokens: a prune rewrites the cached prompt
   * after the first pruned item, which a small saving does not repay.
   */
  minSavings: number;
  /**
   * The newest tool results with content whose tokens add up to this many are never pruned (the
   * result that crosses the budget is kept too). 0 turns this protection off. A result is
   * prunable only when it is outside both this and `protectedTurns`; a long headless run has a
   * single turn, so it sets `protectedTurns: 0` and relies on this alone.
   */
  protectedTailTokens: number;
}

/** The seed's defaults; tail protection off. */
export const DEFAULT_PRUNE_CONFIG: Readonly<PruneConfig> = Object.freeze({
  protectedTurns: 3,
  minSavings: 4096,
  protectedTailTokens: 0,
});

/**
 * Index of the first item inside the last `protectedTurns` turns: the start of the
 * `protectedTurns`-th turn from the end. 0 (nothing prunable) when there are no more turns than
 * protected ones, as in the seed; `items.length` (nothing protected) when `protectedTurns` is 0.
 */
function protectedTurnsStart(items: readonly Item[], protectedTurns: number): number {
  if (protectedTurns <= 0) return items.length;
  let boundary = 0;
  let seen = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item === undefined || !isUserMessage(item)) continue;
    seen++;
    if (seen === protectedTurns) boundary = i;
    else if (seen > protectedTurns) return boundary;
  }
  return 0;
}

/** A tool result that still carries content, i.e. one a prune would change. */
export function hasContent(item: Item): item is ToolResultItem & { content: string } {
  return item.type === "tool_result" && item.content !== undefined;
}

/**
 * Indices of tool results that still carry content and lie before the last `protectedTurns`
 * turns, ascending (seed 003 `prunable_indices`). Empty when there are no more turns than
 * protected ones. `protectedTurns` 0 means no turn is protected (the seed leaves 0 undefined).
 * Pure: `items` is not changed.
 */
export function prunableIndices(items: readonly Item[], protectedTurns: number): number[] {
  const boundary = protectedTurnsStart(items, protectedTurns);
  const indices: number[] = [];
  for (let i = 0; i < boundary; i++) {
    const item = items[i];
    if (item !== undefined && hasContent(item)) indices.push(i);
  }
  return indices;
}

/** A copy of a tool result without its content: the model is shown the summary instead. */
export function withoutContent(item: ToolResultItem): ToolResultItem {
  const { content: _dropped, ...kept } = item;
  return kept;
}

/**
 * A new array in which the tool results at `indices` keep their summary and lose their content.
 * Other items are the same objects; `items` and its items are not changed. Indices that are not
 * tool results with content are left alone.
 */
export function pruneItems(items: readonly Item[], indices: Iterable<number>): Item[] {
  const projected = items.slice();
  for (const i of indices) {
    const item = projected[i];
    if (item !== undefined && hasContent(item)) projected[i] = withoutContent(item);
  }
  return projected;
}
