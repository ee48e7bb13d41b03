/**
 * Test helpers: the real `@modelcontextprotocol/server-everything` as a `[[mcp]]` entry, spawned
 * with this Node over stdio, and a way to find its process. Not a test file itself.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { McpServerInput } from "../../src/manifest/mcp-schema.js";

const require = createRequire(import.meta.url);

/** server-everything's entry; its first argument picks the transport (`stdio`). */
export const EVERYTHING_ENTRY = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

/**
 * A `[[mcp]]` entry for server-everything over stdio. `marker` is an extra argument the server
 * ignores, so that `serverPids(marker)` finds this test's process and no other.
 */
export function everythingEntry(overrides: Partial<McpServerInput> = {}): {
  entry: McpServerInput;
  marker: string;
} {
  const marker = `--yoake-test=${randomUUID()}`;
  const entry = { name: "everything", command: process.execPath, args: [EVERYTHING_ENTRY, "stdio", marker] };
  return { entry: { ...entry, ...overrides }, marker };
}

/** The pids of the live processes whose command line holds `marker`. */
export function serverPids(marker: string): number[] {
  const listing = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  const pids: number[] = [];
  for (const line of listing.split("\n")) {
    if (!line.includes(marker)) continue;
    const pid = Number.parseInt(line.trim(), 10);
    if (Number.isInteger(pid) && pid !== process.pid) pids.push(pid);
  }
  return pids;
}

/** Polls until `check` holds, failing after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not true after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
