import type { ToolCall } from "@yoake/llm-worker";
import { screenText } from "./screen-text.js";

/** The argument that says most about a call of each kind of tool, in order of preference. */
const TELLING_ARGUMENTS = ["pattern", "path", "blob_id", "selector", "command"] as const;
const MAX_LABEL_CHARS = 100;

/**
 * A one-line label for a tool call, for progress lines: `read_file src/greet.ts`,
 * `grep "ERROR" in logs`, `inspect 0190… lines:1-5`. Falls back to the tool name alone. Screen
 * text (`screenText`): a model's arguments and a repository's file names show their controls as
 * placeholders, in the terminal UI, on `-p`'s stderr and as an editor's title alike.
 */
export function toolCallLabel(call: Pick<ToolCall, "name" | "arguments">): string {
  const args = call.arguments;
  if (typeof args !== "object" || args === null) return call.name;
  const record = args as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of TELLING_ARGUMENTS) {
    const value = record[key];
    if (typeof value !== "string" || value === "") continue;
    const shown = screenText(value);
    if (key === "pattern") parts.push(JSON.stringify(shown));
    else if (key === "path" && parts.length > 0) parts.push(`in ${shown}`);
    else parts.push(shown);
  }
  const name = screenText(call.name);
  const label = parts.length === 0 ? name : `${name} ${parts.join(" ")}`;
  return label.length > MAX_LABEL_CHARS ? `${label.slice(0, MAX_LABEL_CHARS - 1)}…` : label;
}
