import type { Item } from "@yoake/llm-worker";
import { isBlobId } from "@yoake/llm-worker/internal";
import { z } from "zod";
import { EFFORT_LEVELS } from "../effort/effort.js";
import { planSchema } from "../plan/plan.js";
import { itemSchema, schemeSchema } from "./item-schema.js";

/**
 * The log format version written in every `session_start`. 2: every line carries `mac`, an
 * HMAC-SHA-256 keyed by the user's session key, and `prev` is the previous line's `mac`. Version 1
 * logs (a plain SHA-256 chain) are refused: accepting them would let a forger write version 1.
 */
export const SESSION_LOG_VERSION = 2;

const count = z.number().int().nonnegative();
const sessionIdSchema = z.string().min(1);

/**
 * A piece of submitted input: text, or an `@<path>` file reference. The same shape as the Pod's
 * `Segment` (src/file-ref/segments.ts), repeated here so the log does not depend on the resolver.
 */
export const segmentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("file_ref"), path: z.string() }),
]);
export type LoggedSegment = z.infer<typeof segmentSchema>;

const scopeRuleSchema = z.object({
  path: z.string(),
  access: z.enum(["read", "write"]),
  recursive: z.boolean(),
  source: z.string().optional(),
});

/**
 * The configuration a session started with. Loose: the Pod may add fields (generation settings,
 * tool settings); every field goes through `redactSecrets` before it is written.
 */
export const sessionConfigSchema = z.looseObject({
  model: z.looseObject({
    ref: z.string().optional(),
    scheme: schemeSchema,
    id: z.string(),
    baseURL: z.string().optional(),
    contextWindow: count.optional(),
    maxOutputTokens: count.optional(),
  }),
  /** The directory the Pod was started in. */
  cwd: z.string(),
  projectRoot: z.string(),
  scope: z.object({ root: z.string(), allow: z.array(scopeRuleSchema), deny: z.array(scopeRuleSchema) }),
  /** Where each manifest layer was looked for, and whether it existed. */
  manifestSources: z.array(
    z.object({
      kind: z.enum(["defaults", "user", "project", "overrides"]),
      source: z.string(),
      loaded: z.boolean(),
    }),
  ),
});
export type SessionConfig = z.infer<typeof sessionConfigSchema>;

/** The session this one continues (after a compaction): its id and the MAC of its last line. */
export const sessionLinkSchema = z.object({ sessionId: sessionIdSchema, lastHash: z.string() });
export type SessionLink = z.infer<typeof sessionLinkSchema>;

const usageSchema = z.object({
  inputTokens: count.optional(),
  outputTokens: count.optional(),
  totalTokens: count.optional(),
  cacheReadInputTokens: count.optional(),
  cacheCreationInputTokens: count.optional(),
  reasoningTokens: count.optional(),
});

/** Line 1 of every log, and only line 1. */
const sessionStartSchema = z.object({
  type: z.literal("session_start"),
  version: z.literal(SESSION_LOG_VERSION),
  sessionId: sessionIdSchema,
  config: sessionConfigSchema,
  /** Paths of the config that `redactSecrets` dropped, so a reader knows they existed. */
  redacted: z.array(z.string()),
  previous: sessionLinkSchema.optional(),
});

/** What the user submitted, as segments and as the flattened text the model got. */
const userInputSchema = z.object({
  type: z.literal("user_input"),
  segments: z.array(segmentSchema),
  text: z.string(),
});

/**
 * One history item, as the Worker stores it. A tool result carries its summary (and its content
 * while fresh); a stored output's content starts `[blob:<id>]`, and `blobIds` lists those ids so a
 * blob collector need not parse text.
 */
const itemEntrySchema = z.object({
  type: z.literal("item"),
  item: itemSchema,
  blobIds: z.array(z.string()).optional(),
});

/** The final usage of one model request (the normalized fields of a usage event). */
const usageEntrySchema = z.object({
  type: z.literal("usage"),
  usage: usageSchema,
  model: z.string().optional(),
});

const alertSchema = z.object({
  type: z.literal("alert"),
  level: z.enum(["info", "warn", "error"]),
  message: z.string(),
  source: z.string().optional(),
});

/** A run began (a submitted input, or a turn continued after a restore). */
const runStartSchema = z.object({ type: z.literal("run_start") });

