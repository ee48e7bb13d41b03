import type { SchemeName, WebSearchConfig } from "@yoake/llm-worker";
import type { ReasoningConfig } from "@yoake/llm-worker/internal";
import { type EffortLevel, reasoningForEffort } from "../effort/effort.js";
import type { Scope } from "../scope/rules.js";
import { providerWebSearch } from "../web/provider-search.js";
import type { WebSettings } from "../web/web-settings.js";
import { catalogue, lookupModel, type ModelPrices } from "./catalogue.js";
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  DEFAULT_SHELL_LIMITS,
  DEFAULT_SHELL_MAX_TIMEOUT_MS,
  DEFAULT_SHELL_TIMEOUT_MS,
  DEFAULT_TOOL_OUTPUT_BYTES,
  DEFAULT_TURNS,
} from "./defaults.js";
import { ManifestError, type ManifestIssue } from "./manifest-error.js";
import { type McpServerSpec, resolveMcpServers } from "./mcp-resolve.js";
import type { MergedLayers } from "./merge.js";
import type { HOOK_EVENTS } from "./schema.js";

/** The model to talk to, with what is known of its limits and prices. */
export interface ResolvedModel {
  /** The `provider/model` reference, when the model was named that way. */
  ref?: string;
  /** The catalogue provider, when the model was named by reference. */
  provider?: string;
  scheme: SchemeName;
  /** The model id sent to the provider. */
  id: string;
  /**
   * Set by a manifest (the user's, a trusted project's, or the command line): it wins over
   * everything. Absent: the scheme's conventional variable (`OLLAMA_HOST`, ...), else
   * `defaultBaseURL`, else the scheme's default.
   */
  baseURL?: string;
  /** The catalogue's endpoint for the provider, where it differs from the scheme's default (Ollama's). */
  defaultBaseURL?: string;
  /** The environment variable holding the API key. */
  apiKeyEnv?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  /** USD per million tokens. */
  prices?: ModelPrices;
  /** `[model] fallback`: the models asked in order when this one fails (see `clientForModel`). */
  fallback?: ResolvedModel[];
}

/** Generation settings, named as `Request` names them so they can be spread into one. */
export interface GenerationSettings {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  reasoning?: ReasoningConfig;
  /** `[web] provider_search`: the provider's own web search, when the model's scheme has one. */
  webSearch?: WebSearchConfig;
  /**
   * `generation.effort` (`--effort`): already turned into `reasoning` for the model's scheme (see
   * `reasoningForEffort`), kept to show and to record in the session. Providers never read it.
   */
  effort?: EffortLevel;
}

export interface Instructions {
  /** The instruction prompt from the manifest. */
  prompt: string;
  /** The project's AGENTS.md, when present and not turned off. */
  agentsMd?: { path: string; text: string };
  /** What goes to the model as the system prompt: the prompt, then AGENTS.md. */
  systemPrompt: string;
}

export interface ToolSettings {
  /** Tools that need the user's approval before each call. */
  approve: string[];
  /** Built-in tools not offered to the model. */
  disable: string[];
}

export interface Limits {
  /** Most model requests in one run before it stops. */
  turns: number;
  /** Cap on the text a tool returns to the model (read_file, file references). */
  toolOutputBytes: number;
}

/** `[shell]`, resolved: how the `bash` tool is confined and when it asks. */
export interface ShellSettings {
  /** False: the manifest turned the sandbox off on purpose (commands run unconfined, after approval). */
  sandbox: boolean;
  /** Whether sandboxed commands may reach the network. */
  network: boolean;
  /** What happens when the sandbox cannot work: ask before every command, or no `bash` tool. */
  unsandboxed: "ask" | "off";
  /** Environment variables passed to commands besides PATH, HOME, LANG and TERM. */
  env: string[];
  /** Paths outside the project commands may read although the sandbox hides them; absolute, every layer's together. */
  reveal: string[];
  /** False: no command asks (no sandbox, `alwaysAsk`); what `--yes` sets. */
  ask: boolean;
  /** Command patterns that always need approval (`*` a wildcard), every layer's together. */
  alwaysAsk: string[];
  /** A command's time limit when the call gives none. */
  timeoutMs: number;
  /** The longest time limit a call may ask for. */
  maxTimeoutMs: number;
  /** What one sandboxed command may take (bubblewrap applies them; see `ShellLimits`). */
  limits: ShellLimits;
}

