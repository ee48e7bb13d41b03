import path from "node:path";
import { canonicalize } from "../scope/canonical-path.js";
import { pathCovers, type ScopeRule } from "../scope/rules.js";
import { lookupModel } from "./catalogue.js";
import { DEFAULT_SHELL_LIMITS } from "./defaults.js";
import type { NormalizedLayer, SourcedHook, SourcedMcpServer } from "./merge.js";
import { destinationOfTable, type ModelDestination, sameDestination } from "./model-destination.js";
import { shellWords } from "./shell-words.js";

/** What a project manifest asks for that only the user can grant. */
export type TrustRequestKind =
  /** `[[hooks]]`: a shell command yoake runs. */
  | "hook"
  /** `[[mcp]]`: a server yoake starts or connects to. */
  | "mcp"
  /** `model.base_url`: where the conversation and the API key go. */
  | "base_url"
  /** `model.api_key_env`: which of the user's variables is sent as the key. */
  | "api_key_env"
  /** `model.scheme` differing from the provider's: the key goes to another API's host. */
  | "model_scheme"
  /**
   * `model.ref` / `model.scheme` (or a fallback entry) naming a model at another destination than
   * the user's (another provider, or a local endpoint such as Ollama's): the conversation, files
   * included, would go somewhere the user did not choose.
   */
  | "model_provider"
  /** `scope.allow` reaching outside the project. */
  | "scope_outside"
  /** `tools.approve` without a tool the layers below ask approval for. */
  | "fewer_approvals"
  /** `scope.secret_files` without a pattern the layers below keep secret. */
  | "secret_files"
  /** `[shell]` widening the `bash` tool's sandbox: no sandbox, the network, passed variables, revealed paths, no asking. */
  | "shell"
  /**
   * Any other key: every key this classifier does not know to be harmless needs trust, so a key
   * added later (`[shell]`, `scope.hard_links`, ...) is never applied unasked.
   */
  | "setting";

/** One thing a manifest asks for, as the user is shown it before trusting. */
export interface TrustRequest {
  kind: TrustRequestKind;
  /** The manifest key it comes from, e.g. `hooks[0]`, `scope.allow[1]`, `shell.network`. */
  key: string;
  /** What it would do, with the exact command, host or path: `run "make lint" before write_file calls`. */
  description: string;
}

/** A layer split into what applies without trust and what waits for it. */
export interface ClassifiedLayer {
  /** The layer with every request removed (or narrowed to what the layers below already allow). */
  safe: NormalizedLayer;
  /** Empty when the layer asks for nothing beyond the safe defaults. */
  requests: TrustRequest[];
}

export interface ClassifyContext {
  /** The canonical project root: scope rules inside it are safe. */
  projectRoot: string;
  /** The merged layers below this one (defaults, the user's manifest): approvals and secrets it must not shrink. */
  below: NormalizedLayer;
  /**
   * Whether commands can be sandboxed on this machine, which decides where the layer's hooks
   * would run and so what their requests say; absent: not known, and the requests say both.
   */
  sandboxHere?: { works: true } | { works: false; reason: string };
}

/**
 * Splits a manifest layer that comes from inside the project (and so from whoever wrote the
 * repository) into its safe part and its requests. Safe: a catalogue model, instructions,
 * generation settings, limits, `tools.disable`, deny rules, allow rules inside the project, more
 * approvals, more secret files, disabling an MCP server. Everything else is a request; a key this
 * function does not know is one too.
 */
export async function classifyLayer(
  layer: NormalizedLayer,
  context: ClassifyContext,
): Promise<ClassifiedLayer> {
  const requests: TrustRequest[] = [];
  const safe: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue;
    switch (key) {
      case "instructions":
      case "generation":
      case "limits":
        safe[key] = value;
        break;
      case "model":
        safe.model = classifyModel(
          value as NonNullable<NormalizedLayer["model"]>,
          requests,
          context.below.model,
        );
        break;
      case "tools":
        safe.tools = classifyTools(value as NonNullable<NormalizedLayer["tools"]>, context.below, requests);
        break;
      case "scope":
        safe.scope = await classifyScope(value as NonNullable<NormalizedLayer["scope"]>, context, requests);
        break;
      case "shell":
        safe.shell = classifyShell(value as NonNullable<NormalizedLayer["shell"]>, context.below, requests);
        break;
      case "hooks": {
        const where = hookPlace(layer, context);
        (value as SourcedHook[]).forEach((hook, index) => {
          requests.push({ kind: "hook", key: `hooks[${index}]`, description: describeHook(hook, where) });
        });
        break;
      }
      case "mcp": {
        const disabling = (value as SourcedMcpServer[]).filter((server, index) => {
          const starts = server.command !== undefined || server.url !== undefined;
          if (starts) requests.push({ kind: "mcp", key: `mcp[${index}]`, description: describeMcp(server) });
          return !starts;
        });
        if (disabling.length > 0) safe.mcp = disabling;
        break;
      }
      default:
        requests.push(...unknownSettings(key, value));
    }
  }
  return { safe: safe as NormalizedLayer, requests };
}

