import type { ErrorKind, StopReason } from "../../event.js";

/**
 * `Candidate.FinishReason` by number, for `enum-encoding=int` responses. The numbers are the
 * proto's (google.ai.generativelanguage.v1beta), not the order of the documentation's list:
 * OTHER is 5 and LANGUAGE 6, and the image reasons were numbered after the tool ones.
 */
const FINISH_REASON_BY_NUMBER: readonly string[] = [
  "FINISH_REASON_UNSPECIFIED", // 0
  "STOP",
  "MAX_TOKENS",
  "SAFETY",
  "RECITATION",
  "OTHER", // 5
  "LANGUAGE",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "MALFORMED_FUNCTION_CALL", // 10
  "IMAGE_SAFETY",
  "UNEXPECTED_TOOL_CALL",
  "TOO_MANY_TOOL_CALLS",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_OTHER", // 15
  "NO_IMAGE",
  "IMAGE_RECITATION",
  "MISSING_THOUGHT_SIGNATURE", // 18
];

/** The finish reason's name, whichever way the wire encoded it (`undefined` for an unknown number). */
export function finishReasonName(raw: string | number): string | undefined {
  return typeof raw === "string" ? raw : FINISH_REASON_BY_NUMBER[raw];
}

/**
 * What a finish reason means for us.
 * - STOP, and reasons that are not a failure of the answer (OTHER, NO_IMAGE, unknown ones): a
 *   normal end. Gemini reports a matched stop sequence as STOP too, so `stop_sequence` never occurs.
 * - MAX_TOKENS, and Vertex's CONTINUATION (a per-request limit): the answer was cut.
 * - Every content filter (SAFETY, RECITATION, LANGUAGE, BLOCKLIST, PROHIBITED_CONTENT, SPII and
 *   the image ones): the model declined, `refusal`.
 * - The model produced something unusable (MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL,
 *   TOO_MANY_TOOL_CALLS, MALFORMED_RESPONSE) or our request was incomplete
 *   (MISSING_THOUGHT_SIGNATURE): a failed response, reported with an error of `failureKind`.
 */
export function stopReasonOfFinish(name: string | undefined): StopReason {
  switch (name) {
    case "MAX_TOKENS":
    case "CONTINUATION":
      return "max_tokens";
    case "SAFETY":
    case "RECITATION":
    case "LANGUAGE":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
      return "refusal";
    case "MALFORMED_FUNCTION_CALL":
    case "UNEXPECTED_TOOL_CALL":
    case "TOO_MANY_TOOL_CALLS":
    case "MALFORMED_RESPONSE":
    case "MISSING_THOUGHT_SIGNATURE":
      return "error";
    default:
      return "end_turn";
  }
}

/**
 * The error kind of a finish reason that fails the response: the model's own slip is worth
 * another attempt (`server`); a missing thought signature is our request's fault.
 */
export function failureKind(name: string | undefined): ErrorKind {
  return name === "MISSING_THOUGHT_SIGNATURE" ? "invalid_request" : "server";
}
