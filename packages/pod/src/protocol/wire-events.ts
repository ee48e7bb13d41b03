/**
 * The protocol's events: what a Pod writes to every client, one JSON object per line
 * (`{ "event": "text_delta", "index": 0, "text": "Hel" }`), and the union of everything a Pod writes.
 * Requests and responses are in `messages.ts`; the same rule holds here: a zod schema per message,
 * the type written out beside it.
 */
import type { Item, SchemeName, StopReason, Usage } from "@yoake/llm-worker";
import { z } from "zod";
import type { PermissionDecision, PermissionRequest } from "../approval/permission.js";
import { type Plan, planSchema } from "../plan/plan.js";
import { itemSchema, schemeSchema } from "../session-log/item-schema.js";
import type { SubagentActivity } from "../subagents/task-tool.js";
import {
  errorResponseSchema,
  type ProtocolResponse,
  permissionDecisionSchema,
  permissionRequestShape,
  resultResponseSchema,
  usageSchema,
} from "./messages.js";

/** A failure as the wire carries it: `kind` is the provider error kind (`rate_limit`, ...) or `pod`. */
export interface WireError {
  kind: string;
  message: string;
  code?: string;
  status?: number;
}
const wireErrorSchema = z.object({
  kind: z.string(),
  message: z.string(),
  code: z.string().optional(),
  status: z.number().optional(),
}) satisfies z.ZodType<WireError>;

/** A model of a chain: its scheme and model name. */
export interface WireModelRef {
  scheme: SchemeName;
  model: string;
}
const modelRefSchema = z.object({
  scheme: schemeSchema,
  model: z.string(),
}) satisfies z.ZodType<WireModelRef>;

/** How a run (or its continuation after `respond` / `resume`) ended. */
export type WireRunResult =
  | { status: "finished"; text: string; usage: Usage; turns: number }
  | {
      status: "paused";
      reason: string;
      by: string;
      pendingToolCalls: { callId: string; name: string }[];
      usage: Usage;
      turns: number;
    }
  | { status: "cancelled"; reason: string; by: string; usage: Usage; turns: number }
  | {
      status: "failed";
      error: { kind: "llm" | "hook" | "max_turns" | "invalid_output" | "pod"; message: string };
      usage: Usage;
      turns: number;
    };

const runTotals = { usage: usageSchema, turns: z.number().int() };
const wireRunResultSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("finished"), text: z.string(), ...runTotals }),
  z.object({
    status: z.literal("paused"),
    reason: z.string(),
    by: z.string(),
    pendingToolCalls: z.array(z.object({ callId: z.string(), name: z.string() })),
    ...runTotals,
  }),
  z.object({ status: z.literal("cancelled"), reason: z.string(), by: z.string(), ...runTotals }),
  z.object({
    status: z.literal("failed"),
    error: z.object({
      kind: z.enum(["llm", "hook", "max_turns", "invalid_output", "pod"]),
      message: z.string(),
    }),
    ...runTotals,
  }),
]) satisfies z.ZodType<WireRunResult>;

/**
 * Every event a Pod broadcasts, in the order it happens. Deltas are what streamed; the
 * `*_complete` text events of the Worker are not sent (a client joins the deltas).
 */
export type WireEvent =
  /** A run started; `input` is the user message as the model reads it. */
  | { event: "run_start"; input: string }
  /** One request to the model (a run makes one per round of tool calls). */
  | { event: "turn_start"; turn: number }
  | { event: "text_delta"; index: number; text: string }
  | { event: "thinking_delta"; index: number; text: string }
  /** The model started writing a tool call; its arguments follow as `tool_call_delta` JSON pieces. */
  | { event: "tool_call_start"; index: number; callId: string; name: string }
  | { event: "tool_call_delta"; index: number; callId: string; json: string }
  /** The call is complete: its parsed arguments (or why they are not JSON). */
  | { event: "tool_call_done"; callId: string; name: string; arguments: unknown; parseError?: string }
  /** The tool runs now. */
  | { event: "tool_start"; callId: string; name: string }
  /** Output of the running tool as it arrives (a `bash` command's), before its `tool_result`. */
  | { event: "tool_progress"; callId: string; name: string; text: string }
  /** What the tool returned: `content` is what the model reads while fresh, `summary` what stays. */
  | {
      event: "tool_result";
      callId: string;
      name: string;
      isError: boolean;
      summary: string;
      content?: string;
      durationMs: number;
    }
  | {
      event: "turn_end";
      turn: number;
      status: "completed" | "failed" | "cancelled";
      stopReason: StopReason;
      usage?: Usage;
    }
  /** The usage of the response streaming now (cumulative within it). */
  | { event: "usage"; usage: Usage }
  | { event: "error"; error: WireError }
  /**
   * The request failed before any of its response arrived and is sent again after `delayMs`:
   * attempt `attempt` of at most `maxAttempts`; `error.status` when the provider answered one.
   */
  | { event: "retry"; turn: number; attempt: number; maxAttempts: number; delayMs: number; error: WireError }
  /**
   * The model chain (`[model] fallback`) moved to `to`: `from` failed with `error`, which retrying
   * would not fix soon, or (`primary_probe`) the first model is tried again after its cool-down.
   * `coldCacheTokens` estimates the prompt `to` reads without a cache.
   */
  | {
      event: "fallback";
      turn: number;
      from: WireModelRef;
      to: WireModelRef;
      reason: "error" | "primary_probe";
      error?: WireError;
      coldCacheTokens: number;
    }
  | { event: "alert"; level: "info" | "warn" | "error"; message: string; source: string }
  /** A call waits for approval; any client answers with `respond`. */
  | ({ event: "permission_request" } & PermissionRequest)
  | {
      event: "permission_resolved";
      id: string;
      callId: string;
      tool: string;
      decision: PermissionDecision | "abandoned";
    }
  /** `run`: the number of the request that started it (see `StartedRun`). */
  | { event: "run_end"; result: WireRunResult; run?: number }
  /**
   * History changed outside a run's own steps (a note was added, the session was compacted): the
   * whole of it. A compaction also names the new session (`auto`: the Pod compacted on its own).
   */
  | { event: "history"; reason: "notify" | "compact"; items: Item[]; sessionId?: string; auto?: boolean }
  /** The model wrote its plan (`todo_write`): the whole plan as kept. */
  | { event: "plan"; plan: Plan }
  /** What the sub-agent of `task` call `callId` does: started, a tool call, ended. */
  | ({ event: "subagent"; callId: string; description: string } & SubagentActivity)
  /**
   * The number of connected clients that answer permission requests (`answersApprovals` in their
   * `hello`) changed: one came or went. Sent to the clients already there, not to the one whose
   * `hello` it answers (its status says). A client waiting for another to approve gives up at 0.
   */
  | { event: "approvers"; approvers: number }
  /** The Pod is shutting down; the connection closes next. */
  | { event: "shutdown"; reason: string };