type ShellTable = NonNullable<NormalizedLayer["shell"]>;

/**
 * `[shell]`: what keeps the sandbox as tight as the defaults or tighter applies (more `always_ask`
 * patterns, time limits, `unsandboxed = "off"`, lower `[shell.limits]`); what widens it waits for
 * trust, a limit above what the layers below allow among it.
 */
function classifyShell(shell: ShellTable, below: NormalizedLayer, requests: TrustRequest[]): ShellTable {
  const { sandbox, network, env, reveal, ask, limits, ...rest } = shell;
  const safe: ShellTable = rest;
  const request = (key: string, description: string): void => {
    requests.push({ kind: "shell", key: `shell.${key}`, description });
  };
  if (sandbox === false)
    request(
      "sandbox",
      "run commands without the sandbox (each one then asks first) and every hook on your machine, unsandboxed",
    );
  else if (sandbox !== undefined) safe.sandbox = sandbox;
  if (network === true) request("network", "let commands reach the network");
  else if (network !== undefined) safe.network = network;
  if (env !== undefined && env.length > 0) request("env", `pass your ${env.join(", ")} to commands`);
  if (reveal !== undefined && reveal.length > 0)
    request("reveal", `let commands read ${reveal.join(", ")} (read-only), which the sandbox hides`);
  if (ask === false) request("ask", "run every command without asking, even those always_ask lists");
  else if (ask !== undefined) safe.ask = ask;
  if (limits !== undefined) {
    const lower: NonNullable<ShellTable["limits"]> = {};
    for (const key of Object.keys(limits) as (keyof typeof DEFAULT_SHELL_LIMITS)[]) {
      const value = limits[key];
      if (value === undefined) continue;
      const allowed = below.shell?.limits?.[key] ?? DEFAULT_SHELL_LIMITS[key];
      if (value <= allowed) lower[key] = value;
      else
        request(`limits.${key}`, `raise the commands' limit shell.limits.${key} from ${allowed} to ${value}`);
    }
    if (Object.keys(lower).length > 0) safe.limits = lower;
  }
  return safe;
}

type ModelTable = NonNullable<NormalizedLayer["model"]>;

/**
 * A model of the project's own choosing is safe only where the user's model goes: the same API at
 * the same endpoint (another model of the same provider). Another provider, or a local endpoint
 * (Ollama's `localhost:11434`, a port any local user can listen on), is a `model_provider` request,
 * and so is each fallback entry going anywhere the user's chain does not. `below` is the merged
 * `[model]` of the layers below; `key` names the table in requests: `model`, or
 * `model.fallback[1]` for an entry of the chain.
 */
