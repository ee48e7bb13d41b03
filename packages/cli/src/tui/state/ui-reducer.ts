import type { Item } from "@yoake/llm-worker";
import type { ModelPrices, PodEvent } from "@yoake/pod";
import { fallbackLabel } from "../../fallback-label.js";
import { screenTextDeep } from "../../screen-text.js";
import { cardResultOf, displayUserText, entriesFromHistory } from "./history-entries.js";
import type { RestoredSubagents } from "./restored-subagents.js";
import { foldTurnUsage, restoredUsage, withLiveUsage } from "./session-usage.js";
import { nextSubagentState } from "./subagent-state.js";
import type { UiAction } from "./ui-action.js";
import type { Entry, NoticeTone, ToolCardState, UiState } from "./ui-state.js";

/**
 * The UI's one state transition: pure, so every event sequence can be tested without a terminal.
 * After each action the leading finished entries move from `live` to `committed`, where they are
 * printed once and never rendered again: the live area stays small however long the session.
 *
 * Every action's text is made screen text here (`screenText`), where it enters the state: what a
 * model, a tool, a file name or a saved session holds reaches the terminal as placeholders, never
 * as control sequences, on every path to the screen, and the layout measures what is drawn.
 */
export function uiReducer(state: UiState, action: UiAction): UiState {
  const next = reduce(state, screenTextDeep(action));
  return next === state ? state : commitFinished(next);
}

function reduce(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case "pod_event": {
      const next = onPodEvent(state, action.event, action.at, action.prices);
      return RESUMES_STREAM.has(action.event.type) ? withoutWait(next) : next;
    }
    case "busy": {
      const next = {
        ...state,
        busy: action.busy,
        // A paused run's clock goes on when it is answered; a run that ended starts the next anew.
        runStartedAt: action.busy
          ? (state.runStartedAt ?? action.at)
          : state.permission === undefined
            ? undefined
            : state.runStartedAt,
      };
      // A run that ended while a request waited to go again (cancelled) has nothing left to retry.
      return action.busy ? next : withoutWait(next);
    }
    case "submitted":
      return append({ ...state, awaitingOwnRunStart: true }, (id) => ({
        kind: "user",
        id,
        text: action.text,
        done: true,
      }));
    case "tool_results": {
      const byCall = new Map(action.results.map((result) => [result.callId, result]));
      return mapLive(state, (entry) => {
        if (entry.kind !== "tool" || entry.card.result !== undefined) return entry;
        const result = byCall.get(entry.card.callId);
        if (result === undefined) return entry;
        const phase = entry.card.phase === "denied" ? "denied" : "done";
        return { ...entry, done: true, card: { ...entry.card, phase, result: cardResultOf(result) } };
      });
    }
    case "settled":
      return onSettled(state, action.status, action.error);
    case "approval_abandoned":
      return notice(
        finishLive({ ...state, permission: undefined, runStartedAt: undefined, awaitingOwnRunStart: false }),
        "warn",
        "Cancelled: the call waiting for approval was not run. The session goes on.",
      );
    case "notice":
      return notice(state, action.tone, action.text);
    case "pod_gone":
      // What was streaming will not end: it is kept as it stands, and the Pod is no longer busy.
      return notice(
        finishLive({
          ...state,
          gone: action.text,
          busy: false,
          permission: undefined,
          runStartedAt: undefined,
        }),
        "error",
        action.text,
      );
    case "toggle_thinking":
      return { ...state, showThinking: !state.showThinking };
    case "queue_changed":
      return { ...state, queued: action.queued };
    case "session_cleared":
      return { ...state, usage: { total: {} } };
    case "usage_restored":
      return { ...state, usage: restoredUsage(action.usage, action.prices) };
    case "session_picker":
      return { ...state, sessionPicker: action.sessions };
    case "history_loaded": {
      return appendHistory(notice(state, "muted", action.title), action.items, action.subagents);
    }
  }
}

/** What a card keeps of a running tool's output: more than it shows, so lines stay whole. */
const PROGRESS_KEPT_CHARS = 4000;

