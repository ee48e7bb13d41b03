import type { Usage } from "../llm-client/event.js";
import { type Item, isUserMessage } from "../llm-client/item.js";
import { estimateItemTokens, type ItemTokenCounter, sumItemTokens } from "./tokens.js";

/** What one request cost, as the provider reported it. */
export interface RequestUsageRecord {
  /** The whole prompt, cache hits included. */
  inputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  outputTokens: number;
  /** What `estimate` predicted for this prompt before it was sent, when it could. */
  estimatedInputTokens?: number;
  /** How many items the request sent. */
  itemCount: number;
  /** How many user messages it sent: a change marks a new turn. */
  userMessageCount: number;
  /** `now()` when the usage was recorded. */
  recordedAt: number;
}

export interface TokenAccountantOptions {
  tokensOf?: ItemTokenCounter;
  /** Clock in milliseconds; `Date.now` by default. */
  now?: () => number;
  /**
   * How long the provider keeps a cached prefix after its last use: Anthropic's default cache
   * lives 5 minutes (refreshed on every hit), OpenAI's 5 to 10. Default 5 minutes.
   */
  cacheTtlMs?: number;
  /**
   * How `expectedFutureRequests` guesses the requests to come: `"turn"` (default) as many as a
   * turn has averaged; `"session"` as many as the whole session has made so far. Per turn, a
   * session of short turns expects a handful however long it runs, so a prune there never pays
   * for its rewrite; the session figure grows with the session.
   */
  futureRequests?: "turn" | "session";
}

/** The last request whose usage was reported: the exact size of a known list of items. */
interface Anchor {
  items: readonly Item[];
  inputTokens: number;
}

const FIVE_MINUTES_MS = 5 * 60 * 1000;

/**
 * Usage-based token accounting. After each response the exact prompt size of that request is
 * known (`inputTokens`, cache included), so the next prompt is estimated as that figure plus the
 * estimate of what changed since: items added, minus items a projection removed or shortened.
 * Only the changed items are estimated, and the provider's own count (its tokenizer, its framing,
 * the system prompt and tools) carries the rest exactly.
 *
 * Feed it the items actually sent (after any projection) and the response's usage.
 */
export class TokenAccountant {
  readonly #tokensOf: ItemTokenCounter;
  readonly #now: () => number;
  readonly #cacheTtlMs: number;
  readonly #futureRequests: "turn" | "session";
  readonly #records: RequestUsageRecord[] = [];
  #anchor: Anchor | undefined;
  #turns = 0;

  constructor(options: TokenAccountantOptions = {}) {
    this.#tokensOf = options.tokensOf ?? estimateItemTokens;
    this.#now = options.now ?? Date.now;
    this.#cacheTtlMs = options.cacheTtlMs ?? FIVE_MINUTES_MS;
    this.#futureRequests = options.futureRequests ?? "turn";
  }

  /**
   * Records a finished request: the items it sent and the usage the provider reported. Without a
   * reported `inputTokens` (a failed request) nothing is learned and `undefined` is returned.
   */
  record(sentItems: readonly Item[], usage: Usage): RequestUsageRecord | undefined {
    if (usage.inputTokens === undefined) return undefined;
    const userMessageCount = countUserMessages(sentItems);
    const previous = this.#records.at(-1);
    if (previous === undefined || previous.userMessageCount !== userMessageCount) this.#turns++;
    const record: RequestUsageRecord = {
      inputTokens: usage.inputTokens,
      cacheReadInputTokens: usage.cacheReadInputTokens ?? 0,
      cacheCreationInputTokens: usage.cacheCreationInputTokens ?? 0,
      outputTokens: usage.outputTokens ?? 0,
      itemCount: sentItems.length,
      userMessageCount,
      recordedAt: this.#now(),
    };
    if (this.#anchor !== undefined) record.estimatedInputTokens = this.estimate(sentItems);
    this.#records.push(record);
    // A copy: the caller's array is often the live history, which grows after this call.
    this.#anchor = { items: sentItems.slice(), inputTokens: usage.inputTokens };
    return record;
  }

  /**
   * Estimated prompt tokens if `items` were sent now: the last reported prompt, minus the
   * estimate of the items that changed or went away since, plus the estimate of their
   * replacements and of the items added. With no report yet, the estimate of all items (which
   * leaves out the system prompt and tools).
   */
  estimate(items: readonly Item[]): number {
    const anchor = this.#anchor;
    if (anchor === undefined) return sumItemTokens(items, this.#tokensOf);
    const shared = sharedPrefixLength(anchor.items, items);
    const estimate =
      anchor.inputTokens -
      sumItemTokens(anchor.items, this.#tokensOf, shared) +
      sumItemTokens(items, this.#tokensOf, shared);
    return Math.max(0, estimate);
  }

  /**
   * How many leading items of `items` are the same as the last reported request's: the prefix
   * the provider has cached. A pruned copy of an item counts as the same when it shows the same
   * text, so a projection re-applied on every request keeps its cache.
   */
  cachedPrefixLength(items: readonly Item[]): number {
    return this.#anchor === undefined ? 0 : sharedPrefixLength(this.#anchor.items, items);
  }

  /** Whether the last reported request is recent enough for its prefix to still be cached. */
  isPrefixCached(): boolean {
    const last = this.#records.at(-1);
    return last !== undefined && this.#now() - last.recordedAt < this.#cacheTtlMs;
  }

  /**
   * An estimate of how many more requests the context will be sent with: the requests per turn
   * this session has averaged (a long headless run, one turn so far: the requests it has made,
   * on the reasoning that a run is as likely to be half-way as anywhere else). With
   * `futureRequests: "session"`, the same reasoning over the whole session: as many requests as
   * it has made so far, whatever the turns. At least 1.
   */
  expectedFutureRequests(): number {
    if (this.#turns === 0) return 1;
    if (this.#futureRequests === "session") return this.#records.length;
    return Math.max(1, Math.round(this.#records.length / this.#turns));
  }

  /** Every recorded request, oldest first. */
  get requests(): readonly RequestUsageRecord[] {
    return this.#records;
  }

  /** How many turns the recorded requests span. */
  get turns(): number {
    return this.#turns;
  }

  /** Forgets everything: after a compaction or a change of system prompt or tools. */
  reset(): void {
    this.#records.length = 0;
    this.#anchor = undefined;
    this.#turns = 0;
  }
}

function countUserMessages(items: readonly Item[]): number {
  let count = 0;
  for (const item of items) if (isUserMessage(item)) count++;
  return count;
}

/** Length of the common prefix of two item lists. */
export function sharedPrefixLength(a: readonly Item[], b: readonly Item[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== y && (x === undefined || y === undefined || !sameToolResult(x, y))) return i;
  }
  return length;
}

/** Two tool result objects that a provider would see as the same (e.g. two pruned copies). */
function sameToolResult(a: Item, b: Item): boolean {
  return (
    a.type === "tool_result" &&
    b.type === "tool_result" &&
    a.callId === b.callId &&
    a.name === b.name &&
    a.summary === b.summary &&
    a.content === b.content &&
    a.isError === b.isError
  );
}
