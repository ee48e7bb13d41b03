import type { TextBlockEvent } from "./event.js";
import type { Handler, TextBlockKind } from "./handler.js";

/** The text of the block being collected. */
export interface TextCollectorScope {
  text: string;
}

/**
 * Collects the text of every text block (and `tool_result` block, routed as text), one string per
 * block, in order. A block cut off by an abort keeps the text that arrived, as the llm-client
 * `Response` does; register one instance and read it after the stream.
 */
export class TextBlockCollector implements Handler<TextBlockKind, TextCollectorScope> {
  private texts: string[] = [];

  createScope(): TextCollectorScope {
    return { text: "" };
  }

  onEvent(scope: TextCollectorScope, event: TextBlockEvent): void {
    switch (event.kind) {
      case "text":
        scope.text += event.text;
        return;
      case "stop":
      case "abort":
        this.texts.push(scope.text);
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
}
