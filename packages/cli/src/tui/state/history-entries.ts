import type { Item, ToolResultItem } from "@yoake/llm-worker";
import type { Entry, SubagentState, ToolCardResult } from "./ui-state.js";

const FILE_REF_PLACEHOLDER = /\[unresolved file ref: ([^\]\n]+)\]/g;
const ATTACHMENT_HEADER = /^\[(?:File|Directory): (.+)\]$/;

/** The tool result as a card shows it. */
export function cardResultOf(item: ToolResultItem): ToolCardResult {
  return {
    summary: item.summary,
    ...(item.content !== undefined && { content: item.content }),
    isError: item.isError === true,
  };
}

/** A user message as the user typed it: history holds `[unresolved file ref: p]` where they wrote `@p`. */
export function displayUserText(text: string): string {
  return text.includes("[unresolved file ref: ") ? text.replace(FILE_REF_PLACEHOLDER, "@$1") : text;
}

/**
 * A saved conversation as transcript entries, all final: the user's `@` references shown as typed
 * (history holds their placeholders), attached files as one line each, every tool call as a card
 * with the result history kept (and, for a `task` call, its sub-agent from `subagents`). `idPrefix` keeps the ids apart from those of another load.
 */
export function entriesFromHistory(
  items: readonly Item[],
  idPrefix: string,
  subagents?: Readonly<Record<string, SubagentState>>,
): Entry[] {
  const entries: Entry[] = [];
  const cardIndexByCall = new Map<string, number>();
  items.forEach((item, i) => {
    const id = `${idPrefix}${i}`;
    switch (item.type) {
      case "message": {
        if (item.role === "user") {
          entries.push({ kind: "user", id, text: displayUserText(item.text), done: true });
        } else if (item.role === "assistant") {
          entries.push({ kind: "assistant", id, text: item.text, done: true });
        } else {
          const newline = item.text.indexOf("\n");
          const firstLine = newline === -1 ? item.text : item.text.slice(0, newline);
          const attached = ATTACHMENT_HEADER.exec(firstLine);
          if (attached?.[1] !== undefined)
            entries.push({ kind: "attachment", id, path: attached[1], done: true });
          else entries.push({ kind: "notice", id, tone: "muted", text: `system: ${firstLine}`, done: true });
        }
        return;
      }
      case "reasoning":
        if (item.text !== "") entries.push({ kind: "thinking", id, text: item.text, done: true });
        return;
      case "redacted_reasoning":
        entries.push({ kind: "thinking", id, text: "[redacted reasoning]", done: true });
        return;
      case "tool_call":
        cardIndexByCall.set(item.callId, entries.length);
        entries.push({
          kind: "tool",
          id,
          done: true,
          card: {
            callId: item.callId,
            name: item.name,
            argumentsText: item.arguments,
            arguments: parseArguments(item.arguments),
            phase: "not_run",
            // A `task` call's sub-agent, read back from its own log (`restoredSubagents`).
            ...(subagents?.[item.callId] !== undefined && { subagent: subagents[item.callId] }),
          },
        });
        return;
      case "tool_result": {
        const at = cardIndexByCall.get(item.callId);
        const entry = at === undefined ? undefined : entries[at];
        if (entry?.kind === "tool")
          entries[at as number] = {
            ...entry,
            card: { ...entry.card, phase: "done", result: cardResultOf(item) },
          };
        return;
      }
      case "server_tool":
        entries.push({
          kind: "notice",
          id,
          tone: "muted",
          text: `server tool ${item.role}: ${item.name}`,
          done: true,
        });
        return;
    }
  });
  return entries;
}

/** Arguments as JSON, or undefined when the text is not JSON (the card shows the text then). */
export function parseArguments(text: string): unknown {
  if (text === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The tool results of the latest run: those after the last user message. */
export function latestToolResults(history: readonly Item[]): ToolResultItem[] {
  const results: ToolResultItem[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i] as Item;
    if (item.type === "message" && item.role === "user") break;
    if (item.type === "tool_result") results.push(item);
  }
  return results;
}
