/**
 * The supervisor on its own, with a plain map as the Worker's tools: a slow start, a server that
 * keeps dying, the tool set following the server. The server is the real server-everything behind
 * a small launcher that can be made to fail or to start slowly.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Tool } from "@yoake/llm-worker";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EVERYTHING_ENTRY, eventually, serverPids } from "../../test/support/mcp-test-servers.js";
import type { McpServerSpec } from "../manifest/mcp-resolve.js";
import type { Alert } from "../pod/alert.js";
import { McpSupervisor } from "./mcp-supervisor.js";

/** Exits with an error while `<dir>/broken` exists; waits `<dir>/delay` ms (if present) first. */
const LAUNCHER = `
import { existsSync, readFileSync } from "node:fs";
const dir = process.argv[2];
if (existsSync(dir + "/broken")) { console.error("broken on purpose"); process.exit(1); }
if (existsSync(dir + "/delay")) await new Promise((r) => setTimeout(r, Number(readFileSync(dir + "/delay", "utf8"))));
process.argv.splice(2, 1);
await import(${JSON.stringify(pathToFileURL(EVERYTHING_ENTRY).href)});
`;

let dir: string;
let supervisor: McpSupervisor | undefined;
const tools = new Map<string, Tool>();
const alerts: Alert[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "yoake-mcp-supervisor-"));
  writeFileSync(path.join(dir, "launcher.mjs"), LAUNCHER);
  tools.clear();
  alerts.length = 0;
});
afterEach(async () => {
  await supervisor?.close();
  supervisor = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function spec(): McpServerSpec {
  return {
    name: "everything",
    // The directory doubles as the marker that finds the process.
    transport: {
      type: "stdio",
      command: process.execPath,
      args: [path.join(dir, "launcher.mjs"), dir],
      env: {},
    },
    source: "test",
  };
}

function supervise(options: { startupWaitMs?: number; maxRestarts?: number } = {}): McpSupervisor {
  supervisor = new McpSupervisor([spec()], {
    tools: { addTool: (tool) => tools.set(tool.name, tool), removeTool: (name) => tools.delete(name) },
    alert: (alert) => alerts.push(alert),
    policy: { initialDelayMs: 20, maxDelayMs: 40, maxRestarts: options.maxRestarts ?? 3 },
    // Waits for the server unless told otherwise (the Pod does not wait: MCP_STARTUP_WAIT_MS).
    startupWaitMs: options.startupWaitMs ?? 30_000,
  });
  return supervisor;
}

describe.skipIf(process.platform === "win32")("McpSupervisor", () => {
  it("does not wait past startupWaitMs for a slow server; its tools arrive when it is ready", async () => {
    writeFileSync(path.join(dir, "delay"), "1500");
    const mcp = supervise({ startupWaitMs: 100 });
    const started = Date.now();
    await mcp.start();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(mcp.servers()[0]).toMatchObject({ state: "starting", tools: 0 });

    await eventually(() => mcp.servers()[0]?.state === "running");
    expect(tools.has("everything__echo")).toBe(true);
    expect(mcp.servers()[0]?.tools).toBe(tools.size);
  }, 20_000);

  it("gives up on a server that keeps failing to restart, with an error alert", async () => {
    const mcp = supervise({ maxRestarts: 3 });
    await mcp.start();
    expect(tools.size).toBeGreaterThan(0);

    writeFileSync(path.join(dir, "broken"), "");
    for (const pid of serverPids(dir)) process.kill(pid, "SIGKILL");
    await eventually(() => mcp.servers()[0]?.state === "failed");

    expect(tools.size).toBe(0);
    expect(mcp.servers()[0]).toMatchObject({
      restarts: 3,
      error: expect.stringContaining("broken on purpose"),
    });
    expect(alerts.map((alert) => alert.level)).toEqual(["warn", "warn", "warn", "error"]);
    expect(alerts[1]?.message).toMatch(/exited before completing the MCP handshake.*try 2 of 3/s);
    expect(alerts[3]?.message).toMatch(/gave up after 3 restarts/);
    expect(serverPids(dir)).toEqual([]);
  }, 20_000);

  it("a restart that succeeds after failures brings the tools back", async () => {
    const mcp = supervise({ maxRestarts: 10 });
    await mcp.start();
    const before = [...tools.keys()];

    writeFileSync(path.join(dir, "broken"), "");
    for (const pid of serverPids(dir)) process.kill(pid, "SIGKILL");
    await eventually(() => alerts.length >= 2);
    expect(tools.size).toBe(0);
    rmSync(path.join(dir, "broken"));

    await eventually(() => mcp.servers()[0]?.state === "running");
    expect([...tools.keys()]).toEqual(before);
    expect(alerts.at(-1)).toMatchObject({ level: "info", source: "mcp:everything" });
  }, 20_000);

  it("close during a pending restart stops it for good", async () => {
    const mcp = new McpSupervisor([spec()], {
      tools: { addTool: (tool) => tools.set(tool.name, tool), removeTool: (name) => tools.delete(name) },
      alert: (alert) => alerts.push(alert),
      policy: { initialDelayMs: 300 },
      startupWaitMs: 30_000,
    });
    supervisor = mcp;
    await mcp.start();
    for (const pid of serverPids(dir)) process.kill(pid, "SIGKILL");
    await eventually(() => mcp.servers()[0]?.state === "restarting");

    await mcp.close();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(mcp.servers()[0]?.state).toBe("stopped");
    expect(serverPids(dir)).toEqual([]);
  }, 20_000);
});
