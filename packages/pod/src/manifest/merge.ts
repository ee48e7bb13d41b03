import path from "node:path";
import type { ScopeRule } from "../scope/rules.js";
import type { McpServerInput } from "./mcp-schema.js";
import type { HookInput, ManifestLayer, ScopeRuleInput } from "./schema.js";

/** A `[[hooks]]` entry and the file that declared it (a hook's alerts name it). */
export type SourcedHook = HookInput & { source: string };

/** A `[[mcp]]` entry, the file that declared it (alerts and errors name it) and its index there. */
export type SourcedMcpServer = McpServerInput & { source: string; index: number };

/** A layer whose scope rules are complete (access, recursion, source filled in) and whose hooks and MCP servers know their source. */
export type NormalizedLayer = Omit<ManifestLayer, "scope" | "hooks" | "mcp"> & {
  scope?: { allow?: ScopeRule[]; deny?: ScopeRule[]; hard_links?: boolean; secret_files?: string[] };
  hooks?: SourcedHook[];
  mcp?: SourcedMcpServer[];
};

/** A validated layer and where it came from: a file path, `defaults` or `overrides`. */
export interface SourcedLayer {
  source: string;
  layer: NormalizedLayer;
}

/** The merged cascade, and which layer set each scalar key (for messages and for "where does this come from?"). */
export interface MergedLayers {
  merged: NormalizedLayer;
  keySources: Record<string, string>;
}

/** Lists that add up across layers instead of replacing each other. */
const UNION_LISTS: ReadonlySet<string> = new Set([
  "scope.allow",
  "scope.deny",
  "hooks",
  "mcp",
  // A project must not drop the user's own always-ask commands.
  "shell.always_ask",
  // What the user's manifest reveals stays revealed; a project's (trusted) adds to it.
  "shell.reveal",
]);

/**
 * Fills in a layer's scope rules: a bare path means read access, recursive; `~/` is expanded; each
 * rule remembers the file it came from, so refusals can name it.
 */
export function normalizeLayer(layer: ManifestLayer, source: string, homeDir: string): NormalizedLayer {
  const { scope, hooks, mcp, shell, ...withoutHooks } = layer;
  const rest: NormalizedLayer = withoutHooks;
  if (shell !== undefined)
    rest.shell =
      shell.reveal === undefined
        ? shell
        : { ...shell, reveal: shell.reveal.map((p) => expandHome(p, homeDir)) };
  if (hooks !== undefined) rest.hooks = hooks.map((hook) => ({ ...hook, source }));
  if (mcp !== undefined)
    rest.mcp = mcp.map((server, index) => ({
      ...server,
      ...(server.cwd !== undefined && { cwd: expandHome(server.cwd, homeDir) }),
      source,
      index,
    }));
  if (scope === undefined) return rest;
  const complete = (rule: ScopeRuleInput): ScopeRule => {
    const table = typeof rule === "string" ? { path: rule } : rule;
    return {
      path: expandHome(table.path, homeDir),
      access: table.access ?? "read",
      recursive: table.recursive ?? true,
      source,
    };
  };
  const normalized: NonNullable<NormalizedLayer["scope"]> = {};
  if (scope.hard_links !== undefined) normalized.hard_links = scope.hard_links;
  if (scope.allow !== undefined) normalized.allow = scope.allow.map(complete);
  if (scope.deny !== undefined) normalized.deny = scope.deny.map(complete);
  if (scope.secret_files !== undefined) normalized.secret_files = [...scope.secret_files];
  return { ...rest, scope: normalized };
}

function expandHome(rulePath: string, homeDir: string): string {
  if (rulePath === "~") return homeDir;
  if (rulePath.startsWith("~/")) return path.join(homeDir, rulePath.slice(2));
  return rulePath;
}

/**
 * Merges layers, lowest first: scalars and ordinary arrays replace, tables merge by key, scope
 * allow/deny lists, `[[hooks]]` and `[[mcp]]` are unions (`[[mcp]]` entries are matched by name later, in resolve). One exception: a layer that names a model (`ref`, `scheme` or `id`)
 * replaces the whole `[model]` table, so limits, prices or a base URL meant for one model never
 * stick to another (naming the model the table already names keeps it).
 */
export function mergeLayers(layers: readonly SourcedLayer[]): MergedLayers {
  const merged: Record<string, unknown> = {};
  const keySources: Record<string, string> = {};
  for (const { source, layer } of layers) mergeTable(merged, layer, "", source, keySources);
  return { merged: merged as NormalizedLayer, keySources };
}

function mergeTable(
  target: Record<string, unknown>,
  patch: object,
  prefix: string,
  source: string,
  keySources: Record<string, string>,
): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const dotted = prefix === "" ? key : `${prefix}.${key}`;
    if (UNION_LISTS.has(dotted)) {
      const existing = Array.isArray(target[key]) ? (target[key] as unknown[]) : [];
      target[key] = [...existing, ...(value as unknown[])];
      continue;
    }
    if (isTable(value)) {
      if (dotted === "model" && namesModel(value) && !namesSameModel(target[key], value)) {
        delete target[key];
        for (const sourced of Object.keys(keySources)) {
          if (sourced.startsWith("model.")) delete keySources[sourced];
        }
      }
      const existing = target[key];
      const table: Record<string, unknown> = isTable(existing) ? existing : {};
      target[key] = table;
      mergeTable(table, value, dotted, source, keySources);
      continue;
    }
    target[key] = value;
    keySources[dotted] = source;
  }
}

function namesModel(table: Record<string, unknown>): boolean {
  return table.ref !== undefined || table.scheme !== undefined || table.id !== undefined;
}

/** `--model x` over a manifest that describes x (its window, prices): the description stays. */
function namesSameModel(existing: unknown, patch: Record<string, unknown>): boolean {
  if (!isTable(existing)) return false;
  return (["ref", "scheme", "id"] as const).every(
    (key) => patch[key] === undefined || patch[key] === existing[key],
  );
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
