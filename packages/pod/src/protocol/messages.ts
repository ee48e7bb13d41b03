/**
 * The client protocol's messages: one JSON object per line, each way.
 *
 * - client → Pod, a request: `{ "id": 1, "method": "run", "params": { ... } }`;
 * - Pod → client, the response to it: `{ "id": 1, "result": { ... } }` or
 *   `{ "id": 1, "error": { "code": "run_in_progress", "message": "..." } }` (`id` is null when the
 *   line was not a request at all);
 * - Pod → every client, an event: `{ "event": "text_delta", "index": 0, "text": "Hel" }`.
 *
 * Every message has a zod schema here; the types are written out beside them (and pinned to the
 * schemas) so that they read as documentation.
 */
import type { Item, SchemeName, StopReason, Usage } from "@yoake/llm-worker";
import { z } from "zod";
import type { DiffPreview, PermissionDecision, PermissionRequest } from "../approval/permission.js";
import type { CompactionResult } from "../compaction/compaction-result.js";
import type { Segment } from "../file-ref/segments.js";
import { type Plan, planSchema } from "../plan/plan.js";
import type { PodStatus } from "../pod/status.js";
import { itemSchema, schemeSchema } from "../session-log/item-schema.js";
import type { SubagentActivity } from "../subagents/task-tool.js";

/** Sent by the client in `hello`; a Pod refuses a client speaking another version. */
export const PROTOCOL_VERSION = 1;

// ---------------------------------------------------------------------------------------------
// Shared pieces

export const segmentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("file_ref"), path: z.string().min(1) }),
]) satisfies z.ZodType<Segment>;

export const permissionDecisionSchema = z.union([
  z.literal("allow_once"),
  z.literal("allow_session"),
  z.object({ deny: z.string() }),
]) satisfies z.ZodType<PermissionDecision>;

export const usageSchema = z.object({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  totalTokens: z.number().optional(),
  cacheReadInputTokens: z.number().optional(),
  cacheCreationInputTokens: z.number().optional(),
  reasoningTokens: z.number().optional(),
}) satisfies z.ZodType<Usage>;

const diffPreviewSchema = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    path: z.string(),
    diff: z.string(),
    truncated: z.boolean(),
    newFile: z.boolean(),
  }),
  z.object({ ok: z.literal(false), path: z.string().optional(), message: z.string() }),
]) satisfies z.ZodType<DiffPreview>;

const permissionRequestShape = {
  id: z.string(),
  callId: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
  preview: diffPreviewSchema.optional(),
  command: z
    .object({
      command: z.string(),
      sandboxed: z.boolean(),
      reason: z.string(),
      sessionAllows: z.object({ kind: z.enum(["prefix", "exact"]), text: z.string() }),
    })
    .optional(),
};
const permissionRequestSchema = z.object(permissionRequestShape) satisfies z.ZodType<PermissionRequest>;

export const podStatusSchema = z.object({
  state: z.enum(["idle", "running", "paused"]),
  projectRoot: z.string(),
  sessionId: z.string().optional(),
  model: z.object({
    ref: z.string().optional(),
    scheme: schemeSchema,
    id: z.string(),
    contextWindow: z.number().optional(),
  }),
  usage: usageSchema,
  pendingPermission: permissionRequestSchema.optional(),
  queuedNotes: z.number().int(),
}) satisfies z.ZodType<PodStatus>;

/** `status` as the protocol reports it: the Pod's own, and how many clients are connected. */
export type WireStatus = PodStatus & { clients: number };
const wireStatusSchema = podStatusSchema.extend({
  clients: z.number().int(),
}) satisfies z.ZodType<WireStatus>;

// ---------------------------------------------------------------------------------------------
// Requests (client → Pod)

/** A request id, chosen by the client and echoed in the response. */
export type RequestId = string | number;
export const requestIdSchema = z.union([z.string(), z.number()]);

/**
 * The params of each method. Methods without params may omit `params`. `run`, `respond` and
 * `resume` answer as soon as the run has started, with the number the Pod gave it (`run`); how it
 * ends comes as the `run_end` event carrying that number, to every client.
 */
export const methodParamsSchemas = {
  /** Must be the first request: exchanges protocol versions. */
  hello: z.object({ protocolVersion: z.number().int(), client: z.string().optional() }),
  /** Starts a run with the user's input (file references resolved by the Pod). */
  run: z.object({ segments: z.array(segmentSchema).min(1) }),
  /** Stops the run going now. */
  cancel: z.object({}),
  /** Continues a run a hook paused (not one waiting for approval: that is `respond`). */
  resume: z.object({}),
  /** Answers the pending permission request and continues the run. */
  respond: z.object({ permissionId: z.string(), decision: permissionDecisionSchema }),
  /** Adds a message to history without starting a turn. */
  notify: z.object({ text: z.string().min(1), role: z.enum(["user", "system"]).optional() }),
  history: z.object({}),
  status: z.object({}),
  /** Summarizes the session into a new one now (when the Pod supports compaction). */
  compact: z.object({}),
  /** Ends any run, tells every client (`shutdown` event), closes the socket. */
  shutdown: z.object({ reason: z.string().optional() }),
} as const;