/** `[shell.limits]`, resolved: the resource limits of every command in the bubblewrap sandbox. */
export interface ShellLimits {
  /** Processes at once (RLIMIT_NPROC in the sandbox's own user namespace). */
  processes: number;
  /** Memory of each process in MiB (RLIMIT_DATA). */
  memoryMb: number;
  /** Largest file written, in MiB (RLIMIT_FSIZE). */
  fileSizeMb: number;
  /** Size of the private /tmp and /dev/shm, in MiB. */
  tmpMb: number;
}

/** A point of a run a Pod hook runs at. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** A `[[hooks]]` entry, resolved: a shell command run at `event` (see the package README, "Hooks"). */
export interface HookSpec {
  /** Shown in alerts and results: the entry's `name`, else its command. */
  name: string;
  event: HookEvent;
  /** Run by the system shell (`/bin/sh -c`), in the project root. */
  command: string;
  /** Tool names the hook applies to (tool events only), `|`-separated, `*` a wildcard; absent: every tool. */
  matcher?: string;
  timeoutMs: number;
  /** Secret variables the command gets (`pass_env`); it gets no other (see `withoutSecrets`). */
  passEnv?: string[];
  /**
   * True (the default): run in the `bash` tool's sandbox with the project read-only, where a sandbox
   * works. False (`sandbox = false`): on the host, unconfined, as its entry asked.
   */
  sandbox: boolean;
  /** The manifest file that declared it. */
  source: string;
}

/** One layer of the cascade and where it was looked for. */
export interface ManifestLayerInfo {
  kind: "defaults" | "user" | "project" | "overrides";
  /** A file path, or `defaults` / `overrides`. */
  source: string;
  /** False when the file does not exist (the layer then contributes nothing). */
  loaded: boolean;
}

/** The resolved manifest of one Pod. */
export interface Manifest {
  /** The directory holding `.yoake/`, else the git root, else the working directory. */
  projectRoot: string;
  layers: ManifestLayerInfo[];
  model: ResolvedModel;
  instructions: Instructions;
  generation: GenerationSettings;
  /** `hardLinks`: `[scope] hard_links`, for `ScopedFsOptions.allowHardLinks`. */
  scope: Scope & { hardLinks: boolean };
  tools: ToolSettings;
  limits: Limits;
  /** `[web]`: what `web_fetch` may reach. */
  web: WebSettings;
  /** `[[hooks]]` of every layer, lowest layer first. */
  hooks: HookSpec[];
  /** `[shell]`: the `bash` tool's sandbox and approvals. */
  shell: ShellSettings;
  /** The `[[mcp]]` servers to start (enabled ones only), a higher layer's entry replacing a same-named lower one. */
  mcp: McpServerSpec[];
  /** Which layer set each scalar key, e.g. `"generation.temperature": "/repo/.yoake/manifest.toml"`. */
  keySources: Readonly<Record<string, string>>;
  /** Things worth telling the user that do not stop the Pod (an unknown model, a cap above the model's). */
  warnings: string[];
}

export interface ResolveContext {
  projectRoot: string;
  layers: ManifestLayerInfo[];
  agentsMd?: { path: string; text: string };
}

