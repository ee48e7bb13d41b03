import { estimateItemTokens, sumItemTokens } from "../context/tokens.js";
import type { FallbackNotice } from "../llm-client/fallback.js";
import type { Item } from "../llm-client/item.js";
import type { WorkerEventOf } from "./events.js";

/**
 * The Worker's event for a switch of models. The new model has none of the prompt cached, so the
 * switch costs the whole prompt at the uncached price: `coldCacheTokens` estimates it from the
 * items sent (the system prompt and tools come on top).
 */
export function fallbackEvent(
  notice: FallbackNotice,
  turn: number,
  items: readonly Item[],
): WorkerEventOf<"fallback"> {
  return {
    type: "fallback",
    turn,
    from: notice.from,
    to: notice.to,
    reason: notice.reason,
    ...(notice.error !== undefined && { error: notice.error }),
    coldCacheTokens: sumItemTokens(items, estimateItemTokens),
  };
}
