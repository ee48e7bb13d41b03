import type { JsonSchema } from "../llm-client/request.js";
import type { Tool } from "../tool/tool.js";
import { inline, type ToolOutput } from "../tool/tool-output.js";
import { type BlobStore, BlobStoreError } from "./blob-store.js";
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from "./bounded-output.js";
import { type ContentView, viewOf } from "./content-view.js";
import { arrayOverview, arraySlice, keyValue, objectOverview } from "./inspect-json.js";
import { textBytes, textLines, textOverview } from "./inspect-text.js";
import { parseSelector, type Selector } from "./selector.js";

/** The arguments of `inspect`, as the model sends them. */
export interface InspectArguments {
  blob_id: string;
  selector?: string | undefined;
}

export interface InspectToolOptions extends Partial<OutputLimits> {}

export const INSPECT_TOOL_NAME = "inspect";

const DESCRIPTION = (limits: OutputLimits) =>
  "Read part of a large tool result that was stored as a blob: such results show only a summary " +
  "starting with [blob:<id>]. Pass that id as blob_id. selector (optional): omit it for an overview; " +
  'text blobs: "lines:20-50" (1-based, both ends included; "lines:20-" reads to the end, "lines:7" one ' +
  'line), "bytes:0..16384" (0-based, end excluded; for very long lines); JSON arrays: "slice:3..8" ' +
  '(entries 3 to 7: 0-based, end excluded, like Rust ranges; "slice:10.." to the end); JSON objects: ' +
  '"key:results" (dots go deeper and numbers index arrays: "key:results.0.name"; "slice:results.3..8" ' +
  `slices an array inside). Each answer is capped at ${limits.maxBytes} bytes and ${limits.maxLines} ` +
  "lines and ends with how to read on.";

/** What the blob is, for messages about a selector that does not apply to it. */
function kindOf(view: ContentView): string {
  switch (view.kind) {
    case "text":
      return "text";
    case "array":
      return `a JSON array of ${view.entries.length} entries`;
    case "object":
      return `a JSON object of ${Object.keys(view.value).length} keys`;
  }
}

/** Keys named in a message about an object blob. */
const KEYS_NAMED = 10;

function validFor(view: ContentView): string {
  switch (view.kind) {
    case "text":
      return '"lines:A-B" or "bytes:A..B"';
    case "array":
      return '"slice:A..B" or "key:<index>" (e.g. "key:0.name")';
    case "object": {
      const keys = Object.keys(view.value);
      const named = keys.slice(0, KEYS_NAMED).join(", ") + (keys.length > KEYS_NAMED ? ", …" : "");
      const list = keys.find((key) => Array.isArray(view.value[key]));
      const slice = list === undefined ? "" : `, or "slice:${list}.A..B" for the array under ${list}`;
      return `"key:<key>" (its keys: ${named})${slice}`;
    }
  }
}

function read(id: string, view: ContentView, selector: Selector | undefined, limits: OutputLimits): string {
  if (selector === undefined) {
    if (view.kind === "text") return textOverview(id, view.text, limits);
    if (view.kind === "array") return arrayOverview(id, view.entries, limits);
    return objectOverview(id, view.value, limits);
  }
  const wrongKind = () =>
    new Error(
      `blob ${id} is ${kindOf(view)}, which "${selector.kind}:" does not apply to; use ${validFor(view)}`,
    );
  if (view.kind === "text") {
    if (selector.kind === "lines") return textLines(view.text, selector.from, selector.to, limits);
    if (selector.kind === "bytes") return textBytes(view.text, selector.from, selector.to, limits);
    throw wrongKind();
  }
  const root = view.kind === "array" ? view.entries : view.value;
  if (selector.kind === "slice") {
    if (view.kind === "object" && selector.path.length === 0) throw wrongKind();
    return arraySlice(root, selector.path, selector.from, selector.to, limits);
  }
  if (selector.kind === "key") {
    // Into an array only by index: a name there is a key meant for an object.
    if (view.kind === "array" && !/^\d+$/.test(selector.path[0] ?? "")) throw wrongKind();
    return keyValue(root, selector.path, limits);
  }
  throw wrongKind();
}

