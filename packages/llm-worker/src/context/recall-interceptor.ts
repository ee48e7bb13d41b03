import { type Item, isUserMessage, type MessageItem, systemMessage } from "../llm-client/item.js";
import type { BlobId, BlobStore } from "../tool-output/blob-store.js";
import {
  RECALL_MARKER,
  type RecallOptions,
  recallFromBlobs,
  recallReferences,
} from "../tool-output/recall.js";
import { recallTerms } from "../tool-output/recall-terms.js";
import type { Interceptor } from "../worker/hooks.js";
import { sharedPrefixLength } from "./token-accounting.js";

export interface RecallInterceptorOptions extends RecallOptions {
  /** Where the session's tool outputs are stored (the Worker's `blobStore`). */
  store: BlobStore;
  /** A history restored from a session log: its stored outputs are recalled from the first prompt on. */
  history?: readonly Item[];
  /** The newest stored outputs searched (default 64): a turn's recall must not read a whole archive. */
  maxBlobs?: number;
}

export interface RecallInterceptor extends Interceptor {
  /** How many prompts got a recall (for tests and benchmarks). */
  readonly recalls: number;
}

const BLOB_POINTER = /^\[blob:([0-9a-f-]{36})\]/;
const FULL = `${RECALL_MARKER} earlier`;

/**
 * Recall at the turn boundary: when a user message arrives, the session's stored outputs are
 * searched for the names it mentions (`recallTerms`), and the lines naming them are added right
 * after it as a system item (`recallFromBlobs`), so a fact an earlier output held costs no
 * `inspect` round trip. Nothing is added when nothing matches.
 *
 * A recall is short-lived: once its turn is over, it is cut to its `[blob:<id>] <selector>`
 * references in every request from the first one whose cached prefix ends before it anyway (a
 * prune's batch, which rewrites everything after the first pruned result): collapsing it then
 * costs no cache write. The stored history keeps it whole. Put it after the prune interceptor.
 */
export function recallInterceptor(options: RecallInterceptorOptions): RecallInterceptor {
  const { store, maxBlobs = 64 } = options;
  const blobIds = new Set<BlobId>();
  const learn = (items: readonly Item[]): void => {
    for (const item of items) {
      if (item.type !== "tool_result") continue;
      const id = item.summary.match(BLOB_POINTER)?.[1];
      if (id !== undefined && !blobIds.has(id)) blobIds.add(id);
    }
  };
  learn(options.history ?? []);
  // The same collapsed copy on every request, so the prefix stays identical to the last one sent.
  const collapsed = new Map<string, MessageItem>();
  let lastSent: readonly Item[] = [];
  let recalls = 0;

  return {
    name: "recall",
    get recalls() {
      return recalls;
    },
    async onPromptSubmit({ items }) {
      const text = items
        .filter(isUserMessage)
        .map((item) => item.text)
        .join("\n");
      const terms = recallTerms(text);
      if (terms.length === 0 || blobIds.size === 0) return undefined;
      const recall = await recallFromBlobs(store, [...blobIds].slice(-maxBlobs), terms, options);
      if (recall === undefined) return undefined;
      recalls++;
      return { action: "continue_with", items: [systemMessage(recall.text)] };
    },
    onPreRequest({ request }) {
      learn(request.items);
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
    const references = item.text.split("\n").filter((line) => BLOB_POINTER.test(line));
    copy = systemMessage(recallReferences(references));
    copies.set(item.text, copy);
  }
  return copy;
}
