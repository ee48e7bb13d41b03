/**
 * Claude Code's rule for large tool results: a result over 50,000 characters is saved to a file in
 * the session's `tool-results/` directory, and the model gets a `<persisted-output>` block with the
 * size, the path and a preview of about 2 KB cut at a line boundary; it reads the rest with its
 * Read tool. Smaller results are kept whole. (Its per-message budget for parallel calls does not
 * apply here: the session makes one call per request.) Written from the documented behaviour.
 */
import type { Disk, OutputRule } from "../tools.js";

export const CLAUDE_CODE_PERSIST_ABOVE_CHARS = 50_000;
export const CLAUDE_CODE_PREVIEW_BYTES = 2_000;

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** About `maxBytes` from the start, ending at the last line break within them when there is one. */
function preview(text: string, maxBytes: number): string {
  const cut = Buffer.from(text, "utf8")
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  const lastBreak = cut.lastIndexOf("\n");
  return lastBreak > 0 ? cut.slice(0, lastBreak) : cut;
}

export function claudeCodeRule(disk: Disk): OutputRule {
  return (output, context) => {
    if (output.length <= CLAUDE_CODE_PERSIST_ABOVE_CHARS) return output;
    const path = `/home/dev/.claude/projects/bench/session/tool-results/${context.callId}.txt`;
    disk.write(path, output);
    return [
      "<persisted-output>",
      `Output too large (${formatSize(Buffer.byteLength(output, "utf8"))}). Full output saved to: ${path}`,
      "",
      "Preview (first 2KB):",
      preview(output, CLAUDE_CODE_PREVIEW_BYTES),
      "...",
      "</persisted-output>",
    ].join("\n");
  };
}