/** Turns the merged cascade into a Manifest: looks the model up, fills defaults, composes the system prompt. */
export function resolveManifest({ merged, keySources }: MergedLayers, context: ResolveContext): Manifest {
  const warnings: string[] = [];
  const model = resolveModel(merged.model ?? {}, keySources, warnings);
  const fallback = (merged.model?.fallback ?? []).map((entry, index) =>
    resolveModel(
      typeof entry === "string" ? { ref: entry } : entry,
      keySources,
      warnings,
      `model.fallback.${index}`,
    ),
  );
  if (fallback.length > 0) model.fallback = fallback;
  const generationTable = merged.generation ?? {};
  const generation: GenerationSettings = {};
  if (generationTable.max_tokens !== undefined) generation.maxOutputTokens = generationTable.max_tokens;
  if (generationTable.temperature !== undefined) generation.temperature = generationTable.temperature;
  if (generationTable.top_p !== undefined) generation.topP = generationTable.top_p;
  const reasoningTable = generationTable.reasoning;
  if (reasoningTable !== undefined && Object.keys(reasoningTable).length > 0) {
    generation.reasoning = {};
    if (reasoningTable.effort !== undefined) generation.reasoning.effort = reasoningTable.effort;
    if (reasoningTable.budget_tokens !== undefined)
      generation.reasoning.budgetTokens = reasoningTable.budget_tokens;
  }
  // An effort level replaces the reasoning table: it is the simpler setting, and `--effort` sets it.
  if (generationTable.effort !== undefined) {
    generation.effort = generationTable.effort;
    generation.reasoning = reasoningForEffort(generationTable.effort, model.scheme);
  }
  const webSearch = providerWebSearch(merged.web ?? {}, model.scheme, warnings);
  if (webSearch !== undefined) generation.webSearch = webSearch;
  if (
    generation.maxOutputTokens !== undefined &&
    model.maxOutputTokens !== undefined &&
    generation.maxOutputTokens > model.maxOutputTokens
  ) {
    warnings.push(
      `generation.max_tokens (${generation.maxOutputTokens}, from ${keySources["generation.max_tokens"]}) is above ` +
        `the ${model.maxOutputTokens} output tokens ${model.id} allows`,
    );
  }

  const prompt = merged.instructions?.prompt ?? "";
  const agentsMd = merged.instructions?.agents_md === false ? undefined : context.agentsMd;
  const systemPrompt =
    agentsMd === undefined ? prompt : `${prompt}\n\n# Project instructions (AGENTS.md)\n\n${agentsMd.text}`;

  return {
    projectRoot: context.projectRoot,
    layers: context.layers,
    model,
    instructions: { prompt, ...(agentsMd === undefined ? {} : { agentsMd }), systemPrompt },
    generation,
    scope: {
      root: context.projectRoot,
      allow: merged.scope?.allow ?? [],
      deny: merged.scope?.deny ?? [],
      hardLinks: merged.scope?.hard_links ?? false,
      secretFiles: (merged.scope?.secret_files ?? []).map((pattern) => ({
        pattern,
        source: keySources["scope.secret_files"] ?? "defaults",
      })),
    },
    tools: { approve: merged.tools?.approve ?? [], disable: merged.tools?.disable ?? [] },
    limits: {
      turns: merged.limits?.turns ?? DEFAULT_TURNS,
      toolOutputBytes: merged.limits?.tool_output_bytes ?? DEFAULT_TOOL_OUTPUT_BYTES,
    },
    web: {
      allowHosts: merged.web?.allow_hosts ?? [],
      allowLocal: merged.web?.allow_local ?? false,
    },
    hooks: (merged.hooks ?? []).map(
      (hook): HookSpec => ({
        name: hook.name ?? hook.command,
        event: hook.event,
        command: hook.command,
        ...(hook.matcher !== undefined && { matcher: hook.matcher }),
        timeoutMs: hook.timeout_ms ?? DEFAULT_HOOK_TIMEOUT_MS,
        ...(hook.pass_env !== undefined && { passEnv: hook.pass_env }),
        sandbox: hook.sandbox ?? true,
        source: hook.source,
      }),
    ),
    shell: resolveShell(merged.shell ?? {}, keySources, warnings),
    mcp: resolveMcpServers(merged.mcp ?? [], context.projectRoot, warnings),
    keySources,
    warnings,
  };
}

function resolveShell(
  table: NonNullable<MergedLayers["merged"]["shell"]>,
  keySources: Record<string, string>,
  warnings: string[],
): ShellSettings {
  const maxTimeoutMs = table.max_timeout_ms ?? Math.max(DEFAULT_SHELL_MAX_TIMEOUT_MS, table.timeout_ms ?? 0);
  let timeoutMs = table.timeout_ms ?? Math.min(DEFAULT_SHELL_TIMEOUT_MS, maxTimeoutMs);
  if (timeoutMs > maxTimeoutMs) {
    warnings.push(
      `shell.timeout_ms (${timeoutMs}, from ${keySources["shell.timeout_ms"]}) is above shell.max_timeout_ms ` +
        `(${maxTimeoutMs}): commands get ${maxTimeoutMs} ms`,
    );
    timeoutMs = maxTimeoutMs;
  }
  return {
    sandbox: table.sandbox ?? true,
    network: table.network ?? false,
    unsandboxed: table.unsandboxed ?? "ask",
    env: table.env ?? [],
    reveal: table.reveal ?? [],
    ask: table.ask ?? true,
    alwaysAsk: table.always_ask ?? [],
    timeoutMs,
    maxTimeoutMs,
    limits: {
      processes: table.limits?.processes ?? DEFAULT_SHELL_LIMITS.processes,
      memoryMb: table.limits?.memory_mb ?? DEFAULT_SHELL_LIMITS.memory_mb,
      fileSizeMb: table.limits?.file_size_mb ?? DEFAULT_SHELL_LIMITS.file_size_mb,
      tmpMb: table.limits?.tmp_mb ?? DEFAULT_SHELL_LIMITS.tmp_mb,
    },
  };
}

