/**
 * Test support for the file tools: a real temporary directory holding a project and, beside it,
 * an "outside" directory the scope does not cover, and a way to call a tool as the Worker does
 * (arguments checked by the tool's schema, then `execute`).
 */
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Tool } from "@yoake/llm-worker";
import type { ToolResultValue } from "@yoake/llm-worker/internal";
import type { ScopeRule } from "../../src/scope/rules.js";
import { ScopedFs } from "../../src/scope/scoped-fs.js";

export interface TempProject {
  /** The canonical temporary directory holding `root` and `outside`. */
  base: string;
  /** The project root: the scope allows writing everything below it. */
  root: string;
  /** A directory beside the project, outside the scope. */
  outside: string;
  fs: ScopedFs;
  /** Writes a file below `base` (`project/...` or `outside/...`), creating its directories. */
  put(relative: string, content: string | Uint8Array, mtimeSeconds?: number): string;
  /** Creates a symbolic link at `relative` (below `base`) pointing to `target`. */
  link(relative: string, target: string): void;
  remove(): void;
}

/** A project whose scope is `allow write "."` plus the given deny rules. */
export async function createTempProject(deny: ScopeRule[] = []): Promise<TempProject> {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-file-tools-")));
  const root = path.join(base, "project");
  const outside = path.join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  const fs = await ScopedFs.create({
    root,
    allow: [{ path: ".", access: "write", recursive: true, source: "test" }],
    deny,
  });
  return {
    base,
    root,
    outside,
    fs,
    put(relative, content, mtimeSeconds) {
      const file = path.join(base, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      if (mtimeSeconds !== undefined) utimesSync(file, mtimeSeconds, mtimeSeconds);
      return file;
    },
    link(relative, target) {
      const at = path.join(base, relative);
      mkdirSync(path.dirname(at), { recursive: true });
      symlinkSync(target, at);
    },
    remove() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Calls a tool as the Worker does: a schema failure or a throw becomes an `Error`. */
export async function runTool(tool: Tool, rawArguments: unknown, signal?: AbortSignal): Promise<string> {
  const parsed = tool.parseArguments(rawArguments);
  if (!parsed.ok) throw new Error(parsed.error);
  const result = await tool.execute(parsed.value, {
    signal: signal ?? new AbortController().signal,
    callId: "call_test",
    toolName: tool.name,
  });
  return textOf(result);
}

/** The text of a tool result, whatever form the tool returned it in. */
export function textOf(result: ToolResultValue): string {
  if (typeof result === "string") return result;
  if (result.kind === "inline") return result.text;
  if (result.kind === "images") return result.text ?? "";
  return result.content.kind === "text" ? result.content.text : JSON.stringify(result.content.value);
}

/** The message of the error `promise` rejects with (fails the test if it resolves). */
export async function failureOf(promise: Promise<unknown>): Promise<string> {
  const outcome = await promise.then(
    (value) => ({ resolved: value }),
    (error: unknown) => ({ error }),
  );
  if ("resolved" in outcome) throw new Error(`expected a failure, got ${JSON.stringify(outcome.resolved)}`);
  return outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
}