function classifyModel(
  model: ModelTable,
  requests: TrustRequest[],
  below: ModelTable | undefined,
  key = "model",
): ModelTable {
  const { base_url, api_key_env, scheme, fallback, ...rest } = model;
  let safe: ModelTable = rest;
  const named = model.ref ?? model.id ?? key;
  if (base_url !== undefined)
    requests.push({
      kind: "base_url",
      key: `${key}.base_url`,
      description: `send your prompts, files and API key to ${base_url}${key === "model" ? "" : ` (fallback ${named})`}`,
    });
  if (api_key_env !== undefined)
    requests.push({
      kind: "api_key_env",
      key: `${key}.api_key_env`,
      description: `send the value of your ${api_key_env} variable as the API key`,
    });
  if (scheme !== undefined) {
    // Without a catalogue reference the scheme's own key goes to the scheme's own host: safe. With
    // one, another scheme would send that provider's key to a different API's host.
    const provider = model.ref === undefined ? undefined : lookupModel(model.ref)?.providerEntry;
    if (provider === undefined || provider.scheme === scheme) safe.scheme = scheme;
    else
      requests.push({
        kind: "model_scheme",
        key: `${key}.scheme`,
        description: `talk to ${model.ref} with the ${scheme} API (its host, with the ${model.ref} key)`,
      });
  }
  const chosen = destinationsOf(below);
  if (key === "model" && namesModel(model) && !namesSameModel(below, model)) {
    // Where the merged table would send it: its own base_url, if any, is a request of its own above.
    const naming = {
      ...(model.ref !== undefined && { ref: model.ref }),
      ...(safe.scheme !== undefined && { scheme: safe.scheme }),
    };
    const to = destinationOfTable(naming);
    const from = below === undefined ? undefined : destinationOfTable(below);
    if (to === undefined || from === undefined || !sameDestination(to, from)) {
      requests.push({ kind: "model_provider", key, description: describeSwitch(model, to) });
      // What describes the refused model (its window, prices) does not apply to the user's.
      safe = {};
    }
  }
  // A chain entry is a model like any other: one at a destination of the user's chain is safe (a
  // catalogue reference), its own host or key is not.
  if (fallback !== undefined) {
    const kept: NonNullable<ModelTable["fallback"]> = [];
    fallback.forEach((entry, index) => {
      const at = `${key}.fallback[${index}]`;
      const classified = typeof entry === "string" ? entry : classifyModel(entry, requests, undefined, at);
      const to = destinationOfTable(
        typeof entry === "string"
          ? entry
          : {
              ...entry,
              base_url: undefined,
              ...(typeof classified !== "string" && { scheme: classified.scheme }),
            },
      );
      if (to !== undefined && chosen.some((each) => sameDestination(each, to))) kept.push(classified);
      else requests.push({ kind: "model_provider", key: at, description: describeSwitch(entry, to) });
    });
    safe.fallback = kept;
  }
  return safe;
}

/** Where the user's chain goes: its model and each fallback. */
function destinationsOf(below: ModelTable | undefined): ModelDestination[] {
  if (below === undefined) return [];
  return [below, ...(below.fallback ?? [])].flatMap((entry) => destinationOfTable(entry) ?? []);
}

function namesModel(table: ModelTable): boolean {
  return table.ref !== undefined || table.scheme !== undefined || table.id !== undefined;
}

/** As the merge decides it: a layer naming the model the table already names keeps that table. */
function namesSameModel(below: ModelTable | undefined, table: ModelTable): boolean {
  if (below === undefined) return false;
  return (["ref", "scheme", "id"] as const).every(
    (name) => table[name] === undefined || table[name] === below[name],
  );
}

function describeSwitch(entry: ModelTable | string, to: ModelDestination | undefined): string {
  const named =
    typeof entry === "string" ? entry : (entry.ref ?? [entry.scheme, entry.id].filter(Boolean).join(" "));
  if (to === undefined) return `send your prompts and files to ${named}, a provider yoake does not know`;
  const where = `send your prompts and files to ${named} at ${to.endpoint}`;
  return to.local
    ? `${where}: a local address, where any local user (or machine of your network) could be listening`
    : `${where}, another provider than your model's`;
}

type ToolsTable = NonNullable<NormalizedLayer["tools"]>;

function classifyTools(tools: ToolsTable, below: NormalizedLayer, requests: TrustRequest[]): ToolsTable {
  const { approve, ...safe } = tools;
  if (approve === undefined) return safe;
  const kept = below.tools?.approve ?? [];
  const dropped = kept.filter((tool) => !approve.includes(tool));
  if (dropped.length > 0)
    requests.push({
      kind: "fewer_approvals",
      key: "tools.approve",
      description: `run ${dropped.join(", ")} without asking you first`,
    });
  // Untrusted, the layer can still ask approval for more tools, never for fewer.
  return { ...safe, approve: [...new Set([...kept, ...approve])] };
}

type ScopeTable = NonNullable<NormalizedLayer["scope"]>;

