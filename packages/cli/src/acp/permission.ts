import type {
  PermissionOption,
  RequestPermissionOutcome,
  ToolCallContent,
  ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import type { DiffPreview, PermissionDecision, PermissionRequest } from "@yoake/pod";
import { toolCallView } from "./tool-call-view.js";
import { textContent } from "./turn-reporter.js";

/** The answers an editor offers for a call that needs approval, as the Pod takes them. */
export const PERMISSION_OPTIONS: readonly PermissionOption[] = [
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow this tool in this session", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

/** What the model reads as the call's result when the user rejects it. */
export const REJECTED_REASON = "rejected by the user in the editor";

/**
 * The Pod's decision for the editor's answer, or `cancelled` when the turn was cancelled while the
 * editor asked. `allow_always` lasts as long as the Pod, which is this ACP session. An option id
 * this agent never offered is a rejection: a call runs only on an answer that clearly allows it.
 */
export function permissionDecision(outcome: RequestPermissionOutcome): PermissionDecision | "cancelled" {
  if (outcome.outcome === "cancelled") return "cancelled";
  switch (outcome.optionId) {
    case "allow_once":
      return "allow_once";
    case "allow_always":
      return "allow_session";
    default:
      return { deny: REJECTED_REASON };
  }
}

/**
 * The tool call as the permission request shows it: the same id as the `tool_call` the turn
 * announced, its title, kind and file, and what it would change (the Pod's diff preview, or why
 * there is none), so the user decides on the change itself.
 */
export function permissionToolCall(request: PermissionRequest, projectRoot: string): ToolCallUpdate {
  const view = toolCallView({ name: request.tool, arguments: request.arguments }, projectRoot);
  const preview = request.preview;
  return {
    toolCallId: request.callId,
    title: view.title,
    kind: view.kind,
    status: "pending",
    rawInput: request.arguments,
    ...(view.locations.length > 0 && { locations: view.locations }),
    ...(preview !== undefined && { content: [previewContent(preview)] }),
  };
}

function previewContent(preview: DiffPreview): ToolCallContent {
  const text = preview.ok
    ? `\`\`\`diff\n${preview.diff}\n\`\`\`${preview.truncated ? "\n(the diff is cut short)" : ""}`
    : `No preview: ${preview.message}`;
  return textContent(text);
}
