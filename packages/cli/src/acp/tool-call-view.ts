import path from "node:path";
import type { ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { toolCallLabel } from "../tool-call-label.js";

/** How an editor shows a tool call: a one-line title, an icon (`kind`) and the files it touches. */
export interface ToolCallView {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

/** The Pod's own tools. */
const KNOWN_KINDS: ReadonlyMap<string, ToolKind> = new Map(
  Object.entries({
    read_file: "read",
    inspect: "read",
    write_file: "edit",
    edit_file: "edit",
    grep: "search",
    glob: "search",
  } satisfies Record<string, ToolKind>),
);

/** For other tools (MCP servers, an embedder's): words of the name that tell what a tool does. */
const WORD_KINDS: ReadonlyMap<string, ToolKind> = new Map(
  Object.entries({
    read: "read",
    view: "read",
    cat: "read",
    get: "read",
    open: "read",
    list: "read",
    edit: "edit",
    write: "edit",
    patch: "edit",
    replace: "edit",
    create: "edit",
    update: "edit",
    insert: "edit",
    append: "edit",
    delete: "delete",
    remove: "delete",
    rm: "delete",
    move: "move",
    rename: "move",
    mv: "move",
    search: "search",
    grep: "search",
    find: "search",
    glob: "search",
    query: "search",
    bash: "execute",
    shell: "execute",
    exec: "execute",
    execute: "execute",
    command: "execute",
    terminal: "execute",
    run: "execute",
    fetch: "fetch",
    http: "fetch",
    download: "fetch",
    curl: "fetch",
    web: "fetch",
  } satisfies Record<string, ToolKind>),
);

const kindCache = new Map<string, ToolKind>();

/**
 * The ACP kind of a tool, from its name: the Pod's tools by name; others by the last word of the
 * name that says something (`filesystem__read_text_file` → read, `run_tests` → execute), so an MCP
 * server's prefix weighs less than the tool's own verb; `other` when no word does.
 */
export function toolKind(name: string): ToolKind {
  const known = KNOWN_KINDS.get(name) ?? kindCache.get(name);
  if (known !== undefined) return known;
  const words = name.toLowerCase().split(/[^a-z0-9]+/);
  let kind: ToolKind = "other";
  for (let i = words.length - 1; i >= 0; i--) {
    const match = WORD_KINDS.get(words[i] as string);
    if (match !== undefined) {
      kind = match;
      break;
    }
  }
  kindCache.set(name, kind);
  return kind;
}

/**
 * The view of a call once its arguments are known. A `path` argument of a tool that reads or
 * edits is a location (absolute, as ACP wants; relative paths are the project root's), with the
 * `offset` line of a partial read, so an editor can follow the agent through the files.
 */
export function toolCallView(call: { name: string; arguments: unknown }, projectRoot: string): ToolCallView {
  const kind = toolKind(call.name);
  return { title: toolCallLabel(call), kind, locations: locationsOf(kind, call.arguments, projectRoot) };
}

function locationsOf(kind: ToolKind, args: unknown, projectRoot: string): ToolCallLocation[] {
  if (kind !== "read" && kind !== "edit" && kind !== "delete") return [];
  if (typeof args !== "object" || args === null) return [];
  const record = args as Record<string, unknown>;
  const file = record.path;
  if (typeof file !== "string" || file === "") return [];
  const location: ToolCallLocation = { path: path.resolve(projectRoot, file) };
  const offset = record.offset;
  if (typeof offset === "number" && Number.isInteger(offset) && offset > 0) location.line = offset;
  return [location];
}
