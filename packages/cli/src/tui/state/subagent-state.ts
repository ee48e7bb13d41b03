import type { PodEventOf } from "@yoake/pod";
import type { SubagentState } from "./ui-state.js";

/** A `task` card's sub-agent after one of its `subagent` events. */
export function nextSubagentState(
  current: SubagentState | undefined,
  event: PodEventOf<"subagent">,
): SubagentState {
  const subagent = current ?? { description: event.description, tools: [] };
  switch (event.state) {
    case "started":
      return { ...subagent, sessionId: event.sessionId };
    case "tool":
      return {
        ...subagent,
        tools: [...subagent.tools, { id: event.toolCallId, label: event.tool, state: "running" }],
      };
    case "tool_end":
      return {
        ...subagent,
        tools: subagent.tools.map((tool) =>
          tool.id === event.toolCallId ? { ...tool, state: event.isError ? "failed" : "done" } : tool,
        ),
      };
    case "ended":
      // Calls still open when the child stopped (cancelled mid-call) never ran to their end.
      return {
        ...subagent,
        status: event.status,
        tools: subagent.tools.map((tool) => (tool.state === "running" ? { ...tool, state: "failed" } : tool)),
      };
  }
}
