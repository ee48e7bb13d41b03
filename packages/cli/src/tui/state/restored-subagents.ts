import type { Item } from "@yoake/llm-worker";
import { parseArguments } from "./history-entries.js";
import type { SubagentState, SubagentToolState } from "./ui-state.js";

/** The sub-agents of a restored conversation, by the call id of the `task` call that ran each. */
export type RestoredSubagents = Readonly<Record<string, SubagentState>>;

/** How a `task` result names the child's session: `[sub-agent session <id>, last hash …]`. */
const CHILD_SESSION = /\[sub-agent session ([0-9A-Za-z-]+)[,\]]/;

/**
 * The sub-agents that `task` calls in `items` ran, read back from their own session logs with
 * `readHistory`, so a restored conversation shows each under its card as it was shown live: what
 * it was asked, its tool calls folded to lines, how it ended. A child whose log cannot be read is
 * left out (its card keeps its result).
 */
export async function restoredSubagents(
  items: readonly Item[],
  readHistory: (sessionId: string) => Promise<readonly Item[]>,
): Promise<RestoredSubagents> {
  const calls = new Map<string, { description: string }>();
  const found: Array<Promise<[string, SubagentState] | undefined>> = [];
  for (const item of items) {
    if (item.type === "tool_call" && item.name === "task") {
      const args = parseArguments(item.arguments) as { description?: unknown } | undefined;
      calls.set(item.callId, { description: typeof args?.description === "string" ? args.description : "" });
    }
    if (item.type !== "tool_result") continue;
    const call = calls.get(item.callId);
    const sessionId = CHILD_SESSION.exec(item.content ?? item.summary)?.[1];
    if (call === undefined || sessionId === undefined) continue;
    found.push(
      readHistory(sessionId).then(
        (history): [string, SubagentState] => [
          item.callId,
          {
            description: call.description,
            sessionId,
            tools: childTools(history),
            status: item.isError === true ? "failed" : "finished",
          },
        ],
        () => undefined,
      ),
    );
  }
  return Object.fromEntries((await Promise.all(found)).filter((entry) => entry !== undefined));
}

/** The child's tool calls, labelled as its live `subagent` events label them (`read_file a.ts`). */
function childTools(history: readonly Item[]): SubagentToolState[] {
  const failed = new Map<string, boolean>();
  for (const item of history) if (item.type === "tool_result") failed.set(item.callId, item.isError === true);
  return history.flatMap((item): SubagentToolState[] => {
    if (item.type !== "tool_call") return [];
    const args = parseArguments(item.arguments) as { path?: unknown } | undefined;
    const label = typeof args?.path === "string" ? `${item.name} ${args.path}` : item.name;
    const ended = failed.get(item.callId);
    return [{ id: item.callId, label, state: ended === false ? "done" : "failed" }];
  });
}

/** The sub-agents of `items`, when the Pod can read other sessions and any `task` call ran one. */
export async function subagentsOf(
  pod: { sessionHistory?(sessionId: string): Promise<readonly Item[]> },
  items: readonly Item[],
): Promise<RestoredSubagents | undefined> {
  const read = pod.sessionHistory?.bind(pod);
  if (read === undefined || !items.some((item) => item.type === "tool_call" && item.name === "task"))
    return undefined;
  return restoredSubagents(items, read);
}
