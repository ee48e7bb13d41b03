import type { ProviderData } from "../llm-client/event.js";
import type { ThinkingBlockEvent } from "./event.js";
import type { Handler, ThinkingBlockKind } from "./handler.js";

/**
 * One thinking block, with what the next request needs to send it back (the fields of a
 * `ReasoningItem`).
 */
export interface CollectedThinking {
  text: string;
  /** Anthropic thinking signature or Gemini thought signature, pieces concatenated. */
  signature?: string;
  /** OpenAI Responses: the reasoning item id, summary parts and encrypted content. */
  itemId?: string;
  summary?: string[];
  encryptedContent?: string | null;
}

export interface ThinkingCollectorScope {
  text: string;
  signature: string;
  startData: ProviderData | undefined;
}

/** Called as each block is collected: `stopped` is false for a block cut off by an abort. */
export type OnThinkingCollected = (block: CollectedThinking, index: number, stopped: boolean) => void;

/**
 * Collects every thinking block, one entry per block, in order, keeping its signature: without it
 * Anthropic and Gemini reject the reasoning when it is sent back. A block cut off by an abort keeps
 * what arrived, as the llm-client `Response` does. `onCollected` is told of each block as it ends.
 */
export class ThinkingBlockCollector implements Handler<ThinkingBlockKind, ThinkingCollectorScope> {
  private blocks: CollectedThinking[] = [];

  constructor(private readonly onCollected?: OnThinkingCollected) {}

  createScope(): ThinkingCollectorScope {
    return { text: "", signature: "", startData: undefined };
  }

  onEvent(scope: ThinkingCollectorScope, event: ThinkingBlockEvent): void {
    switch (event.kind) {
      case "start":
        scope.startData = event.providerData;
        return;
      case "thinking":
        scope.text += event.text;
        return;
      case "signature":
        scope.signature += event.signature;
        return;
      case "stop":
        this.collect(collectedOf(scope, event.providerData), event.index, true);
        return;
      case "abort":
        this.collect(collectedOf(scope, undefined), event.index, false);
        return;
    }
  }

  /** The blocks collected so far, which the collector then forgets. */
  takeCollected(): CollectedThinking[] {
    const blocks = this.blocks;
    this.blocks = [];
    return blocks;
  }

  /** A copy of the list of blocks collected so far. */
  collected(): CollectedThinking[] {
    return this.blocks.slice();
  }

  /** Whether a collected block has any visible reasoning text. */
  hasContent(): boolean {
    return this.blocks.some((block) => block.text !== "");
  }

  clear(): void {
    this.blocks = [];
  }

  private collect(block: CollectedThinking, index: number, stopped: boolean): void {
    this.blocks.push(block);
    this.onCollected?.(block, index, stopped);
  }
}

function collectedOf(scope: ThinkingCollectorScope, stopData: ProviderData | undefined): CollectedThinking {
  const block: CollectedThinking = { text: scope.text };
  if (scope.signature !== "") block.signature = scope.signature;
  // A field on the stop event wins over the same field on start (llm-client `ProviderData`).
  const itemId = stopData?.itemId ?? scope.startData?.itemId;
  const summary = stopData?.summary ?? scope.startData?.summary;
  const encryptedContent =
    stopData?.encryptedContent !== undefined ? stopData.encryptedContent : scope.startData?.encryptedContent;
  if (itemId !== undefined) block.itemId = itemId;
  if (summary !== undefined) block.summary = summary;
  if (encryptedContent !== undefined) block.encryptedContent = encryptedContent;
  return block;
}