/** The run paused (an approval, a hook); `pendingCallIds` are the calls waiting on it. */
const pausedSchema = z.object({
  type: z.literal("paused"),
  reason: z.string(),
  by: z.string().optional(),
  pendingCallIds: z.array(z.string()),
});

const resumedSchema = z.object({ type: z.literal("resumed") });

const cancelledSchema = z.object({
  type: z.literal("cancelled"),
  reason: z.string(),
  by: z.string().optional(),
});

/** The run ended without a pause or a cancel. */
const runEndSchema = z.object({
  type: z.literal("run_end"),
  status: z.enum(["finished", "failed"]),
  message: z.string().optional(),
});

/**
 * A compaction boundary, written twice: as the last entry of the old session and right after the
 * `session_start` of the new one. In the new session the history restarts from `summary`.
 */
const compactionSchema = z.object({
  type: z.literal("compaction"),
  summary: z.string(),
  /** The new session, which continues from the summary. */
  sessionId: sessionIdSchema,
  /** The session that was compacted. */
  previousSessionId: sessionIdSchema,
});

/** Tool results whose content prune dropped from requests; kept so the same prefix is sent after a restore. */
const prunedSchema = z.object({
  type: z.literal("pruned"),
  callIds: z.array(z.string()),
});

/** The model wrote its plan (`todo_write`), or a compaction carried it into this session: the latest is the plan. */
const planEntrySchema = z.object({
  type: z.literal("plan"),
  plan: planSchema,
});

/**
 * The session went on with another effort level than the one in force (`/effort`, `--effort` on
 * `--continue`); without `level`, the model's default. The level in force is `session_start`'s
 * `config.generation.effort`, then the latest of these.
 */
const effortEntrySchema = z.object({
  type: z.literal("effort"),
  level: z.enum(EFFORT_LEVELS).optional(),
});

/** Every entry, without the `seq` / `ts` / `prev` header the log adds. */
export const entryBodySchema = z.discriminatedUnion("type", [
  sessionStartSchema,
  userInputSchema,
  itemEntrySchema,
  usageEntrySchema,
  alertSchema,
  runStartSchema,
  pausedSchema,
  resumedSchema,
  cancelledSchema,
  runEndSchema,
  compactionSchema,
  prunedSchema,
  planEntrySchema,
  effortEntrySchema,
]);

/** What `SessionLog.append` takes: any entry but `session_start`, which only `create` writes. */
export type EntryBody = z.infer<typeof entryBodySchema>;
export type EntryType = EntryBody["type"];
export type AppendableEntry = Exclude<EntryBody, { type: "session_start" }>;

/**
 * The fields of every line: its 1-based position, when it was written, the MAC of the line before,
 * and its own MAC (written last on the line; see `sealLine`).
 */
export const entryHeaderSchema = z.object({
  /** Equal to the line number: a gap or a repeat means a line was deleted, inserted or moved. */
  seq: z.number().int().positive(),
  /** ISO 8601, UTC, milliseconds. */
  ts: z.string(),
  /** The previous line's `mac`; for line 1, `ZERO_HASH` or the previous session's last MAC. */
  prev: z.string(),
  /** HMAC-SHA-256 (hex), keyed by the user's session key, of this line without this field. */
  mac: z.string(),
});
export type EntryHeader = z.infer<typeof entryHeaderSchema>;

/** One line of a session log, as read back. */
export type LogEntry = EntryHeader & EntryBody;
/** The entry of one type, e.g. `EntryOf<"compaction">`. */
export type EntryOf<T extends EntryType> = EntryHeader & Extract<EntryBody, { type: T }>;

const BLOB_PREFIX = "[blob:";

/**
 * The `item` entry for a history item, with the blob ids its tool result points to (a stored
 * output's content and summary both start `[blob:<id>]`).
 */
export function itemEntry(item: Item): Extract<AppendableEntry, { type: "item" }> {
  if (item.type !== "tool_result") return { type: "item", item };
  const id = blobIdOf(item.content) ?? blobIdOf(item.summary);
  return id === undefined || !isBlobId(id) ? { type: "item", item } : { type: "item", item, blobIds: [id] };
}

function blobIdOf(text: string | undefined): string | undefined {
  if (text === undefined || !text.startsWith(BLOB_PREFIX)) return undefined;
  const end = text.indexOf("]", BLOB_PREFIX.length);
  return end === -1 ? undefined : text.slice(BLOB_PREFIX.length, end);
}