export type WireEventName = WireEvent["event"];
export type WireEventOf<E extends WireEventName> = Extract<WireEvent, { event: E }>;

const SUBAGENT = { event: z.literal("subagent"), callId: z.string(), description: z.string() } as const;

export const wireEventSchema = z.discriminatedUnion("event", [
  z.object({ event: z.literal("run_start"), input: z.string() }),
  z.object({ event: z.literal("turn_start"), turn: z.number().int() }),
  z.object({ event: z.literal("text_delta"), index: z.number().int(), text: z.string() }),
  z.object({ event: z.literal("thinking_delta"), index: z.number().int(), text: z.string() }),
  z.object({
    event: z.literal("tool_call_start"),
    index: z.number().int(),
    callId: z.string(),
    name: z.string(),
  }),
  z.object({
    event: z.literal("tool_call_delta"),
    index: z.number().int(),
    callId: z.string(),
    json: z.string(),
  }),
  z.object({
    event: z.literal("tool_call_done"),
    callId: z.string(),
    name: z.string(),
    arguments: z.unknown(),
    parseError: z.string().optional(),
  }),
  z.object({ event: z.literal("tool_start"), callId: z.string(), name: z.string() }),
  z.object({ event: z.literal("tool_progress"), callId: z.string(), name: z.string(), text: z.string() }),
  z.object({
    event: z.literal("tool_result"),
    callId: z.string(),
    name: z.string(),
    isError: z.boolean(),
    summary: z.string(),
    content: z.string().optional(),
    durationMs: z.number(),
  }),
  z.object({
    event: z.literal("turn_end"),
    turn: z.number().int(),
    status: z.enum(["completed", "failed", "cancelled"]),
    stopReason: z.enum([
      "end_turn",
      "max_tokens",
      "stop_sequence",
      "tool_use",
      "pause_turn",
      "refusal",
      "error",
    ]),
    usage: usageSchema.optional(),
  }),
  z.object({ event: z.literal("usage"), usage: usageSchema }),
  z.object({ event: z.literal("error"), error: wireErrorSchema }),
  z.object({
    event: z.literal("retry"),
    turn: z.number().int(),
    attempt: z.number().int(),
    maxAttempts: z.number().int(),
    delayMs: z.number(),
    error: wireErrorSchema,
  }),
  z.object({
    event: z.literal("fallback"),
    turn: z.number().int(),
    from: modelRefSchema,
    to: modelRefSchema,
    reason: z.enum(["error", "primary_probe"]),
    error: wireErrorSchema.optional(),
    coldCacheTokens: z.number(),
  }),
  z.object({
    event: z.literal("alert"),
    level: z.enum(["info", "warn", "error"]),
    message: z.string(),
    source: z.string(),
  }),
  z.object({ event: z.literal("permission_request"), ...permissionRequestShape }),
  z.object({
    event: z.literal("permission_resolved"),
    id: z.string(),
    callId: z.string(),
    tool: z.string(),
    decision: z.union([permissionDecisionSchema, z.literal("abandoned")]),
  }),
  z.object({ event: z.literal("run_end"), result: wireRunResultSchema, run: z.number().int().optional() }),
  z.object({
    event: z.literal("history"),
    reason: z.enum(["notify", "compact"]),
    items: z.array(itemSchema),
    sessionId: z.string().optional(),
    auto: z.boolean().optional(),
  }),
  z.object({ event: z.literal("plan"), plan: planSchema }),
  z.discriminatedUnion("state", [
    z.object({ ...SUBAGENT, state: z.literal("started"), sessionId: z.string() }),
    z.object({ ...SUBAGENT, state: z.literal("tool"), tool: z.string(), toolCallId: z.string() }),
    z.object({ ...SUBAGENT, state: z.literal("tool_end"), toolCallId: z.string(), isError: z.boolean() }),
    z.object({
      ...SUBAGENT,
      state: z.literal("ended"),
      status: z.enum(["finished", "paused", "cancelled", "failed"]),
    }),
  ]),
  z.object({ event: z.literal("approvers"), approvers: z.number().int() }),
  z.object({ event: z.literal("shutdown"), reason: z.string() }),
]) satisfies z.ZodType<WireEvent>;

/** Anything a Pod writes to a client: a response or an event. */
export const serverMessageSchema = z.union([resultResponseSchema, errorResponseSchema, wireEventSchema]);
export type ServerMessage = ProtocolResponse | WireEvent;