type ModelTable = NonNullable<MergedLayers["merged"]["model"]>;

function resolveModel(
  table: Omit<ModelTable, "fallback">,
  keySources: Record<string, string>,
  warnings: string[],
  /** Where the table is, for messages: `model`, or a fallback entry `model.fallback.<n>`. */
  at = "model",
): ResolvedModel {
  const issue = (key: string, message: string): ManifestError => {
    const named = `${at}${key.slice("model".length)}`;
    const source = keySources[at === "model" ? key : "model.fallback"] ?? sourceOfModel(keySources);
    return new ManifestError([{ source, key: named, message } satisfies ManifestIssue]);
  };

  let resolved: ResolvedModel;
  if (table.ref !== undefined) {
    if (table.id !== undefined) {
      throw issue("model.id", "set either model.ref, or model.scheme with model.id, not both");
    }
    const match = lookupModel(table.ref);
    if (match === undefined) {
      throw issue(
        "model.ref",
        `unknown provider in ${JSON.stringify(table.ref)}; expected one of ${Object.keys(catalogue).join(", ")}, ` +
          "or set model.scheme and model.id instead",
      );
    }
    resolved = {
      ref: table.ref,
      provider: match.provider,
      scheme: table.scheme ?? match.providerEntry.scheme,
      id: match.modelId,
    };
    const baseURL = match.providerEntry.baseURL;
    if (baseURL !== undefined) resolved.defaultBaseURL = baseURL;
    if (match.providerEntry.apiKeyEnv !== undefined) resolved.apiKeyEnv = match.providerEntry.apiKeyEnv;
    if (match.model !== undefined) {
      resolved.contextWindow = match.model.contextWindow;
      resolved.maxOutputTokens = match.model.maxOutputTokens;
      resolved.prices = { ...match.model.prices };
    } else if (
      !match.providerEntry.anyModel &&
      (table.context_window === undefined || table.prices === undefined)
    ) {
      warnings.push(
        `model ${JSON.stringify(table.ref)} (from ${keySources["model.ref"]}) is not in the built-in catalogue: ` +
          "its context window and prices are unknown unless model.context_window and model.prices are set",
      );
    }
  } else {
    if (table.scheme === undefined || table.id === undefined) {
      throw issue(
        table.scheme === undefined ? "model.scheme" : "model.id",
        'expected model.ref = "provider/model", or both model.scheme and model.id',
      );
    }
    resolved = { scheme: table.scheme, id: table.id };
  }

  if (table.base_url !== undefined) resolved.baseURL = table.base_url;
  if (table.api_key_env !== undefined) resolved.apiKeyEnv = table.api_key_env;
  if (table.context_window !== undefined) resolved.contextWindow = table.context_window;
  if (table.max_output_tokens !== undefined) resolved.maxOutputTokens = table.max_output_tokens;
  if (table.prices !== undefined) {
    const prices = { ...resolved.prices, ...pricesFrom(table.prices) };
    if (prices.input === undefined || prices.output === undefined) {
      throw issue(
        "model.prices",
        "expected both input and output prices for a model the catalogue does not price",
      );
    }
    resolved.prices = prices as ModelPrices;
  }
  return resolved;
}

function pricesFrom(table: NonNullable<ModelTable["prices"]>): Partial<ModelPrices> {
  const prices: Partial<ModelPrices> = {};
  if (table.input !== undefined) prices.input = table.input;
  if (table.output !== undefined) prices.output = table.output;
  if (table.cache_read !== undefined) prices.cacheRead = table.cache_read;
  if (table.cache_write !== undefined) prices.cacheWrite = table.cache_write;
  return prices;
}

function sourceOfModel(keySources: Record<string, string>): string {
  for (const [key, source] of Object.entries(keySources)) if (key.startsWith("model.")) return source;
  return "defaults";
}
