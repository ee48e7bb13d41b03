/**
 * Test helpers: the real MCP servers installed as dev dependencies, spawned with this Node over
 * stdio, a transport that records what the client sends, and a Worker on the mock provider.
 */
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { createClient } from "../../src/llm-client/client.js";
import type { ToolResultItem } from "../../src/llm-client/item.js";
import type { McpStdioConfig } from "../../src/mcp/mcp-config.js";
import type { MockProvider } from "../../src/testing/mock-provider.js";
import { Worker, type WorkerOptions } from "../../src/worker/worker.js";

const require = createRequire(import.meta.url);
const entryOf = (pkg: string): string =>
  join(dirname(require.resolve(`${pkg}/package.json`)), "dist/index.js");

/** `@modelcontextprotocol/server-everything`'s entry: `stdio` (default) or `streamableHttp`. */
export const EVERYTHING_ENTRY = entryOf("@modelcontextprotocol/server-everything");
/** `@modelcontextprotocol/server-filesystem`'s entry; its arguments are the allowed directories. */
export const FILESYSTEM_ENTRY = entryOf("@modelcontextprotocol/server-filesystem");

/** server-everything over stdio, named `everything`. */
export function everythingConfig(overrides: Partial<McpStdioConfig> = {}): McpStdioConfig {
  return { name: "everything", command: process.execPath, args: [EVERYTHING_ENTRY, "stdio"], ...overrides };
}

/** A stdio transport that keeps every message the client sends, and the server's pid. */
export interface RecordingTransport {
  transport: Transport;
  sent: JSONRPCMessage[];
  pid(): number | null;
}

export function recordingStdioTransport(params: StdioServerParameters): RecordingTransport {
  const inner = new StdioClientTransport({ stderr: "ignore", ...params });
  const sent: JSONRPCMessage[] = [];
  const send = inner.send.bind(inner);
  inner.send = (message) => {
    sent.push(message);
    return send(message);
  };
  return { transport: inner, sent, pid: () => inner.pid };
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** A Worker whose model is the mock provider's Anthropic API. */
export function mockWorker(provider: MockProvider, options: Omit<WorkerOptions, "client">): Worker {
  const client = createClient({
    scheme: "anthropic",
    model: "mock-model",
    baseURL: provider.baseURLFor("anthropic"),
    apiKey: "test-key",
    retry: { maxRetries: 0 },
  });
  return new Worker({ client, ...options });
}

/** The tool results of a history, in order. */
export function toolResults(worker: Worker): ToolResultItem[] {
  return worker.history.filter((item): item is ToolResultItem => item.type === "tool_result");
}

/** Polls until `check` holds (for what a server does on its own time), failing after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not true after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
