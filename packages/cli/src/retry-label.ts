import type { WorkerEventOf } from "@yoake/llm-worker/internal";

/**
 * One line for a request sent again, for progress lines and the terminal UI:
 * `retrying in 2.0 s (attempt 2 of 3): anthropic: 529 Overloaded`.
 */
export function retryLabel(
  event: Pick<WorkerEventOf<"retry">, "attempt" | "maxAttempts" | "delayMs" | "error">,
): string {
  const seconds = (event.delayMs / 1000).toFixed(1);
  return `retrying in ${seconds} s (attempt ${event.attempt} of ${event.maxAttempts}): ${event.error.message}`;
}
