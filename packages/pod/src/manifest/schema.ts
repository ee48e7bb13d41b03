import type { SchemeName } from "@yoake/llm-worker";
import { z } from "zod";
import { EFFORT_LEVELS } from "../effort/effort.js";
import type { ManifestIssue } from "./manifest-error.js";
import { envNameSchema, mcpServersSchema } from "./mcp-schema.js";

/** A record, so that a scheme added to llm-worker and missing here fails to compile. */
const SCHEMES: Readonly<Record<SchemeName, true>> = {
  anthropic: true,
  "openai-chat": true,
  "openai-responses": true,
  gemini: true,
  ollama: true,
};
const SCHEME_NAMES = Object.keys(SCHEMES) as [SchemeName, ...SchemeName[]];

const positiveInteger = z.number().int().positive();
const price = z.number().nonnegative();

/**
 * A scope rule: a bare path (read access, recursive) or a table. Relative paths are relative to
 * the project root whichever file the rule is in; `~/` is the home directory.
 */
const scopeRuleSchema = z.union([
  z.string().min(1),
  z.strictObject({
    path: z.string().min(1),
    access: z.enum(["read", "write"]).optional(),
    recursive: z.boolean().optional(),
  }),
]);

/**
 * A file-name pattern of `scope.secret_files`: `*` any run of characters, `?` one; matched against
 * the last component of a path only, so it holds in every directory.
 */
const secretFilePatternSchema = z
  .string()
  .min(1)
  .regex(/^[^/\\]+$/, { error: 'expected a file name pattern without "/", e.g. ".env.*" or "*.pem"' });

/** The points of a run a Pod hook can run at (the Worker's hook stages, by their manifest names). */
export const HOOK_EVENTS = ["prompt_submit", "before_tool", "after_tool", "turn_end"] as const;

/**
 * A `[[hooks]]` entry: a shell command run at `event` with a JSON description on stdin, its
 * action read from stdout. `matcher` picks tools by name (`write_file|edit_file`, `*` a
 * wildcard) and applies to the tool events only. It runs in the `bash` tool's sandbox with the
 * project read-only, unless `sandbox = false`.
 */
const hookSchema = z
  .strictObject({
    event: z.enum(HOOK_EVENTS),
    command: z.string().min(1),
    matcher: z.string().regex(/^[\w.*:-]+(\|[\w.*:-]+)*$/, {
      error: 'expected tool names separated by "|", with * as a wildcard, e.g. "write_file|edit_*"',
    }),
    timeout_ms: positiveInteger,
    name: z.string().min(1),
    /** Secret variables (API keys, tokens) the command gets; it never gets them otherwise. */
    pass_env: z.array(envNameSchema),
    /** false: run on the host, unconfined (a notification, a formatter writing files). */
    sandbox: z.boolean(),
  })
  .partial({ matcher: true, timeout_ms: true, name: true, pass_env: true, sandbox: true })
  .refine(
    (hook) => hook.matcher === undefined || hook.event === "before_tool" || hook.event === "after_tool",
    {
      error: "matcher applies only to before_tool and after_tool hooks",
      path: ["matcher"],
    },
  );

/**
 * `[shell]`. `sandbox`, `network`, `env`, `reveal`, `ask` and `unsandboxed` widen what a command can reach
 * or when it asks: a project's manifest may set them only once the project is trusted.
 */
const shellSchema = z
  .strictObject({
    /** false: no sandbox on purpose; every command then asks (or, `unsandboxed = "off"`, no `bash`). */
    sandbox: z.boolean(),
    /** Let sandboxed commands reach the network (default false: no network at all). */
    network: z.boolean(),
    /** When the sandbox cannot work: `ask` approval for every command, shown as unsandboxed; `off`: no `bash` tool. */
    unsandboxed: z.enum(["ask", "off"]),
    /** Environment variables passed to commands besides PATH, HOME, LANG and TERM. */
    env: z.array(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected an environment variable name" }),
    ),
    /**
     * Paths outside the project commands may read (read-only) although the sandbox hides them: the
     * home, credential stores, Yoake's own files. Absolute or `~/`-relative. A credential store is
     * shown only when named itself (or a path inside it); the session key never.
     */
    reveal: z.array(
      z
        .string()
        .regex(/^(~|~\/.*|\/.*)$/, { error: 'expected an absolute or "~/" path, e.g. "~/.gitconfig"' }),
    ),
    /** false: no command asks for approval (what `--yes` sets); `tools.approve` still applies. */
    ask: z.boolean(),
    /** Commands that always need approval, even in the sandbox: `rm -rf`, `git push`, `*` a wildcard. */
    always_ask: z.array(z.string().min(1)),
    /** A command's time limit when the call gives none. */
    timeout_ms: positiveInteger,
    /** The longest time limit a call may ask for. */
    max_timeout_ms: positiveInteger,
    /** `[shell.limits]`: what one sandboxed command may take (see the package README, "Shell"). */
    limits: z
      .strictObject({
        processes: positiveInteger,
        memory_mb: positiveInteger,
        file_size_mb: positiveInteger,
        tmp_mb: positiveInteger,
      })
      .partial(),
  })
  .partial();

