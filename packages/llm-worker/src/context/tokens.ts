import { createRequire } from "node:module";
import type { Item } from "../llm-client/item.js";

/**
 * Token estimates for text and history items, with the o200k tokenizer of `gpt-tokenizer`.
 *
 * An estimate, not the provider's count: every provider tokenizes differently (Claude and Gemini
 * are not o200k) and frames messages in its own way. `TokenAccountant` anchors these estimates on
 * the provider's reported usage, so only the items added since the last request are estimated.
 */

/** Counts the tokens of one item. Injectable so that tests can use exact, hand-made counts. */
export type ItemTokenCounter = (item: Item) => number;

/** Role and framing tokens a provider adds around each item (a rough, provider-neutral figure). */
export const ITEM_OVERHEAD_TOKENS = 4;

/**
 * Text is tokenized in pieces of about this many characters. BPE merging is quadratic in the
 * length of one pre-tokenized word, so a long run without spaces (`"x".repeat(20_000)`, a wall of
 * `=`, base64) took 145 ms whole and takes 1.2 ms in 1 KiB pieces; normal code is as fast or
 * faster in pieces (400 KB: 45 ms whole, 20 ms in pieces), and the count differs by under 0.1%.
 */
export const TOKENIZE_PIECE_CHARS = 1024;

/** Above this many characters a text is sampled instead of tokenized whole (~6 ms at this size). */
export const SAMPLE_ABOVE_CHARS = 128 * 1024;

/** How many evenly spaced pieces a sampled text is estimated from. */
export const SAMPLE_PIECES = 32;

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

// Loading the tokenizer's rank table takes ~150 ms; a process that never estimates never pays it.
let countTokensImpl: CountTokens | undefined;
function tokenizer(): CountTokens {
  if (countTokensImpl === undefined) {
    const require = createRequire(import.meta.url);
    countTokensImpl = (require("gpt-tokenizer") as { countTokens: CountTokens }).countTokens;
  }
  return countTokensImpl;
}

// Tool output may contain `<|endoftext|>` and the like: count them as plain text, never throw.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

const SPACE = 0x20;

/**
 * Where a piece that may end at `limit` should end: at the last space in its second half when
 * there is one (cutting inside a word costs about a token, before a space nothing), else at
 * `limit`. Bounded scan: `lastIndexOf` would walk a space-less text back to its start every time.
 */
function pieceEnd(text: string, from: number, limit: number): number {
  const floor = from + TOKENIZE_PIECE_CHARS / 2;
  for (let i = limit; i > floor; i--) {
    if (text.charCodeAt(i) === SPACE) return i;
  }
  return limit;
}

/** Tokens of `text[start, end)`, tokenized in pieces that end at a space when one is near. */
function countRange(text: string, start: number, end: number): number {
  const count = tokenizer();
  let tokens = 0;
  let from = start;
  while (from < end) {
    let to = Math.min(end, from + TOKENIZE_PIECE_CHARS);
    if (to < end) to = pieceEnd(text, from, to);
    tokens += count(text.slice(from, to), PLAIN_TEXT);
    from = to;
  }
  return tokens;
}

/**
 * Estimated tokens of a text. Exact o200k counts up to `SAMPLE_ABOVE_CHARS`; above that, the count
 * of `SAMPLE_PIECES` evenly spaced pieces scaled to the whole length, which keeps a multi-megabyte
 * tool output at a few milliseconds.
 */
export function estimateTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length <= SAMPLE_ABOVE_CHARS) return countRange(text, 0, text.length);
  const stride = text.length / SAMPLE_PIECES;
  let sampledChars = 0;
  let sampledTokens = 0;
  for (let i = 0; i < SAMPLE_PIECES; i++) {
    const start = Math.floor(i * stride);
    const end = Math.min(text.length, start + TOKENIZE_PIECE_CHARS);
    sampledChars += end - start;
    sampledTokens += countRange(text, start, end);
  }
  return Math.round((sampledTokens * text.length) / sampledChars);
}

/**
 * The most tokens `estimateTextTokens` can give for `text`, without loading the tokenizer: an o200k
 * token is at least one UTF-8 byte, and a UTF-16 code unit at most three (a sampled estimate is
 * scaled from pieces that obey the same bound). For a check such as "this prompt cannot reach the
 * compaction trigger", which then never pays the tokenizer's load.
 */
export function textTokensAtMost(text: string): number {
  return 3 * text.length;
}

/** The text of an item that the provider turns into prompt tokens. */
function itemText(item: Item): string {
  switch (item.type) {
    case "message":
    case "reasoning":
      return item.text;
    case "redacted_reasoning":
      return item.data;
    case "tool_call":
      return item.arguments;
    case "tool_result":
      return item.content ?? item.summary;
    case "server_tool":
      return item.arguments ?? "";
  }
}

/** Tokens of what an item adds beyond its text: the tool name, a server tool's payload. */
function itemExtraTokens(item: Item, tokensOf = estimateTextTokens): number {
  if (item.type === "tool_call" || item.type === "tool_result") return tokensOf(item.name);
  if (item.type === "server_tool") {
    // Rare, and sent back verbatim as JSON; serialize once, the cache below keeps the count.
    return tokensOf(item.name) + tokensOf(JSON.stringify(item.payload) ?? "");
  }
  return 0;
}

interface CachedCount {
  text: string;
  tokens: number;
}

// History items are kept and re-sent on every request; count each once. The text is kept beside
// the count so that an item whose text was changed in place is counted again, not misreported.
const countCache = new WeakMap<Item, CachedCount>();

/** Estimated prompt tokens of one item: its text, its tool name, and `ITEM_OVERHEAD_TOKENS`. */
export function estimateItemTokens(item: Item): number {
  const text = itemText(item);
  const cached = countCache.get(item);
  if (cached !== undefined && cached.text === text) return cached.tokens;
  const tokens = ITEM_OVERHEAD_TOKENS + estimateTextTokens(text) + itemExtraTokens(item);
  countCache.set(item, { text, tokens });
  return tokens;
}

/** The most tokens `estimateItemTokens` can give for `item`, without the tokenizer (see `textTokensAtMost`). */
export function itemTokensAtMost(item: Item): number {
  return ITEM_OVERHEAD_TOKENS + textTokensAtMost(itemText(item)) + itemExtraTokens(item, textTokensAtMost);
}

/** Sum of `tokensOf` over `items[start, end)`. */
export function sumItemTokens(
  items: readonly Item[],
  tokensOf: ItemTokenCounter = estimateItemTokens,
  start = 0,
  end = items.length,
): number {
  let total = 0;
  for (let i = start; i < end; i++) {
    const item = items[i];
    if (item !== undefined) total += tokensOf(item);
  }
  return total;
}