async function classifyScope(
  scope: ScopeTable,
  context: ClassifyContext,
  requests: TrustRequest[],
): Promise<ScopeTable> {
  const safe: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(scope)) {
    if (value === undefined) continue;
    if (key === "deny") safe.deny = value;
    else if (key === "allow") {
      const inside: ScopeRule[] = [];
      for (const [index, rule] of (value as ScopeRule[]).entries()) {
        // Canonical, as the ScopedFs will see it: a link in the repository may lead anywhere.
        const target = path.resolve(context.projectRoot, rule.path);
        const real = await canonicalize(target).then(
          (canonical) => canonical.real,
          () => undefined,
        );
        if (real !== undefined && pathCovers(context.projectRoot, true, real)) inside.push(rule);
        else
          requests.push({
            kind: "scope_outside",
            key: `scope.allow[${index}]`,
            description: `${rule.access === "write" ? "read and write" : "read"} ${describeTarget(target, real)}${rule.recursive ? " and everything below it" : ""}, outside the project`,
          });
      }
      if (inside.length > 0) safe.allow = inside;
    } else if (key === "secret_files") {
      const patterns = value as string[];
      const kept = context.below.scope?.secret_files ?? [];
      const dropped = kept.filter((pattern) => !patterns.includes(pattern));
      if (dropped.length > 0)
        requests.push({
          kind: "secret_files",
          key: "scope.secret_files",
          description: `let the model read and write secret files (${dropped.join(", ")})`,
        });
      safe.secret_files = [...new Set([...kept, ...patterns])];
    } else requests.push(...unknownSettings(`scope.${key}`, value));
  }
  return safe as ScopeTable;
}

function describeTarget(target: string, real: string | undefined): string {
  if (real === undefined || real === target) return target;
  return `${target} (really ${real})`;
}

/** Where the layer's hooks that ask for the sandbox would run: in it, on the host (and why), or not known. */
type HookPlace = { sandboxed: true } | { sandboxed: false; reason: string } | { sandboxed: "unknown" };

function hookPlace(layer: NormalizedLayer, context: ClassifyContext): HookPlace {
  if (layer.shell?.sandbox === false)
    return { sandboxed: false, reason: "this manifest turns the sandbox off (shell.sandbox = false)" };
  if (context.below.shell?.sandbox === false)
    return { sandboxed: false, reason: "your manifest turns the sandbox off (shell.sandbox = false)" };
  if (context.sandboxHere === undefined) return { sandboxed: "unknown" };
  return context.sandboxHere.works
    ? { sandboxed: true }
    : { sandboxed: false, reason: `no sandbox works here: ${context.sandboxHere.reason}` };
}

/**
 * The hook, its exact command, and plainly where it runs: a hook on the host runs with the user's
 * rights whatever the agent wrote into the project files it runs (a `package.json` script, a
 * `./scripts/guard.sh`), which the agent's own sandbox lets it rewrite.
 */
function describeHook(hook: SourcedHook, place: HookPlace): string {
  const when = hook.matcher === undefined ? hook.event : `${hook.event} of ${hook.matcher}`;
  const run = `run the shell command ${JSON.stringify(hook.command)} at ${when}${passing(hook.pass_env)}`;
  const onHost = "whatever project files it runs, the agent can rewrite first";
  if (hook.sandbox === false)
    return `${run} on your machine, unsandboxed (sandbox = false), with your rights: ${onHost}`;
  if (place.sandboxed === true) return `${run}, in the sandbox with the project read-only`;
  if (place.sandboxed === false)
    return `${run} on your machine, unsandboxed (${place.reason}), with your rights: ${onHost}`;
  return `${run}, in the sandbox with the project read-only (where no sandbox works: on your machine, unsandboxed, with your rights: ${onHost})`;
}

function describeMcp(server: SourcedMcpServer): string {
  if (server.url !== undefined) {
    const headers = Object.keys(server.headers ?? {});
    const sent = headers.length === 0 ? "" : ` with the headers ${headers.join(", ")}`;
    return `connect to the MCP server ${JSON.stringify(server.name)} at ${server.url}${sent}`;
  }
  // Each argument quoted as a shell would show it: the line shows where one ends and the next begins.
  const commandLine = shellWords([server.command ?? "", ...(server.args ?? [])]);
  const where = server.cwd === undefined ? "" : ` in ${server.cwd}`;
  const variables = Object.keys(server.env ?? {});
  const env = variables.length === 0 ? "" : ` with ${variables.join(", ")} set`;
  return `start the MCP server ${JSON.stringify(server.name)}: \`${commandLine}\`${where}${env}${passing(server.pass_env)}`;
}

function passing(names: readonly string[] | undefined): string {
  return names === undefined || names.length === 0 ? "" : `, passing it your ${names.join(", ")}`;
}

/** One request per leaf value: `sets shell.network = true`. */
function unknownSettings(key: string, value: unknown): TrustRequest[] {
  if (typeof value === "object" && value !== null && !Array.isArray(value))
    return Object.entries(value).flatMap(([inner, innerValue]) =>
      unknownSettings(`${key}.${inner}`, innerValue),
    );
  return [{ kind: "setting", key, description: `set ${key} = ${JSON.stringify(value)}` }];
}
