import type { ProviderData } from "../llm-client/event.js";
import { parseToolArguments, type ToolCall } from "../llm-client/response.js";
import type { ToolUseBlockEvent, ToolUseBlockStop } from "./event.js";
import type { Handler, ToolUseBlockKind } from "./handler.js";

/** A finished tool call, with what the next request needs to send it back. */
export interface CollectedToolCall extends ToolCall {
  /** Gemini `thoughtSignature` on the call (required when it is sent back). */
  signature?: string;
  /** OpenAI Responses function_call item id (`fc_…`). */
  itemId?: string;
}

export interface ToolCallCollectorScope {
  json: string;
  signature: string;
  startData: ProviderData | undefined;
}

/**
 * Collects every finished tool call, in order, parsing its arguments at the block's stop: "" means
 * `{}`, and text that is not JSON gives a call with `arguments: undefined` and `parseError` set,
 * which marks it invalid (the Worker answers it with an error result; nothing throws). A call cut
 * off by an abort is dropped: its arguments are incomplete, so it must not run.
 */
export class ToolCallCollector implements Handler<ToolUseBlockKind, ToolCallCollectorScope> {
  private calls: CollectedToolCall[] = [];

  /** `onCollected` is told of each call as its block stops. */
  constructor(private readonly onCollected?: (call: CollectedToolCall) => void) {}

  createScope(): ToolCallCollectorScope {
    return { json: "", signature: "", startData: undefined };
  }

  onEvent(scope: ToolCallCollectorScope, event: ToolUseBlockEvent): void {
    switch (event.kind) {
      case "start":
        scope.startData = event.providerData;
        return;
      case "input_json":
        scope.json += event.json;
        return;
      case "signature":
        scope.signature += event.signature;
        return;
      case "stop": {
        const call = callOf(scope, event);
        this.calls.push(call);
        this.onCollected?.(call);
        return;
      }
      // "abort": dropped with its scope.
    }
  }

  /** The calls collected so far, which the collector then forgets. */
  takeCollected(): CollectedToolCall[] {
    const calls = this.calls;
    this.calls = [];
    return calls;
  }

  /** A copy of the list of calls collected so far. */
  collected(): CollectedToolCall[] {
    return this.calls.slice();
  }

  /** Whether calls were collected that nobody has taken yet. */
  hasPendingCalls(): boolean {
    return this.calls.length > 0;
  }

  clear(): void {
    this.calls = [];
  }
}

function callOf(scope: ToolCallCollectorScope, stop: ToolUseBlockStop): CollectedToolCall {
  const parsed = parseToolArguments(scope.json);
  const call: CollectedToolCall = {
    id: stop.id,
    name: stop.name,
    argumentsText: scope.json,
    arguments: parsed.value,
  };
  if (parsed.error !== undefined) call.parseError = parsed.error;
  if (stop.synthesizedId) call.synthesizedId = true;
  if (scope.signature !== "") call.signature = scope.signature;
  const itemId = stop.providerData?.itemId ?? scope.startData?.itemId;
  if (itemId !== undefined) call.itemId = itemId;
  return call;
}
