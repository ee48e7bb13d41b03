/**
 * What a prompt-caching provider would count and charge for each request body the mock received
 * (Anthropic Messages format): the tokens of its messages (gpt-tokenizer, o200k), and the cache
 * writes of Anthropic-style prefix caching, where a request writes everything after the longest
 * prefix of content blocks it shares with the previous request and reads that prefix.
 */
import { countTokens } from "gpt-tokenizer";

interface Block {
  type: string;
  text?: string;
  name?: string;
  id?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | { type: string; text?: string }[];
}

interface Body {
  messages: { role: string; content: Block[] | string }[];
}

/** The text of a tool result block, whichever form its content has. */
export function toolResultText(block: Block): string {
  if (typeof block.content === "string") return block.content;
  return (block.content ?? []).map((part) => part.text ?? "").join("");
}

/** One content block as the cache sees it: its identity (everything but breakpoints) and its text. */
interface Segment {
  key: string;
  text: string;
}

function segmentsOf(body: Body): Segment[] {
  const out: Segment[] = [];
  for (const message of body.messages) {
    const blocks: Block[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    for (const block of blocks) {
      let text: string;
      let id = "";
      if (block.type === "tool_use") {
        text = `${block.name ?? ""} ${JSON.stringify(block.input ?? {})}`;
        id = block.id ?? "";
      } else if (block.type === "tool_result") {
        text = toolResultText(block);
        id = block.tool_use_id ?? "";
      } else text = block.text ?? "";
      out.push({ key: `${message.role}\u0000${block.type}\u0000${id}\u0000${text}`, text });
    }
  }
  return out;
}

/** What one request cost. */
export interface RequestCount {
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** Anthropic's prompt prices relative to an uncached input token: cache reads and 5-minute writes. */
export const CACHE_READ_PRICE = 0.1;
export const CACHE_WRITE_PRICE = 1.25;

export class PromptMeter {
  #previous: string[] = [];
  // Blocks are re-sent on every request: count each distinct one once.
  readonly #counts = new Map<string, number>();
  requests = 0;
  inputTokens = 0;
  cacheWriteTokens = 0;
  /** Every prompt priced: reads at 0.1, writes at 1.25, in uncached-input-token units. */
  pricedCost = 0;
  largestPrompt = 0;

  /** Counts one request body and remembers it as the prefix the next request may share. */
  record(body: unknown): RequestCount {
    const segments = segmentsOf(body as Body);
    let shared = 0;
    while (
      shared < segments.length &&
      shared < this.#previous.length &&
      segments[shared]?.key === this.#previous[shared]
    )
      shared++;
    let total = 0;
    let read = 0;
    segments.forEach((segment, i) => {
      let tokens = this.#counts.get(segment.key);
      if (tokens === undefined) {
        tokens = countTokens(segment.text);
        this.#counts.set(segment.key, tokens);
      }
      total += tokens;
      if (i < shared) read += tokens;
    });
    this.#previous = segments.map((segment) => segment.key);
    this.requests++;
    this.inputTokens += total;
    this.cacheWriteTokens += total - read;
    this.pricedCost += read * CACHE_READ_PRICE + (total - read) * CACHE_WRITE_PRICE;
    this.largestPrompt = Math.max(this.largestPrompt, total);
    return { inputTokens: total, cacheReadTokens: read, cacheWriteTokens: total - read };
  }
}
