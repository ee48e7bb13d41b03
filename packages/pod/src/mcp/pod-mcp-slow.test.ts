/**
 * An `[[mcp]]` server that never completes its handshake, as a real child process: the Pod's
 * first request does not wait for it, and a warning names it within seconds.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eventually, serverPids } from "../../test/support/mcp-test-servers.js";
import { answer, usePodTestbed } from "../../test/support/pod-test-kit.js";

const bed = usePodTestbed();

describe.skipIf(process.platform === "win32")("an MCP server that never answers its handshake", () => {
  it("holds no request, and is named in a warning", async () => {
    const { createPod, mock, events } = bed();
    const marker = `--yoake-test=${randomUUID()}`;
    // Alive, reading nothing, answering nothing: the `initialize` request waits forever.
    const script = `setInterval(() => {}, 1e6); // ${marker}`;
    const silent = { name: "silent", command: process.execPath, args: ["-e", script] };
    const pod = await createPod({ mcp: [silent] });
    try {
      await eventually(() => serverPids(marker).length > 0);
      mock.enqueue(answer("without it"));
      expect(await pod.run("hello")).toMatchObject({ status: "finished", text: "without it" });
      // Answered while the server still waits for its handshake: the request was not held for it.
      expect(pod.mcpServers()).toMatchObject([{ name: "silent", state: "starting" }]);

      const alerts = () => events(pod).filter((event) => event.type === "alert");
      await eventually(() => alerts().length > 0, 30_000);
      expect(alerts()).toEqual([
        {
          type: "alert",
          level: "warn",
          source: "mcp:silent",
          message: expect.stringMatching(
            /^MCP server "silent" \(.*setInterval.*\) has not completed its handshake after 5 s; requests go without its tools until it does$/,
          ),
        },
      ]);
    } finally {
      await pod.close();
    }
    await eventually(() => serverPids(marker).length === 0);
  }, 60_000);
});