const modelFields = {
  /** `provider/model`, looked up in the built-in catalogue. */
  ref: z
    .string()
    .regex(/^[^/\s]+\/\S+$/, { error: 'expected "provider/model", e.g. "anthropic/claude-sonnet-5-5"' }),
  scheme: z.enum(SCHEME_NAMES),
  id: z.string().min(1),
  base_url: z.url(),
  api_key_env: z.string().min(1),
  context_window: positiveInteger,
  max_output_tokens: positiveInteger,
  prices: z.strictObject({ input: price, output: price, cache_read: price, cache_write: price }).partial(),
};

/** A model of the fallback chain: a `provider/model` reference, or a table like `[model]`'s. */
const fallbackModelSchema = z.union([modelFields.ref, z.strictObject(modelFields).partial()]);

const modelSchema = z
  .strictObject({
    ...modelFields,
    /**
     * Models asked in order when the model fails with an error retrying will not fix soon
     * (overloaded or 5xx after the retries, a model not found). An entry naming a `base_url` or
     * `api_key_env` sends the conversation (and a key) somewhere: it needs the project's trust.
     */
    fallback: z.array(fallbackModelSchema),
  })
  .partial();

/**
 * One layer of the manifest cascade, exactly as written in TOML (snake_case keys). Every key is
 * optional: a layer only says what it changes. Unknown keys are errors. New sections (`[[mcp]]`)
 * are added here as further optional keys.
 */
export const manifestLayerSchema = z
  .strictObject({
    model: modelSchema,
    instructions: z.strictObject({ prompt: z.string(), agents_md: z.boolean() }).partial(),
    generation: z
      .strictObject({
        max_tokens: positiveInteger,
        temperature: z.number().min(0).max(2),
        top_p: z.number().min(0).max(1),
        reasoning: z
          .strictObject({
            effort: z.enum(["minimal", "low", "medium", "high"]),
            budget_tokens: positiveInteger,
          })
          .partial(),
        /** How hard the model thinks, mapped per scheme (`--effort`); replaces `reasoning`. */
        effort: z.enum(EFFORT_LEVELS),
      })
      .partial(),
    scope: z
      .strictObject({
        allow: z.array(scopeRuleSchema),
        deny: z.array(scopeRuleSchema),
        /** Read and write files with more than one hard link (another name may be outside the scope). */
        hard_links: z.boolean(),
        /** Files never read nor written, in any directory (`.env`, private keys); replaces the list below it. */
        secret_files: z.array(secretFilePatternSchema),
      })
      .partial(),
    tools: z
      .strictObject({
        /** Tools that need the user's approval before each call. */
        approve: z.array(z.string().min(1)),
        /** Built-in tools not to offer the model at all. */
        disable: z.array(z.string().min(1)),
      })
      .partial(),
    limits: z.strictObject({ turns: positiveInteger, tool_output_bytes: positiveInteger }).partial(),
    /** `web_fetch`'s reach; a project layer widens it only when trusted. */
    web: z
      .strictObject({
        /** Hosts `web_fetch` may fetch (`example.com`, `*.example.com`, `*`). */
        allow_hosts: z.array(z.string().min(1)),
        /** Also local network addresses (loopback, private, link-local). */
        allow_local: z.boolean(),
        /** The provider's own web search (Anthropic, OpenAI Responses), run on the provider's side. */
        provider_search: z.boolean(),
        /** Most provider searches per request (Anthropic only). */
        provider_search_max_uses: positiveInteger,
        /** Only these domains (and their subdomains) are searched: `docs.python.org`, no scheme. */
        provider_search_domains: z.array(z.string().min(1)),
      })
      .partial(),
    /** `[[hooks]]`: shell commands at points of a run; every layer adds its own (a union). */
    hooks: z.array(hookSchema),
    /** `[[mcp]]`: MCP servers started with the Pod; every layer adds, a same-named entry replaces. */
    mcp: mcpServersSchema,
    /** `[shell]`: the `bash` tool's sandbox and approvals (see the package README, "Shell"). */
    shell: shellSchema,
  })
  .partial();

/** A validated layer. */
export type ManifestLayer = z.output<typeof manifestLayerSchema>;
/** What a layer may be written as (the same shape: TOML tables or a plain object for overrides). */
export type ManifestLayerInput = z.input<typeof manifestLayerSchema>;
/** A scope rule as a layer writes it. */
export type ScopeRuleInput = z.output<typeof scopeRuleSchema>;
/** A `[[hooks]]` entry as a layer writes it. */
export type HookInput = z.output<typeof hookSchema>;

