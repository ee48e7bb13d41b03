import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Item, ToolResultItem } from "@yoake/llm-worker";
import { parseToolArguments } from "@yoake/llm-worker/internal";
import { toolCallView } from "./tool-call-view.js";
import { NOT_RUN_TEXT, textContent } from "./turn-reporter.js";

/**
 * A restored conversation as the `session/update`s that `session/load` replays, so the editor
 * shows it as it was: the user's messages (file references as the placeholders the model read),
 * the agent's messages and reasoning, and each tool call already in its final state with its
 * result. System messages (attached files, notes) and provider-only items (redacted reasoning,
 * server tools) are the model's context, not the conversation, and are left out.
 */
export function replayUpdates(history: readonly Item[], projectRoot: string): SessionUpdate[] {
  const results = new Map<string, ToolResultItem>();
  for (const item of history) if (item.type === "tool_result") results.set(item.callId, item);
  const updates: SessionUpdate[] = [];
  for (const item of history) {
    switch (item.type) {
      case "message":
        if (item.role === "system" || item.text === "") break;
        updates.push({
          sessionUpdate: item.role === "user" ? "user_message_chunk" : "agent_message_chunk",
          content: { type: "text", text: item.text },
        });
        break;
      case "reasoning":
        if (item.text !== "")
          updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: item.text } });
        break;
      case "tool_call": {
        const args = parseToolArguments(item.arguments);
        const view = toolCallView({ name: item.name, arguments: args.value }, projectRoot);
        const result = results.get(item.callId);
        updates.push({
          sessionUpdate: "tool_call",
          toolCallId: item.callId,
          title: view.title,
          kind: view.kind,
          status: result === undefined || result.isError === true ? "failed" : "completed",
          rawInput: args.error === undefined ? args.value : item.arguments,
          content: [textContent(result === undefined ? NOT_RUN_TEXT : (result.content ?? result.summary))],
          ...(view.locations.length > 0 && { locations: view.locations }),
        });
        break;
      }
      default:
        break;
    }
  }
  return updates;
}
