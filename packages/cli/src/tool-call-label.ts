import type { ToolCall } from "@yoake/llm-worker";

/** The argument that says most about a call of each kind of tool, in order of preference. */
const TELLING_ARGUMENTS = ["pattern", "path", "blob_id", "selector", "command"] as const;
const MAX_LABEL_CHARS = 100;

/**
 * A one-line label for a tool call, for progress lines: `read_file src/greet.ts`,
 * `grep "ERROR" in logs`, `inspect 0190… lines:1-5`. Falls back to the tool name alone.
 */
export function toolCallLabel(call: Pick<ToolCall, "name" | "arguments">): string {
  const args = call.arguments;
  if (typeof args !== "object" || args === null) return call.name;
  const record = args as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of TELLING_ARGUMENTS) {
    const value = record[key];
    if (typeof value !== "string" || value === "") continue;
    if (key === "pattern") parts.push(JSON.stringify(value));
    else if (key === "path" && parts.length > 0) parts.push(`in ${value}`);
    else parts.push(value);
  }
  const label = parts.length === 0 ? call.name : `${call.name} ${parts.join(" ")}`;
  return label.length > MAX_LABEL_CHARS ? `${label.slice(0, MAX_LABEL_CHARS - 1)}…` : label;
}
