/**
 * The client protocol's messages: one JSON object per line, each way.
 *
 * - client → Pod, a request: `{ "id": 1, "method": "run", "params": { ... } }`;
 * - Pod → client, the response to it: `{ "id": 1, "result": { ... } }` or
 *   `{ "id": 1, "error": { "code": "run_in_progress", "message": "..." } }` (`id` is null when the
 *   line was not a request at all);
 * - Pod → every client, an event: `{ "event": "text_delta", "index": 0, "text": "Hel" }` (their
 *   schemas are in `wire-events.ts`).
 *
 * Every message has a zod schema here; the types are written out beside them (and pinned to the
 * schemas) so that they read as documentation.
 */
import type { Item, Usage } from "@yoake/llm-worker";
import { z } from "zod";
import type { DiffPreview, PermissionDecision, PermissionRequest } from "../approval/permission.js";
import type { CompactionResult } from "../compaction/compaction-result.js";
import { IMAGE_LIMIT_BYTES, IMAGE_SNIFF_BYTES, sniffImageType } from "../file-ref/image-file.js";
import type { Segment } from "../file-ref/segments.js";
import type { PodStatus } from "../pod/status.js";
import { itemSchema, schemeSchema } from "../session-log/item-schema.js";

/** Sent by the client in `hello`; a Pod refuses a client speaking another version. */
export const PROTOCOL_VERSION = 1;

// ---------------------------------------------------------------------------------------------
// Shared pieces

export const segmentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("file_ref"), path: z.string().min(1) }),
]) satisfies z.ZodType<Segment>;

/** Images a run may carry (a client's pasted screenshots). */
export const MAX_RUN_IMAGES = 8;

/**
 * An image a client attaches to a run, inline: base64 of at most `IMAGE_LIMIT_BYTES`, whose bytes
 * are the type it names (a client's word is not taken for it, as a file's name is not).
 */
export const runImageSchema = z
  .object({
    type: z.literal("image"),
    mediaType: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]),
    data: z
      .string()
      .max(
        Math.ceil(IMAGE_LIMIT_BYTES / 3) * 4,
        `over the ${IMAGE_LIMIT_BYTES / (1024 * 1024)} MiB limit for images`,
      )
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "not base64"),
  })
  .refine(
    (image) =>
      sniffImageType(Buffer.from(image.data.slice(0, Math.ceil(IMAGE_SNIFF_BYTES / 3) * 4), "base64")) ===
      image.mediaType,
    { message: "the data is not an image of its mediaType", path: ["data"] },
  );

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

export const permissionRequestShape = {
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
export const permissionRequestSchema = z.object(
  permissionRequestShape,
) satisfies z.ZodType<PermissionRequest>;

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

/**
 * `status` as the protocol reports it: the Pod's own, how many clients are connected, and how many
 * of them can answer a permission request (they said so in `hello`).
 */
export type WireStatus = PodStatus & { clients: number; approvers: number };
export const wireStatusSchema = podStatusSchema.extend({
  clients: z.number().int(),
  approvers: z.number().int(),
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
  /**
   * Must be the first request: exchanges protocol versions. `client` names the client to the
   * others (a run it cancels ends `by` that name); `answersApprovals`: the client puts permission
   * requests to a person (a terminal UI, an editor), so a run waiting for approval can be
   * answered while it is connected (a script that waits for an answer checks `approvers`).
   */
  hello: z.object({
    protocolVersion: z.number().int(),
    client: z.string().optional(),
    answersApprovals: z.boolean().optional(),
  }),
  /** Starts a run with the user's input (file references resolved by the Pod) and attached images. */
  run: z.object({
    segments: z.array(segmentSchema).min(1),
    images: z.array(runImageSchema).max(MAX_RUN_IMAGES).optional(),
  }),
  /** Stops the run going now; one another client started ends `by` this client's name. */
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
  /** `warnings`: what the Pod warned about when it started (no sandbox, a model not in the catalogue). */
  hello: { protocolVersion: number; projectRoot: string; status: WireStatus; warnings: string[] };
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
  hello: z.object({
    protocolVersion: z.number().int(),
    projectRoot: z.string(),
    status: wireStatusSchema,
    warnings: z.array(z.string()),
  }),
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
  /** The Pod serves as many connections as it takes (`maxConnections`); this one is closed. */
  "too_many_connections",
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