export type MethodName = keyof typeof methodParamsSchemas;
export const METHOD_NAMES = Object.keys(methodParamsSchemas) as MethodName[];
export type ParamsOf<M extends MethodName> = z.input<(typeof methodParamsSchemas)[M]>;

/** The envelope every request shares; `params` is checked against its method's schema. */
export const requestEnvelopeSchema = z.object({
  id: requestIdSchema,
  method: z.string(),
  params: z.unknown().optional(),
});

/** Every request, method by method (for documentation and tests; the server parses in two steps). */
export const clientRequestSchema = z.union(
  METHOD_NAMES.map((method) =>
    z.object({
      id: requestIdSchema,
      method: z.literal(method),
      params: methodParamsSchemas[method].optional(),
    }),
  ),
);
export type ClientRequest = {
  [M in MethodName]: { id: RequestId; method: M; params?: ParamsOf<M> };
}[MethodName];

// ---------------------------------------------------------------------------------------------
// Responses (Pod → the client that asked)

/**
 * A run (or its continuation) started by a request. `run` numbers the runs of this Pod's server
 * from 1; the `run_end` that ends it carries the same number, so a client tells its own run's end
 * from another client's that was still on its way.
 */
export interface StartedRun {
  started: true;
  run: number;
}
const startedRunSchema = z.object({ started: z.literal(true), run: z.number().int() });

/** What each method answers. */
export interface MethodResults {
  hello: { protocolVersion: number; projectRoot: string; status: WireStatus };
  run: StartedRun;
  cancel: { cancelled: boolean };
  resume: StartedRun;
  respond: StartedRun;
  notify: { note: "added" | "queued" };
  history: { items: Item[] };
  status: WireStatus;
  compact: { compacted: true } & CompactionResult;
  shutdown: { shuttingDown: true };
}
export type ResultOf<M extends MethodName> = MethodResults[M];

export const methodResultSchemas = {
  hello: z.object({ protocolVersion: z.number().int(), projectRoot: z.string(), status: wireStatusSchema }),
  run: startedRunSchema,
  cancel: z.object({ cancelled: z.boolean() }),
  resume: startedRunSchema,
  respond: startedRunSchema,
  notify: z.object({ note: z.enum(["added", "queued"]) }),
  history: z.object({ items: z.array(itemSchema) }),
  status: wireStatusSchema,
  compact: z.object({
    compacted: z.literal(true),
    auto: z.boolean(),
    sessionId: z.string(),
    previousSessionId: z.string(),
    summary: z.string(),
    rereadFiles: z.array(z.string()),
    itemsBefore: z.number().int(),
    itemsAfter: z.number().int(),
    usage: usageSchema.optional(),
  }),
  shutdown: z.object({ shuttingDown: z.literal(true) }),
} satisfies { [M in MethodName]: z.ZodType<MethodResults[M]> };

/** Why a request was refused. */
export const ERROR_CODES = [
  /** The line is not JSON. */
  "parse_error",
  /** JSON, but not `{ id, method, params? }`, or longer than the Pod accepts. */
  "invalid_request",
  "unknown_method",
  /** The params do not match the method's schema; the message names the field. */
  "invalid_params",
  /** A request other than `hello` came first. */
  "hello_required",
  /** The client speaks another protocol version; the Pod closes the connection after saying so. */
  "version_mismatch",
  /** `run`, `respond`, `resume` or `compact` while a run is going. */
  "run_in_progress",
  /** `resume` with nothing paused, or a run waiting for approval (answer it with `respond`). */
  "not_paused",
  /** `respond` with an id that is not the pending permission request. */
  "unknown_permission",
  /** The Pod has no such capability (e.g. `compact` before compaction exists). */
  "not_supported",
  "shutting_down",
  /** The Pod failed to do what was asked; the message says why. */
  "failed",
] as const;
export type ProtocolErrorCode = (typeof ERROR_CODES)[number];

export interface ProtocolErrorBody {
  code: ProtocolErrorCode;
  message: string;
}

export type ProtocolResponse =
  | { id: RequestId; result: MethodResults[MethodName] }
  | { id: RequestId | null; error: ProtocolErrorBody };

export const resultResponseSchema = z.object({
  id: requestIdSchema,
  // `unknown` accepts a missing key; a response without a result is not one.
  result: z.unknown().refine((value): boolean => value !== undefined, { error: "result is required" }),
});
export const errorResponseSchema = z.object({
  id: requestIdSchema.nullable(),
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }),
});

// ---------------------------------------------------------------------------------------------
// Events (Pod → every client)

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
  z.object({ event: z.literal("shutdown"), reason: z.string() }),
]) satisfies z.ZodType<WireEvent>;

/** Anything a Pod writes to a client: a response or an event. */
export const serverMessageSchema = z.union([resultResponseSchema, errorResponseSchema, wireEventSchema]);
export type ServerMessage = ProtocolResponse | WireEvent;