/** Accepts the id as it appears in a summary too (`[blob:<id>]`): models often copy it whole. */
function bareId(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("[blob:") && trimmed.endsWith("]")) return trimmed.slice(6, -1).trim();
  return trimmed.startsWith("blob:") ? trimmed.slice(5).trim() : trimmed;
}

async function load(store: BlobStore, id: string): Promise<ContentView> {
  try {
    return viewOf(await store.load(id));
  } catch (error) {
    if (error instanceof BlobStoreError && error.kind === "not_found") {
      throw new Error(
        `${error.message}; blob ids are the UUIDs in [blob:<id>] at the start of stored tool results`,
      );
    }
    throw error;
  }
}

/**
 * The seed's built-in `inspect(blob_id, selector?)` tool over `store`. Its answers are bounded
 * (16 KB / 400 lines by default, with a notice saying how to read on) and come back as an explicit
 * inline `ToolOutput`, so an answer is never stored as another blob; its one-line summary is
 * `[blob:<id>] <selector>` (`overview` without one), what prune leaves of it. Unknown ids, malformed
 * selectors and selectors that do not fit the blob throw an Error whose message says what is
 * valid; the worker turns it into an error result.
 */
export function createInspectTool(store: BlobStore, options?: InspectToolOptions): Tool<InspectArguments> {
  const limits: OutputLimits = {
    maxBytes: options?.maxBytes ?? DEFAULT_OUTPUT_LIMITS.maxBytes,
    maxLines: options?.maxLines ?? DEFAULT_OUTPUT_LIMITS.maxLines,
  };
  return {
    name: INSPECT_TOOL_NAME,
    description: DESCRIPTION(limits),
    inputSchema: INSPECT_INPUT_SCHEMA,
    parseArguments: parseInspectArguments,
    async execute(args): Promise<ToolOutput> {
      // Parse first: a malformed selector is the model's to fix whatever the blob is.
      const selector =
        args.selector === undefined || args.selector.trim() === "" ? undefined : parseSelector(args.selector);
      const id = bareId(args.blob_id);
      const view = await load(store, id);
      // The pointer and the selector are all it takes to read the answer again: prune can drop it.
      return inline(read(id, view, selector, limits), `[blob:${id}] ${args.selector?.trim() || "overview"}`);
    },
  };
}

/**
 * Written out rather than made from a zod schema, so that a client with a blob store loads no zod
 * (a third of the library's start-up); `parseInspectArguments` is its check.
 */
const INSPECT_INPUT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    blob_id: { type: "string", description: "The id from [blob:<id>] in a stored tool result" },
    selector: {
      description: 'Which part to read: "lines:20-50", "bytes:0..16384", "slice:3..8" or "key:results"',
      type: "string",
    },
  },
  required: ["blob_id"],
};

/**
 * The check `tool()` would make of that schema, with the same messages: `blob_id` a string,
 * `selector` a string or absent (a strict model's `null` counts as absent), other keys ignored.
 */
function parseInspectArguments(
  raw: unknown,
): { ok: true; value: InspectArguments } | { ok: false; error: string } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return invalid("(arguments)", "object", raw);
  const { blob_id, selector } = raw as Record<string, unknown>;
  if (typeof blob_id !== "string") return invalid("blob_id", "string", blob_id);
  if (selector === undefined || selector === null) return { ok: true, value: { blob_id } };
  if (typeof selector !== "string") return invalid("selector", "string", selector);
  return { ok: true, value: { blob_id, selector } };
}

function invalid(path: string, expected: string, received: unknown): { ok: false; error: string } {
  const kind = received === null ? "null" : Array.isArray(received) ? "array" : typeof received;
  return {
    ok: false,
    error: `invalid arguments — ${path}: Invalid input: expected ${expected}, received ${kind}`,
  };
}
