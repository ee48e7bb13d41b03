import type { ProviderData } from "../llm-client/event.js";
import type { TextBlockEvent } from "./event.js";
import type { Handler, TextBlockKind } from "./handler.js";

/** One text or `tool_result` block, with what the next request needs to send it back. */
export interface CollectedText {
  text: string;
  blockType: "text" | "tool_result";
  /** Gemini thought signature riding on the text, pieces concatenated. */
  signature?: string;
  /** OpenAI Responses message item id. */
  itemId?: string;
  citations?: unknown[];
}

/** The block being collected. */
export interface TextCollectorScope {
  text: string;
  signature: string;
  citations: unknown[];
  blockType: "text" | "tool_result";
  startData: ProviderData | undefined;
}

/**
 * Called as each block is collected: `stopped` is false for a block cut off by an abort. `index` is
 * the block's stream index.
 */
export type OnTextCollected = (block: CollectedText, index: number, stopped: boolean) => void;

/**
 * Collects the text of every text block (and `tool_result` block, routed as text), one string per
 * block, in order. A block cut off by an abort keeps the text that arrived, as the llm-client
 * `Response` does; register one instance and read it after the stream, or pass `onCollected` to be
 * told of each block as it ends (the Worker builds its history items this way).
 */
export class TextBlockCollector implements Handler<TextBlockKind, TextCollectorScope> {
  private texts: string[] = [];

  constructor(private readonly onCollected?: OnTextCollected) {}

  createScope(): TextCollectorScope {
    return { text: "", signature: "", citations: [], blockType: "text", startData: undefined };
  }

  onEvent(scope: TextCollectorScope, event: TextBlockEvent): void {
    switch (event.kind) {
      case "text":
        scope.text += event.text;
        return;
      case "start":
        scope.blockType = event.blockType;
        scope.startData = event.providerData;
        return;
      case "signature":
        scope.signature += event.signature;
        return;
      case "citation":
        scope.citations.push(event.citation);
        return;
      case "stop":
        this.collect(scope, event.index, event.providerData, true);
        return;
      case "abort":
        this.collect(scope, event.index, undefined, false);
        return;
    }
  }

  /** The texts collected so far, which the collector then forgets. */
  takeCollected(): string[] {
    const texts = this.texts;
    this.texts = [];
    return texts;
  }

  /** A copy of the texts collected so far. */
  collected(): string[] {
    return this.texts.slice();
  }

  /** Whether a collected block has any text (an empty block is collected but is no content). */
  hasContent(): boolean {
    return this.texts.some((text) => text !== "");
  }

  clear(): void {
    this.texts = [];
  }

  private collect(
    scope: TextCollectorScope,
    index: number,
    stopData: ProviderData | undefined,
    stopped: boolean,
  ) {
    this.texts.push(scope.text);
    if (!this.onCollected) return;
    const block: CollectedText = { text: scope.text, blockType: scope.blockType };
    if (scope.signature !== "") block.signature = scope.signature;
    // A field on the stop event wins over the same field on start (llm-client `ProviderData`).
    const itemId = stopData?.itemId ?? scope.startData?.itemId;
    if (itemId !== undefined) block.itemId = itemId;
    if (scope.citations.length > 0) block.citations = scope.citations;
    this.onCollected(block, index, stopped);
  }
}
