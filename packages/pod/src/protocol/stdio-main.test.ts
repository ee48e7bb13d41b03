/**
 * A Pod as a real child process speaking the protocol over its standard streams
 * (`stdio-main.ts` through tsx), against the mock provider over HTTP.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { answer, toolCall, usePodTestbed } from "../../test/support/pod-test-kit.js";
import { gate, recordEvents, until } from "../../test/support/protocol-test-kit.js";
import { PodClient } from "./client.js";
import { serverMessageSchema } from "./wire-events.js";

const bed = usePodTestbed();
const here = path.dirname(fileURLToPath(import.meta.url));
const STDIO_MAIN = path.join(here, "stdio-main.ts");

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/** Starts the Pod child on the testbed's project, its manifest pointing at the mock. */
function startChild(manifest?: string): {
  child: Child;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
} {
  const { project, base, mock, put } = bed();
  put(
    ".yoake/manifest.toml",
    manifest ??
      `[model]\nscheme = "anthropic"\nid = "mock-model"\nbase_url = "${mock.baseURLFor("anthropic")}"\napi_key_env = "MOCK_KEY"\n`,
  );
  const child = spawn(
    process.execPath,
    ["--conditions=@yoake/source", "--import", "tsx", STDIO_MAIN, "--cwd", project, "--trust-project"],
    {
      cwd: path.resolve(here, "../.."),
      env: {
        PATH: process.env.PATH,
        HOME: path.join(base, "home"),
        XDG_STATE_HOME: path.join(base, "state"),
        MOCK_KEY: "test-key",
      },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

describe("stdio-main", () => {
  it("runs a Pod for its parent: hello, a run with a tool call, status, shutdown; stdout holds protocol lines only", async () => {
    const { mock, put, project } = bed();
    put("a.txt", "alpha\n");
    mock.enqueue(toolCall("read_file", { path: "a.txt" }), answer("it says alpha"));
    const { child, stdout, exit } = startChild();
    const client = await PodClient.over(child.stdout, child.stdin, { clientName: "parent" });
    expect(client.hello).toMatchObject({ projectRoot: project, status: { state: "idle", clients: 1 } });
    const events = recordEvents(client);

    await client.run("what does @a.txt say?");
    const end = await client.next("run_end");
    expect(end.result).toMatchObject({ status: "finished", text: "it says alpha" });
    expect(events.find((e) => e.event === "tool_result")).toMatchObject({
      name: "read_file",
      isError: false,
    });
    expect((await client.history()).items.at(-1)).toMatchObject({ role: "assistant", text: "it says alpha" });

    expect(await client.shutdown()).toEqual({ shuttingDown: true });
    expect(await exit).toBe(0);
    await client.closed;
    expect(events.at(-1)).toEqual({ event: "shutdown", reason: 'shutdown requested by client "parent"' });
    const lines = stdout()
      .split("\n")
      .filter((line) => line !== "");
    for (const line of lines)
      expect(serverMessageSchema.safeParse(JSON.parse(line)).success, line).toBe(true);
  }, 30_000);

  it("closing its standard input cancels the run and ends the process", async () => {
    const { mock } = bed();
    const held = gate();
    mock.setHandler(async () => {
      await held.opened;
      return answer("never seen");
    });
    const { child, exit } = startChild();
    const client = await PodClient.over(child.stdout, child.stdin);
    await client.run("a long question");
    await until(() => mock.requests.length === 1, "the request");
    const closedAt = Date.now();
    child.stdin.end();
    expect(await exit).toBe(0);
    // Cancelled, not waited for: the model never answers, and shutdown would wait 10 s for a run.
    expect(Date.now() - closedAt).toBeLessThan(5_000);
    held.open();
  }, 30_000);

  it("a Pod that cannot start says why on one line of standard error and exits with 1", async () => {
    const { child, stderr, exit } = startChild('[model]\nscheme = "nope"\n');
    child.stdin.end();
    expect(await exit).toBe(1);
    const lines = stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^yoake pod: invalid manifest: .*manifest\.toml: model\.scheme: /);
  }, 30_000);
});