/** Validates one layer; every problem comes back as an issue naming `source`, the key and what was expected. */
export function validateLayer(
  data: unknown,
  source: string,
): { ok: true; layer: ManifestLayer } | { ok: false; issues: ManifestIssue[] } {
  const result = manifestLayerSchema.safeParse(data, { reportInput: true });
  if (result.success) return { ok: true, layer: result.data };
  return { ok: false, issues: result.error.issues.flatMap((issue) => describeIssue(issue, [], source)) };
}

type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

function describeIssue(issue: Issue, prefix: readonly Key[], source: string): ManifestIssue[] {
  const keyPath = [...prefix, ...issue.path];
  const at = (message: string, path: readonly Key[] = keyPath): ManifestIssue => ({
    source,
    key: dottedKey(path),
    message,
  });
  switch (issue.code) {
    case "invalid_type":
      return [
        at(issue.input === undefined ? `is required (${expectedName(issue.expected)})` : mismatch(issue)),
      ];
    case "unrecognized_keys": {
      const known = knownKeysAt(keyPath);
      const hint = known.length > 0 ? `; expected one of: ${known.join(", ")}` : "";
      return issue.keys.map((key) => at(`unknown key${hint}`, [...keyPath, key]));
    }
    case "invalid_value":
      return [
        at(
          `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${describeValue(issue.input)}`,
        ),
      ];
    case "too_small":
      return [
        at(
          `expected ${bound(issue.origin, issue.inclusive ? ">=" : ">", issue.minimum)}, got ${describeValue(issue.input)}`,
        ),
      ];
    case "too_big":
      return [
        at(
          `expected ${bound(issue.origin, issue.inclusive ? "<=" : "<", issue.maximum)}, got ${describeValue(issue.input)}`,
        ),
      ];
    case "invalid_format":
      return [
        at(issue.format === "url" ? `expected a URL, got ${describeValue(issue.input)}` : issue.message),
      ];
    case "invalid_union": {
      // A branch that failed on something deeper than its own type is the one the author meant.
      const meant = issue.errors.find(
        (branch) => !branch.every((inner) => inner.code === "invalid_type" && inner.path.length === 0),
      );
      if (meant !== undefined) return meant.flatMap((inner) => describeIssue(inner, keyPath, source));
      const expected = issue.errors.map((branch) => {
        const first = branch[0];
        return first?.code === "invalid_type" ? expectedName(first.expected) : "something else";
      });
      return [at(`expected ${expected.join(" or ")}, got ${describeValue(issue.input)}`)];
    }
    default:
      return [at(issue.message)];
  }
}

function mismatch(issue: Extract<Issue, { code: "invalid_type" }>): string {
  return `expected ${expectedName(issue.expected)}, got ${describeValue(issue.input)}`;
}

function expectedName(expected: string): string {
  switch (expected) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "int":
      return "an integer";
    case "boolean":
      return "true or false";
    case "object":
      return "a table";
    case "array":
      return "an array";
    default:
      return expected;
  }
}

function bound(origin: string, operator: string, limit: number | bigint): string {
  if (origin === "string" && operator === ">=" && limit === 1) return "a non-empty string";
  if (origin === "string") return `a string of length ${operator} ${limit}`;
  if (origin === "array") return `an array of length ${operator} ${limit}`;
  return `a number ${operator} ${limit}`;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value instanceof Date) return "a date";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "a table";
  return typeof value;
}

/** `["scope", "allow", 1, "access"]` → `scope.allow[1].access`. */
export function dottedKey(path: readonly Key[]): string {
  let key = "";
  for (const part of path) {
    if (typeof part === "number") key += `[${part}]`;
    else key += key === "" ? String(part) : `.${String(part)}`;
  }
  return key;
}

/** The keys a table at `path` may hold, for "unknown key" messages. */
function knownKeysAt(path: readonly Key[]): string[] {
  let schema: z.ZodType | undefined = manifestLayerSchema;
  for (const part of path) {
    while (schema instanceof z.ZodOptional) schema = schema.unwrap() as z.ZodType;
    const table = tableOf(schema);
    if (table !== undefined) schema = table.shape[String(part)] as z.ZodType | undefined;
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else return [];
  }
  const table = tableOf(schema);
  return table === undefined ? [] : Object.keys(table.shape);
}

function tableOf(schema: z.ZodType | undefined): z.ZodObject | undefined {
  let current = schema;
  while (current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
  if (current instanceof z.ZodUnion) {
    return (current.options as readonly z.ZodType[]).find((option) => option instanceof z.ZodObject) as
      | z.ZodObject
      | undefined;
  }
  return current instanceof z.ZodObject ? current : undefined;
}
