import { RequestError, type StopReason } from "@agentclientprotocol/sdk";
import type { PodRunResult } from "@yoake/pod";

/** JSON-RPC "internal error": ACP has no stop reason for a failed turn, it answers with an error. */
const INTERNAL_ERROR = -32603;

/**
 * The `session/prompt` stop reason of how the Pod's run ended:
 * - finished: `refusal` and `max_tokens` when the model's last response stopped so, else `end_turn`;
 * - cancelled (the client's `session/cancel`, or a hook that cancelled the run): `cancelled`;
 * - failed at the turn limit (`limits.turns`): `max_turn_requests`;
 * - paused by a hook (not for approval, which the session answers): `end_turn`; the next prompt
 *   replaces the paused run.
 *
 * Any other failure (the provider's error, a hook that threw) is thrown as a JSON-RPC error whose
 * message says why, which is how ACP reports a turn that could not complete.
 */
export function promptStopReason(result: PodRunResult): StopReason {
  switch (result.status) {
    case "finished": {
      const stop = result.response.stopReason;
      if (stop === "refusal") return "refusal";
      if (stop === "max_tokens") return "max_tokens";
      return "end_turn";
    }
    case "cancelled":
      return "cancelled";
    case "paused":
      return "end_turn";
    case "failed": {
      const error = result.error;
      if (error.kind === "max_turns") return "max_turn_requests";
      const data =
        error.kind === "llm"
          ? {
              kind: error.error.kind,
              ...(error.error.status !== undefined && { status: error.error.status }),
            }
          : error.kind === "hook"
            ? { kind: "hook", hook: error.hook, stage: error.stage }
            : { kind: error.kind };
      throw new RequestError(INTERNAL_ERROR, `the turn failed: ${error.message}`, data);
    }
  }
}
