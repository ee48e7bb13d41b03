import type { Item, SchemeName } from "@yoake/llm-worker";
import { z } from "zod";

/** A record, so that a scheme added to llm-worker and missing here fails to compile. */
const SCHEMES: Readonly<Record<SchemeName, true>> = {
  anthropic: true,
  "openai-chat": true,
  "openai-responses": true,
  gemini: true,
  ollama: true,
};
/** A provider scheme name, as `SchemeName`. */
export const schemeSchema = z.enum(Object.keys(SCHEMES) as [SchemeName, ...SchemeName[]]);

const imageMediaTypeSchema = z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * An image part, stored inline (base64) like the rest of the item: the Pod caps attached images
 * (see `IMAGE_LIMIT_BYTES`), so a line stays bounded, and the log alone restores the session.
 */
const imageSchema = z.union([
  z.object({ type: z.literal("image"), mediaType: imageMediaTypeSchema, data: z.string() }),
  z.object({ type: z.literal("image"), url: z.string(), mediaType: imageMediaTypeSchema.optional() }),
]);

const messageSchema = z.object({
  type: z.literal("message"),
  role: z.enum(["user", "assistant", "system"]),
  text: z.string(),
  signature: z.string().optional(),
  itemId: z.string().optional(),
  citations: z.array(z.unknown()).optional(),
  images: z.array(imageSchema).optional(),
  origin: schemeSchema.optional(),
});

const reasoningSchema = z.object({
  type: z.literal("reasoning"),
  text: z.string(),
  signature: z.string().optional(),
  itemId: z.string().optional(),
  summary: z.array(z.string()).optional(),
  encryptedContent: z.string().nullable().optional(),
  origin: schemeSchema.optional(),
});

const redactedReasoningSchema = z.object({
  type: z.literal("redacted_reasoning"),
  data: z.string(),
  origin: schemeSchema.optional(),
});

const toolCallSchema = z.object({
  type: z.literal("tool_call"),
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  signature: z.string().optional(),
  itemId: z.string().optional(),
  synthesizedId: z.literal(true).optional(),
  origin: schemeSchema.optional(),
});

const toolResultSchema = z.object({
  type: z.literal("tool_result"),
  callId: z.string(),
  name: z.string(),
  summary: z.string(),
  content: z.string().optional(),
  images: z.array(imageSchema).optional(),
  isError: z.boolean().optional(),
});

const serverToolSchema = z.object({
  type: z.literal("server_tool"),
  role: z.enum(["call", "result"]),
  id: z.string(),
  name: z.string(),
  arguments: z.string().optional(),
  // `unknown` accepts a missing key; the payload is required in an Item, so say so.
  payload: z.unknown().refine((value): boolean => value !== undefined, { error: "payload is required" }),
  origin: schemeSchema,
});

/**
 * A history `Item` as the session log stores it: every field of `@yoake/llm-worker`'s `Item`, and
 * nothing else (unknown keys are dropped when read). The `satisfies` pins it to the library's type,
 * so a field added there and forgotten here fails to compile.
 */
export const itemSchema = z.discriminatedUnion("type", [
  messageSchema,
  reasoningSchema,
  redactedReasoningSchema,
  toolCallSchema,
  toolResultSchema,
  serverToolSchema,
]) satisfies z.ZodType<Item>;

/** Keys of an Item variant that its schema does not know: a field added to the library's Item. */
type UnknownItemKeys = {
  [K in Item["type"]]: Exclude<
    keyof Extract<Item, { type: K }>,
    keyof Extract<z.infer<typeof itemSchema>, { type: K }>
  >;
}[Item["type"]];
// Fails to compile, naming the key, when an Item field has no schema (it would be dropped on read).
export const itemSchemaIsComplete: [UnknownItemKeys] extends [never] ? true : UnknownItemKeys = true;
