import {
  type Item,
  isUserMessage,
  type MessageItem,
  systemMessage,
  type ToolResultItem,
} from "../llm-client/item.js";
import type { BlobStore } from "../tool-output/blob-store.js";
import {
  blobSources,
  RECALL_MARKER,
  type RecallOptions,
  type RecallSource,
  recallFrom,
  recallReferences,
  referencesOf,
} from "../tool-output/recall.js";
import { recallTerms } from "../tool-output/recall-terms.js";
import { cutToBytes } from "../tool-output/utf8.js";
import type { Interceptor } from "../worker/hooks.js";
import { sharedPrefixLength } from "./token-accounting.js";

export interface RecallInterceptorOptions extends RecallOptions {
  /** Where the session's tool outputs are stored (the Worker's `blobStore`). */
  store: BlobStore;
  /** A history restored from a session log: its outputs are recalled from the first prompt on. */
  history?: readonly Item[];
  /** The newest outputs searched (default 64): a turn's recall must not read a whole archive. */
  maxSources?: number;
  /** Characters of inline outputs kept to search once pruned, the newest (default 4 Mi). */
  maxInlineChars?: number;
}

export interface RecallInterceptor extends Interceptor {
  /** How many prompts got a recall (for tests and benchmarks). */
  readonly recalls: number;
}

const BLOB_POINTER = /^\[blob:([0-9a-f-]{36})\]/;
const FULL = `${RECALL_MARKER} earlier`;
/** How much of a call's arguments an inline output's label quotes. */
const LABEL_ARGUMENT_BYTES = 100;

/** An earlier output, in call order: stored (a blob id) or inline (its text, searched once pruned). */
type Output = { blob: string } | { callId: string; label: string; text: string };

/**
 * Recall at the turn boundary: when a user message arrives, the session's earlier outputs are
 * searched for the names it mentions (`recallTerms`) — the stored ones, and the inline ones prune
 * has taken out of the requests (the history keeps them) — and the lines naming them are added
 * right after it as a system item (`recallFrom`), so a fact an earlier output held costs no round
 * trip. Nothing is added when nothing matches.
 *
 * A recall is short-lived: once its turn is over, it is cut to its references in every request
 * from the first one whose cached prefix ends before it anyway (a prune's batch, which rewrites
 * everything after the first pruned result): collapsing it then costs no cache write. The stored
 * history keeps it whole. Put it after the prune interceptor.
 */
export function recallInterceptor(options: RecallInterceptorOptions): RecallInterceptor {
  const { store, maxSources = 64, maxInlineChars = 4 * 1024 * 1024 } = options;
  const outputs: Output[] = [];
  const known = new Set<string>();
  /** Call ids of inline results the last request carried without their content. */
  const pruned = new Set<string>();
  let inlineChars = 0;

  const learn = (result: ToolResultItem, call?: { name: string; arguments: string }): void => {
    const blob = result.summary.match(BLOB_POINTER)?.[1];
    if (blob !== undefined) {
      if (!known.has(blob)) outputs.push({ blob });
      known.add(blob);
      return;
    }
    if (result.content === undefined || result.isError === true || known.has(result.callId)) return;
    known.add(result.callId);
    const label =
      `${call?.name ?? result.name} ${cutToBytes(call?.arguments ?? "", LABEL_ARGUMENT_BYTES)}`.trim();
    outputs.push({ callId: result.callId, label, text: result.content });
    inlineChars += result.content.length;
    // The oldest inline outputs go first: a long session must not keep every output in memory.
    while (inlineChars > maxInlineChars) {
      const oldest = outputs.findIndex((output) => "text" in output);
      const [dropped] = outputs.splice(oldest, 1);
      inlineChars -= dropped !== undefined && "text" in dropped ? dropped.text.length : 0;
    }
  };
  const calls = new Map<string, { name: string; arguments: string }>();
  for (const item of options.history ?? []) {
    if (item.type === "tool_call") calls.set(item.callId, item);
    if (item.type === "tool_result") learn(item, calls.get(item.callId));
  }

  // The same collapsed copy on every request, so the prefix stays identical to the last one sent.
  const collapsed = new Map<string, MessageItem>();
  let lastSent: readonly Item[] = [];
  let recalls = 0;

  const sources = async (): Promise<RecallSource[]> => {
    const eligible = outputs
      .filter((output) => "blob" in output || pruned.has(output.callId))
      .slice(-maxSources);
    const blobs = await blobSources(
      store,
      eligible.flatMap((output) => ("blob" in output ? [output.blob] : [])),
    );
    const byLabel = new Map(blobs.map((source) => [source.label, source]));
    // Newest first, stored and inline in call order.
    return eligible.reverse().flatMap((output): RecallSource[] => {
      if (!("blob" in output)) return [{ label: output.label, view: { kind: "text", text: output.text } }];
      const source = byLabel.get(`blob:${output.blob}`);
      return source === undefined ? [] : [source];
    });
  };

  return {
    name: "recall",
    get recalls() {
      return recalls;
    },
    afterToolCall(result, call) {
      learn(result, { name: call.name, arguments: call.argumentsText });
      return undefined;
    },
    async onPromptSubmit({ items }) {
      const text = items
        .filter(isUserMessage)
        .map((item) => item.text)
        .join("\n");
      const terms = recallTerms(text);
      if (terms.length === 0 || outputs.length === 0) return undefined;
      const recall = recallFrom(await sources(), terms, options);
      if (recall === undefined) return undefined;
      recalls++;
      return { action: "continue_with", items: [systemMessage(recall.text)] };
    },
    onPreRequest({ request }) {
      for (const item of request.items) {
        if (item.type !== "tool_result") continue;
        if (BLOB_POINTER.test(item.summary)) learn(item);
        else if (item.content === undefined) pruned.add(item.callId);
      }
      const items = request.items.map((item) =>
        isFullRecall(item) ? (collapsed.get(item.text) ?? item) : item,
      );
      const cached = sharedPrefixLength(items, lastSent);
      let userAfter = false;
      for (let i = items.length - 1; i >= cached; i--) {
        const item = items[i] as Item;
        if (isUserMessage(item)) userAfter = true;
        else if (userAfter && isFullRecall(item)) items[i] = collapse(item, collapsed);
      }
      request.items = items;
      lastSent = items;
      return undefined;
    },
  };
}

function isFullRecall(item: Item): item is MessageItem {
  return item.type === "message" && item.role === "system" && item.text.startsWith(FULL);
}

function collapse(item: MessageItem, copies: Map<string, MessageItem>): MessageItem {
  let copy = copies.get(item.text);
  if (copy === undefined) {
    copy = systemMessage(recallReferences(referencesOf(item.text)));
    copies.set(item.text, copy);
  }
  return copy;
}