function onPodEvent(state: UiState, event: PodEvent, at: number, prices?: ModelPrices): UiState {
  switch (event.type) {
    case "run_start": {
      // Whether the Pod is busy is the controller's to say (`busy`), not this event's.
      const started: UiState = { ...state, runSeq: state.runSeq + 1, turn: 0, awaitingOwnRunStart: false };
      // Another client's run: its input is shown as this client would have shown its own.
      if (state.awaitingOwnRunStart) return started;
      return append(started, (id) => ({ kind: "user", id, text: displayUserText(event.input), done: true }));
    }
    case "turn_start":
      return { ...state, turn: event.turn, providerWaitSince: at };
    case "text_delta":
      return appendBlockText(state, "assistant", event.index, event.text);
    case "text_complete":
      return completeBlock(state, "assistant", event.index, event.text);
    case "thinking_delta":
      return appendBlockText(state, "thinking", event.index, event.text);
    case "thinking_complete":
      return completeBlock(state, "thinking", event.index, event.text);
    case "tool_call_start":
      return {
        ...state,
        live: [
          ...state.live,
          {
            kind: "tool",
            id: `${state.runSeq}.${event.callId}`,
            done: false,
            card: { callId: event.callId, name: event.name, argumentsText: "", phase: "streaming" },
          },
        ],
      };
    case "tool_call_delta":
      return updateCard(state, event.callId, (card) => ({
        ...card,
        argumentsText: card.argumentsText + event.json,
      }));
    case "tool_call_complete": {
      const { call } = event;
      const complete = (card: ToolCardState): ToolCardState => ({
        ...card,
        argumentsText: call.argumentsText,
        arguments: call.parseError === undefined ? call.arguments : undefined,
        phase: "ready",
      });
      if (findCard(state, call.id) !== undefined) return updateCard(state, call.id, complete);
      // A provider that sends a call whole, without a start: its card appears complete.
      const card = complete({ callId: call.id, name: call.name, argumentsText: "", phase: "ready" });
      return {
        ...state,
        live: [...state.live, { kind: "tool", id: `${state.runSeq}.${call.id}`, done: false, card }],
      };
    }
    case "tool_start":
      return updateCard(state, event.call.id, (card) => ({ ...card, phase: "running", startedAt: at }));
    case "tool_progress":
      return updateCard(state, event.callId, (card) => ({
        ...card,
        progress: ((card.progress ?? "") + event.text).slice(-PROGRESS_KEPT_CHARS),
      }));
    case "tool_end":
      return updateCard(
        state,
        event.call.id,
        (card) => ({
          ...card,
          phase: "done",
          durationMs: event.durationMs,
          result: cardResultOf(event.result),
        }),
        true,
      );
    case "subagent":
      return updateCard(state, event.callId, (card) => ({
        ...card,
        subagent: nextSubagentState(card.subagent, event),
      }));
    case "usage":
      return { ...state, usage: withLiveUsage(state.usage, event.usage) };
    case "turn_end": {
      const ended = { ...state, usage: foldTurnUsage(state.usage, event.response.usage, prices) };
      // A response cut short leaves blocks that will never complete; calls never sent in full never run.
      if (event.response.status === "completed") return ended;
      return mapLive(ended, (entry) => {
        if (entry.done) return entry;
        if (entry.kind !== "tool") return { ...entry, done: true };
        return entry.card.phase === "streaming"
          ? { ...entry, done: true, card: { ...entry.card, phase: "not_run" } }
          : entry;
      });
    }
    case "error":
      // The run's end reports the failure, with the Worker's message (see `run_end`).
      return state;
    case "retry":
      // In the status bar, not the transcript: it is over once the stream resumes.
      return {
        ...state,
        retry: {
          attempt: event.attempt,
          maxAttempts: event.maxAttempts,
          sendsAt: at + event.delayMs,
          reason: event.error.message,
        },
      };
    case "fallback":
      return notice(state, "warn", capitalized(fallbackLabel(event)));
    case "run_end": {
      const { result } = event;
      // The Pod may still be finishing the run (writing its log): the controller's `busy` says when
      // it is free, so a command typed once "ready" shows is never refused.
      if (result.status === "paused") return state;
      const ended = finishLive(state);
      if (result.status === "finished") return ended;
      if (result.status === "failed") return notice(ended, "error", `Failed: ${result.error.message}`);
      const cause = result.by === "signal" ? "" : ` by ${result.by}: ${result.reason}`;
      return notice(ended, "warn", `Cancelled${cause}. The session goes on.`);
    }
    case "alert":
      return append(state, (id) => ({
        kind: "alert",
        id,
        level: event.level,
        message: event.message,
        source: event.source,
        done: true,
      }));
    case "permission_request": {
      const { type: _type, ...request } = event;
      const waiting = { ...state, permission: request };
      return updateCard(waiting, request.callId, (card) => ({ ...card, phase: "awaiting_approval" }));
    }
    case "permission_resolved": {
      const cleared: UiState = {
        ...state,
        permission: state.permission?.id === event.id ? undefined : state.permission,
      };
      const { decision } = event;
      if (decision === "abandoned")
        return updateCard(cleared, event.callId, (card) => ({ ...card, phase: "not_run" }), true);
      if (typeof decision === "object")
        return updateCard(
          cleared,
          event.callId,
          (card) => ({ ...card, phase: "denied", deniedReason: decision.deny }),
          true,
        );
      return updateCard(cleared, event.callId, (card) => ({ ...card, phase: "ready" }));
    }
    case "history_changed":
      // A compaction replaced history: what is on screen stays (the Pod's alert says what happened).
      return event.reason === "notify" ? appendHistory(state, event.added) : state;
    default:
      // An event this client does not know yet (a newer Pod) changes nothing on screen.
      return state;
  }
}

