import type { CommandOutcome } from "./run-command.js";

/**
 * What a hook's command said, before it is given the meaning of its stage:
 * - `continue`: exit 0 with empty stdout, `{"action":"continue"}`, or stdout that is not an
 *   answer at all (a line that does not start with `{` is taken as logging);
 * - `block`: exit code 2, stderr being the reason (as Claude Code's hooks do), or
 *   `{"action":"block","reason":...}`;
 * - `action`: any other `{"action":...}` — its stage decides whether it means something;
 * - `problem`: the command failed, timed out or answered with broken JSON. The turn goes on as
 *   if it said continue, and the user is told.
 */
export type HookVerdict =
  | { kind: "continue" }
  | { kind: "block"; reason: string }
  | { kind: "action"; action: string; reason?: string }
  | { kind: "problem"; message: string };

/** The exit code that blocks, stderr being the reason. */
export const BLOCK_EXIT_CODE = 2;

/** Reads one outcome; `describe` is how the message names the hook (`hook "guard" (before_tool)`). */
export function verdictOf(outcome: CommandOutcome, describe: string, timeoutMs: number): HookVerdict {
  switch (outcome.kind) {
    case "spawn_failed":
      return { kind: "problem", message: `${describe} could not be started: ${outcome.message}` };
    case "timeout":
      return { kind: "problem", message: `${describe} timed out after ${timeoutMs} ms and was stopped` };
    case "signaled":
      return {
        kind: "problem",
        message: `${describe} was ended by ${outcome.signal}${stderrTail(outcome.stderr)}`,
      };
    case "exited":
      break;
  }
  if (outcome.code === BLOCK_EXIT_CODE) {
    const reason = outcome.stderr.trim();
    return { kind: "block", reason: reason === "" ? `blocked by ${describe}` : reason };
  }
  if (outcome.code !== 0) {
    return {
      kind: "problem",
      message: `${describe} failed with exit code ${outcome.code}${stderrTail(outcome.stderr)}`,
    };
  }
  const answer = outcome.stdout.trim();
  if (!answer.startsWith("{")) return { kind: "continue" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return { kind: "problem", message: `${describe} printed JSON that does not parse: ${excerpt(answer)}` };
  }
  const action = (parsed as { action?: unknown }).action;
  const reason = (parsed as { reason?: unknown }).reason;
  if (typeof action !== "string" || (reason !== undefined && typeof reason !== "string")) {
    return {
      kind: "problem",
      message: `${describe} answered ${excerpt(answer)}; expected {"action": "...", "reason"?: "..."}`,
    };
  }
  if (action === "continue") return { kind: "continue" };
  if (action === "block") return { kind: "block", reason: reason ?? `blocked by ${describe}` };
  return reason === undefined ? { kind: "action", action } : { kind: "action", action, reason };
}

/** The last line of stderr, which usually says what went wrong, bounded. */
function stderrTail(stderr: string): string {
  const lines = stderr.trim().split("\n");
  const last = lines[lines.length - 1]?.trim() ?? "";
  return last === "" ? "" : `: ${excerpt(last)}`;
}

function excerpt(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
