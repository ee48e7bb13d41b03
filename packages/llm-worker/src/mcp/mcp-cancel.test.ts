/**
 * Cancellation, timeouts and the end of a connection, against server-everything over stdio. A
 * transport that records what the client sends shows the MCP `notifications/cancelled`.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EVERYTHING_ENTRY,
  eventually,
  mockWorker,
  type RecordingTransport,
  recordingStdioTransport,
  toolResults,
} from "../../test/support/mcp-test-servers.js";
import { type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import { connectMcp, type McpCloseInfo } from "./mcp-connection.js";

let provider: MockProvider;
beforeEach(async () => {
  provider = await startMockProvider();
});
afterEach(() => provider.close());

function everythingRecorded(): RecordingTransport {
  return recordingStdioTransport({ command: process.execPath, args: [EVERYTHING_ENTRY, "stdio"] });
}

/** The id of the `tools/call` request for `tool`, and the ids the client cancelled. */
function callAndCancels(
  sent: readonly JSONRPCMessage[],
  tool: string,
): { callId: unknown; cancelled: unknown[] } {
  const call = sent.find(
    (m) => "method" in m && m.method === "tools/call" && (m.params as { name?: string }).name === tool,
  );
  const cancelled = sent.flatMap((m) =>
    "method" in m && m.method === "notifications/cancelled"
      ? [(m.params as { requestId: unknown }).requestId]
      : [],
  );
  return { callId: call && "id" in call ? call.id : undefined, cancelled };
}

const LONG_CALL = {
  type: "tool_call" as const,
  id: "long",
  name: "everything__trigger-long-running-operation",
  arguments: { duration: 30, steps: 30 },
};

describe("cancellation reaches the MCP server", () => {
  it("aborting the run cancels the tool call with notifications/cancelled, and the connection lives on", async () => {
    const recorded = everythingRecorded();
    const everything = await connectMcp({ name: "everything", transport: recorded.transport });
    try {
      provider.enqueue({ blocks: [LONG_CALL] });
      const worker = mockWorker(provider, { tools: everything.tools() });
      const controller = new AbortController();
      worker.onToolStart(() => setTimeout(() => controller.abort(), 100));

      const started = Date.now();
      const result = await worker.run("Run the long operation.", { signal: controller.signal });
      expect(result.status).toBe("cancelled");
      expect(Date.now() - started).toBeLessThan(5000);
      expect(toolResults(worker)[0]?.content).toMatch(/cancelled/);

      await eventually(
        () => callAndCancels(recorded.sent, "trigger-long-running-operation").cancelled.length > 0,
      );
      const { callId, cancelled } = callAndCancels(recorded.sent, "trigger-long-running-operation");
      expect(callId).toBeDefined();
      expect(cancelled).toEqual([callId]);

      // The same connection still answers.
      provider.enqueue(
        { blocks: [{ type: "tool_call", name: "everything__echo", arguments: { message: "still here" } }] },
        { blocks: [{ type: "text", text: "ok" }] },
      );
      expect((await worker.run("Echo something.")).status).toBe("finished");
      expect(toolResults(worker).at(-1)?.content).toBe("Echo: still here");
    } finally {
      await everything.close();
    }
  });

  it("a call over toolTimeoutMs becomes a timeout result and is cancelled on the server", async () => {
    const recorded = everythingRecorded();
    const everything = await connectMcp({
      name: "everything",
      transport: recorded.transport,
      toolTimeoutMs: 300,
    });
    try {
      expect(everything.tools().every((t) => t.timeoutMs === 300)).toBe(true);
      provider.enqueue({ blocks: [LONG_CALL] }, { blocks: [{ type: "text", text: "too slow" }] });
      const worker = mockWorker(provider, { tools: everything.tools() });

      const result = await worker.run("Run the long operation.");
      expect(result.status).toBe("finished");
      const [timedOut] = toolResults(worker);
      expect(timedOut).toMatchObject({
        isError: true,
        content: "everything__trigger-long-running-operation timed out after 300 ms",
      });
      await eventually(
        () => callAndCancels(recorded.sent, "trigger-long-running-operation").cancelled.length > 0,
      );
      const { callId, cancelled } = callAndCancels(recorded.sent, "trigger-long-running-operation");
      expect(cancelled).toEqual([callId]);
    } finally {
      await everything.close();
    }
  });

  it("bounds the MCP request by toolTimeoutMs outside a Worker too", async () => {
    const everything = await connectMcp({
      name: "everything",
      transport: everythingRecorded().transport,
      toolTimeoutMs: 200,
    });
    try {
      const long = everything.tools().find((t) => t.mcpName === "trigger-long-running-operation");
      const started = Date.now();
      await expect(
        long?.execute(
          { duration: 30, steps: 30 },
          { signal: new AbortController().signal, callId: "x", toolName: long.name },
        ),
      ).rejects.toThrow(/timed out/i);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await everything.close();
    }
  });
});

describe("the end of a connection", () => {
  it("close() stops the server, says it was requested, and later calls fail with a clear message", async () => {
    const recorded = everythingRecorded();
    const everything = await connectMcp({ name: "everything", transport: recorded.transport });
    const pid = recorded.pid();
    const closes: McpCloseInfo[] = [];
    everything.onClose((info) => closes.push(info));

    await everything.close();
    await everything.close();
    expect(closes).toEqual([{ requested: true, stderr: "" }]);
    expect(everything.closed?.requested).toBe(true);
    await eventually(() => !isRunning(pid));

    const echo = everything.tools().find((t) => t.mcpName === "echo");
    await expect(
      echo?.execute({ message: "hi" }, { signal: new AbortController().signal, callId: "x", toolName: "e" }),
    ).rejects.toThrow('MCP server "everything" is not connected: it was closed');
  });

  it("a server that dies is reported as not requested, with the end of its stderr", async () => {
    const everything = await connectMcp({
      name: "everything",
      command: process.execPath,
      args: [
        "-e",
        // Answers the handshake like a server would, then crashes on the first tool call.
        `process.stdin.on("data", (d) => { for (const line of String(d).split("\\n").filter(Boolean)) {
           const m = JSON.parse(line);
           if (m.method === "initialize") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "fragile", version: "1" } } }) + "\\n");
           else if (m.method === "tools/list") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "boom", inputSchema: { type: "object" } }] } }) + "\\n");
           else if (m.method === "tools/call") { console.error("fatal: out of cheese"); process.exit(70); }
         } });`,
      ],
    });
    const closes: McpCloseInfo[] = [];
    everything.onClose((info) => closes.push(info));
    provider.enqueue(
      { blocks: [{ type: "tool_call", name: "everything__boom", arguments: {} }] },
      { blocks: [{ type: "text", text: "it broke" }] },
    );
    const worker = mockWorker(provider, { tools: everything.tools() });

    expect((await worker.run("Break it.")).status).toBe("finished");
    expect(toolResults(worker)[0]).toMatchObject({ isError: true });
    expect(toolResults(worker)[0]?.content).toMatch(/^everything__boom failed: /);
    await eventually(() => closes.length > 0);
    expect(closes[0]?.requested).toBe(false);
    expect(closes[0]?.stderr).toContain("fatal: out of cheese");

    const late: McpCloseInfo[] = [];
    everything.onClose((info) => late.push(info));
    expect(late).toEqual(closes);
    await expect(
      everything
        .tools()[0]
        ?.execute({}, { signal: new AbortController().signal, callId: "x", toolName: "b" }),
    ).rejects.toThrow('MCP server "everything" is not connected: the server exited (fatal: out of cheese)');
  });
});

function isRunning(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
