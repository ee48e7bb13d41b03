import type { StopReason } from "../../event.js";

/**
 * Anthropic's `stop_reason` in the unified set:
 * - `pause_turn` (the API paused a long server-tool turn) → `end_turn`: nothing is left for the
 *   caller to run; sending the response back as it is lets the model continue;
 * - `model_context_window_exceeded` → `max_tokens`: the answer was cut off by a token limit;
 * - a missing or unknown reason → `end_turn`: the message did end (`message_stop` arrived).
 */
export function anthropicStopReason(raw: string | null): StopReason {
  switch (raw) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_tokens";
    case "stop_sequence":
      return "stop_sequence";
    case "tool_use":
      return "tool_use";
    case "refusal":
      return "refusal";
    default:
      return "end_turn";
  }
}
