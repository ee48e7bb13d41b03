import { pieces, type ScriptedResponse, stopReasonOf } from "../script.js";

/** Ollama stamps every line; a fixed start and a steady pace keep the rendered body reproducible. */
const START_MS = Date.UTC(2025, 0, 1, 12, 0, 0);
const MS_PER_LINE = 5;
/** What a real server sends when generation fails after the body has started. */
const RUNNER_ERROR = "an error was encountered while running the model: unexpected EOF";

/**
 * Renders a scripted response as the NDJSON body of Ollama's `/api/chat` stream: one line per
 * piece of thinking or text (no block boundaries, as on the wire), one line per tool call (whole,
 * arguments as an object, `id` only when the script gives one, as older servers send none), then the
 * `done: true` line with `done_reason`, counts and durations. A scripted `error` stop ends with an
 * `{"error": ...}` line and no done line.
 *
 * What the wire cannot carry is lost: thinking signatures, cache counters, the response id, the
 * boundary between two adjacent blocks of the same kind, and refusals (sent as `stop`).
 */
export function encodeOllama(response: ScriptedResponse): string {
  const model = response.model ?? "qwen3:8b";
  const pieceSize = response.pieceSize ?? 8;
  const lines: string[] = [];
  const createdAt = (): string => new Date(START_MS + lines.length * MS_PER_LINE).toISOString();
  const partial = (message: Record<string, unknown>): void => {
    lines.push(
      JSON.stringify({
        model,
        created_at: createdAt(),
        message: { role: "assistant", content: "", ...message },
        done: false,
      }),
    );
  };

  let toolIndex = 0;
  for (const block of response.blocks) {
    if (block.type === "text") {
      for (const piece of pieces(block.text, pieceSize)) partial({ content: piece });
    } else if (block.type === "thinking") {
      for (const piece of pieces(block.text, pieceSize)) partial({ thinking: piece });
    } else {
      const call = {
        ...(block.id !== undefined && { id: block.id }),
        function: { index: toolIndex++, name: block.name, arguments: block.arguments ?? {} },
      };
      partial({ tool_calls: [call] });
    }
  }

  const stopReason = stopReasonOf(response);
  if (stopReason === "error") {
    lines.push(JSON.stringify({ error: RUNNER_ERROR }));
    return `${lines.join("\n")}\n`;
  }
  const usage = response.usage;
  const promptEvalDuration = 1_000_000 * (usage?.inputTokens ?? 1);
  const evalDuration = MS_PER_LINE * 1_000_000 * Math.max(1, lines.length);
  const loadDuration = 40_000_000;
  lines.push(
    JSON.stringify({
      model,
      created_at: createdAt(),
      message: { role: "assistant", content: "" },
      done_reason: stopReason === "max_tokens" ? "length" : "stop",
      done: true,
      total_duration: loadDuration + promptEvalDuration + evalDuration,
      load_duration: loadDuration,
      ...(usage !== undefined && { prompt_eval_count: usage.inputTokens }),
      prompt_eval_duration: promptEvalDuration,
      ...(usage !== undefined && { eval_count: usage.outputTokens }),
      eval_duration: evalDuration,
    }),
  );
  return `${lines.join("\n")}\n`;
}
