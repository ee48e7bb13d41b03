/**
 * `[[mcp]]` servers through a real Pod: the real `@modelcontextprotocol/server-everything` over
 * stdio, the mock provider over HTTP.
 */
import { describe, expect, it } from "vitest";
import { eventually, everythingEntry, serverPids } from "../../test/support/mcp-test-servers.js";
import { answer, toolCall, usePodTestbed } from "../../test/support/pod-test-kit.js";
import type { Pod } from "../pod.js";

const bed = usePodTestbed();

const alertsOf = (pod: Pod) =>
  bed()
    .events(pod)
    .filter((event) => event.type === "alert");

/** The servers no longer `starting`: `Pod.create` does not wait for them. */
const started = (pod: Pod) =>
  eventually(() => pod.mcpServers().every((server) => server.state !== "starting"));

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(process.platform === "win32")("MCP servers in the Pod", () => {
  it("starts the manifest's server with the Pod; the model calls its tools in a turn", async () => {
    const { createPod, mock, sent } = bed();
    const { entry } = everythingEntry();
    const pod = await createPod({ mcp: [entry] });
    await started(pod);
    try {
      const [status] = pod.mcpServers();
      expect(status).toMatchObject({ name: "everything", state: "running", transport: "stdio", restarts: 0 });
      expect(status?.tools).toBeGreaterThan(5);
      expect(status?.toolNames).toContain("everything__echo");

      mock.enqueue(toolCall("everything__echo", { message: "from the pod" }), answer("echoed"));
      const result = await pod.run("echo something");

      expect(result).toMatchObject({ status: "finished", text: "echoed" });
      expect(pod.history.find((item) => item.type === "tool_result")).toMatchObject({
        content: "Echo: from the pod",
      });
      expect(sent(0)).toContain('"name":"everything__echo"');
      expect(alertsOf(pod)).toEqual([]);
    } finally {
      await pod.close();
    }
  }, 30_000);

  it("a server that cannot start raises a warning alert, and the Pod runs without it", async () => {
    const { createPod, mock } = bed();
    const pod = await createPod({ mcp: [{ name: "ghost", command: "yoake-no-such-mcp-server" }] });
    await started(pod);
    try {
      expect(pod.mcpServers()).toEqual([
        {
          name: "ghost",
          state: "failed",
          tools: 0,
          toolNames: [],
          transport: "stdio",
          target: "yoake-no-such-mcp-server",
          restarts: 0,
          error: expect.stringContaining("command not found: yoake-no-such-mcp-server"),
          source: "overrides",
        },
      ]);
      // Raised as it failed, after Pod.create returned: the listener attached after create sees it.
      await eventually(() => alertsOf(pod).length > 0);
      expect(alertsOf(pod)).toEqual([
        {
          type: "alert",
          level: "warn",
          source: "mcp:ghost",
          message: expect.stringMatching(
            /^MCP server "ghost" .*command not found: yoake-no-such-mcp-server; the Pod runs without it$/,
          ),
        },
      ]);

      mock.enqueue(answer("fine"));
      expect(await pod.run("hello")).toMatchObject({ status: "finished", text: "fine" });
    } finally {
      await pod.close();
    }
  });

  it("a server that never answers its handshake holds up neither Pod.create nor a run; its tools come when ready", async () => {
    const { createPod, mock, put, project } = bed();
    // Reads the handshake and never answers it: no time limit ends this within the test.
    put("mute-server.mjs", "process.stdin.resume();\n");
    const pod = await createPod({
      mcp: [
        {
          name: "mute",
          command: process.execPath,
          args: [`${project}/mute-server.mjs`],
          startup_timeout_ms: 600_000,
        },
      ],
    });
    try {
      mock.enqueue(answer("no waiting"));
      expect(await pod.run("hello")).toMatchObject({ status: "finished", text: "no waiting" });
      expect(pod.mcpServers()[0]?.state).toBe("starting");
    } finally {
      await pod.close();
    }
  });

  it("restarts a server whose process was killed, and its tools work again", async () => {
    const { createPod, mock } = bed();
    const { entry, marker } = everythingEntry();
    const pod = await createPod({ mcp: [entry] });
    await started(pod);
    try {
      const [first] = serverPids(marker);
      expect(first).toBeDefined();
      process.kill(first as number, "SIGKILL");

      await eventually(() => pod.mcpServers()[0]?.state === "restarting");
      expect(pod.mcpServers()[0]).toMatchObject({ tools: 0, restarts: 1 });
      await eventually(() => pod.mcpServers()[0]?.state === "running");
      const second = serverPids(marker);
      expect(second).toHaveLength(1);
      expect(second[0]).not.toBe(first);

      expect(alertsOf(pod).map(({ level, source, message }) => ({ level, source, message }))).toEqual([
        {
          level: "warn",
          source: "mcp:everything",
          message: expect.stringMatching(
            /^MCP server "everything" exited.*; restarting in 500 ms \(try 1 of 5\)$/,
          ),
        },
        {
          level: "info",
          source: "mcp:everything",
          message: expect.stringMatching(/^MCP server "everything" restarted with \d+ tools$/),
        },
      ]);

      mock.enqueue(toolCall("everything__echo", { message: "again" }), answer("ok"));
      await pod.run("echo again");
      expect(pod.history.find((item) => item.type === "tool_result")).toMatchObject({
        content: "Echo: again",
      });
    } finally {
      await pod.close();
    }
  }, 30_000);

  it("a call to a server that died mid-run answers an error result", async () => {
    const { createPod, mock } = bed();
    const { entry, marker } = everythingEntry();
    const pod = await createPod({ mcp: [entry] });
    await started(pod);
    try {
      mock.enqueue(
        toolCall("everything__trigger-long-running-operation", { duration: 30, steps: 30 }),
        answer("it broke"),
      );
      pod.on("tool_start", () => {
        for (const pid of serverPids(marker)) process.kill(pid, "SIGKILL");
      });
      const result = await pod.run("run the long operation");
      expect(result).toMatchObject({ status: "finished", text: "it broke" });
      expect(pod.history.find((item) => item.type === "tool_result")).toMatchObject({ isError: true });
    } finally {
      await pod.close();
    }
  }, 30_000);

  it("a cancelled run cancels the server's long call, and the server goes on", async () => {
    const { createPod, mock } = bed();
    const { entry } = everythingEntry();
    const pod = await createPod({ mcp: [entry] });
    await started(pod);
    try {
      mock.enqueue(toolCall("everything__trigger-long-running-operation", { duration: 30, steps: 30 }));
      pod.on("tool_start", () => setTimeout(() => pod.cancel(), 100));
      const started = Date.now();
      const result = await pod.run("run the long operation");

      expect(result.status).toBe("cancelled");
      expect(Date.now() - started).toBeLessThan(5000);
      expect(pod.history.find((item) => item.type === "tool_result")).toMatchObject({
        content: expect.stringMatching(/cancelled/),
      });
      expect(pod.mcpServers()[0]?.state).toBe("running");

      mock.enqueue(toolCall("everything__echo", { message: "still here" }), answer("ok"));
      await pod.run("echo");
      expect(pod.history.filter((item) => item.type === "tool_result").at(-1)).toMatchObject({
        content: "Echo: still here",
      });
    } finally {
      await pod.close();
    }
  }, 30_000);

  it("close stops the server: no process is left, and it is not restarted", async () => {
    const { createPod } = bed();
    const { entry, marker } = everythingEntry();
    const pod = await createPod({ mcp: [entry] });
    await started(pod);
    const [pid] = serverPids(marker);
    expect(pid).toBeDefined();

    await pod.close();

    expect(pod.mcpServers()[0]).toMatchObject({ state: "stopped", tools: 0 });
    await eventually(() => !isAlive(pid as number), 5000);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(serverPids(marker)).toEqual([]);
    expect(alertsOf(pod)).toEqual([]);
  }, 30_000);

  it("offers no tool the manifest disables", async () => {
    const { createPod, mock, sent } = bed();
    const { entry } = everythingEntry();
    const pod = await createPod({ mcp: [entry], tools: { disable: ["everything__echo"] } });
    await started(pod);
    try {
      mock.enqueue(answer("ok"));
      await pod.run("hi");
      expect(sent(0)).not.toContain('"name":"everything__echo"');
      expect(sent(0)).toContain('"name":"everything__get-sum"');
    } finally {
      await pod.close();
    }
  }, 30_000);
});