/**
 * Events that mean the provider answered (or another model took over): the wait for it, and any
 * retry, is over.
 */
const RESUMES_STREAM: ReadonlySet<PodEvent["type"]> = new Set([
  "text_delta",
  "thinking_delta",
  "tool_call_start",
  "tool_call_complete",
  "usage",
  "turn_end",
  "run_end",
  "fallback",
]);

/** The provider answered (or the run is over): neither a retry nor a wait is left to show. */
function withoutWait(state: UiState): UiState {
  if (state.retry === undefined && state.providerWaitSince === undefined) return state;
  const { retry: _retry, providerWaitSince: _since, ...rest } = state;
  return rest;
}

/** Items that entered history outside a run (notes), shown as they would be on resume. */
function appendHistory(state: UiState, items: readonly Item[], subagents?: RestoredSubagents): UiState {
  const entries = entriesFromHistory(items, `h${state.nextId}.`, subagents);
  return { ...state, nextId: state.nextId + 1, live: [...state.live, ...entries] };
}

function onSettled(state: UiState, status: string | undefined, error: string | undefined): UiState {
  let settled: UiState = { ...state, awaitingOwnRunStart: false };
  if (error !== undefined) settled = notice(settled, "error", error);
  if (status === "paused") {
    if (settled.permission !== undefined) return settled;
    return notice(settled, "info", "The run paused. Send a message to go on.");
  }
  // A run that threw, or whose end was not seen, still ends here: nothing stays half shown.
  return finishLive({ ...settled, permission: undefined });
}

/** Every live entry final; calls that never ran say so. */
function finishLive(state: UiState): UiState {
  return mapLive(state, (entry) => {
    if (entry.done) return entry;
    if (entry.kind !== "tool") return { ...entry, done: true };
    return { ...entry, done: true, card: { ...entry.card, phase: "not_run" } };
  });
}

function commitFinished(state: UiState): UiState {
  let finished = 0;
  while (finished < state.live.length && state.live[finished]?.done) finished++;
  if (finished === 0) return state;
  return {
    ...state,
    committed: [...state.committed, ...state.live.slice(0, finished)],
    live: state.live.slice(finished),
  };
}

function append(state: UiState, make: (id: string) => Entry): UiState {
  return { ...state, nextId: state.nextId + 1, live: [...state.live, make(`n${state.nextId}`)] };
}

function notice(state: UiState, tone: NoticeTone, text: string): UiState {
  return append(state, (id) => ({ kind: "notice", id, tone, text, done: true }));
}

function mapLive(state: UiState, change: (entry: Entry) => Entry): UiState {
  let changed = false;
  const live = state.live.map((entry) => {
    const next = change(entry);
    if (next !== entry) changed = true;
    return next;
  });
  return changed ? { ...state, live } : state;
}

/** Text and thinking blocks are keyed by run, turn and block index: indices restart each response. */
function blockId(state: UiState, index: number): string {
  return `${state.runSeq}.${state.turn}.${index}`;
}

function appendBlockText(
  state: UiState,
  kind: "assistant" | "thinking",
  index: number,
  text: string,
): UiState {
  const id = blockId(state, index);
  const at = lastIndexOfId(state.live, id);
  if (at === -1) return { ...state, live: [...state.live, { kind, id, text, done: false }] };
  const entry = state.live[at] as Entry & { kind: "assistant" | "thinking" };
  return replaceLive(state, at, { ...entry, text: entry.text + text });
}

function completeBlock(state: UiState, kind: "assistant" | "thinking", index: number, text: string): UiState {
  const id = blockId(state, index);
  const at = lastIndexOfId(state.live, id);
  // An empty block that never streamed (a provider's empty text part) is not worth a line.
  if (at === -1)
    return text === "" ? state : { ...state, live: [...state.live, { kind, id, text, done: true }] };
  return replaceLive(state, at, { kind, id, text, done: true });
}

function lastIndexOfId(live: readonly Entry[], id: string): number {
  for (let i = live.length - 1; i >= 0; i--) if (live[i]?.id === id) return i;
  return -1;
}

/** The live card of a call: the latest one, since a provider may reuse call ids across runs. */
function findCard(state: UiState, callId: string): number | undefined {
  for (let i = state.live.length - 1; i >= 0; i--) {
    const entry = state.live[i];
    if (entry?.kind === "tool" && entry.card.callId === callId) return i;
  }
  return undefined;
}

function updateCard(
  state: UiState,
  callId: string,
  change: (card: ToolCardState) => ToolCardState,
  done = false,
): UiState {
  const at = findCard(state, callId);
  if (at === undefined) return state;
  const entry = state.live[at] as Entry & { kind: "tool" };
  return replaceLive(state, at, { ...entry, card: change(entry.card), done: done || entry.done });
}

function replaceLive(state: UiState, at: number, entry: Entry): UiState {
  const live = state.live.slice();
  live[at] = entry;
  return { ...state, live };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
