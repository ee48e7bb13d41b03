import type { LlmClient, RetryNotice } from "../llm-client/client.js";
import type { FallbackNotice } from "../llm-client/fallback.js";
import type { Request } from "../llm-client/request.js";
import type { Response } from "../llm-client/response.js";
import type { RunTrace } from "../tracing/run-trace.js";
import type { EventHub } from "./event-hub.js";
import { fallbackEvent } from "./fallback-event.js";

export interface TurnRequest {
  client: LlmClient;
  hub: EventHub;
  request: Request;
  turn: number;
  signal: AbortSignal | undefined;
  trace: RunTrace | undefined;
}

/**
 * One request of a run: its events through the Timeline as they arrive, where the hub's
 * `ResponseCollector` gathers them into the Response (retries as `retry` events, and on the
 * request's span; a switch of models as a `fallback` event).
 */
export async function streamTurn({
  client,
  hub,
  request,
  turn,
  signal,
  trace,
}: TurnRequest): Promise<Response> {
  hub.responses.begin(client.scheme);
  const onFallback = (notice: FallbackNotice): void => {
    // Nothing of the failed model's answer was delivered: the answer is the new model's.
    hub.responses.begin(notice.to.scheme);
    hub.emit(fallbackEvent(notice, turn, request.items));
  };
  const onRetry = (notice: RetryNotice): void => {
    trace?.retry(notice);
    hub.emit({
      type: "retry",
      turn,
      attempt: notice.retry + 1,
      maxAttempts: notice.maxRetries + 1,
      delayMs: notice.delayMs,
      error: notice.error,
    });
  };
  for await (const event of client.stream(request, { onRetry, onFallback, ...(signal && { signal }) })) {
    hub.dispatch(event);
  }
  return hub.responses.result();
}
