/**
 * End to end: a Pod in a child process, against the mock provider, is SIGKILLed in the middle of a
 * run (its second request is on the wire); a Pod restored from the log it left continues the run.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Item } from "@yoake/llm-worker";
import { getScheme } from "@yoake/llm-worker/internal";
import { describe, expect, it } from "vitest";
import { answer, toolCall } from "../../test/support/pod-test-kit.js";
import { useSessionTestbed } from "../../test/support/session-test-kit.js";
import { restoreSession } from "./restore.js";

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const childScript = fileURLToPath(new URL("../../test/support/pod-crash-child.ts", import.meta.url));

const bed = useSessionTestbed();

/**
 * Runs the child Pod on the test's project and SIGKILLs it once `ready` says so (checked as the
 * child prints and as the mock receives requests); returns the session id it printed.
 */
async function killChildWhen(ready: (stdout: string) => boolean, mode?: "hang"): Promise<string> {
  const { mock, env, project } = bed();
  const child = spawn(
    process.execPath,
    [
      "--conditions=@yoake/source",
      "--import",
      tsxLoader,
      childScript,
      project,
      mock.baseURLFor("anthropic"),
      env.HOME as string,
      env.XDG_STATE_HOME as string,
      ...(mode === undefined ? [] : [mode]),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (data: string) => {
    stdout += data;
  });
  child.stderr.setEncoding("utf8").on("data", (data: string) => {
    stderr += data;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once("exit", (_code, signal) => resolve(signal)),
  );
  try {
    const deadline = Date.now() + 15_000;
    while (!ready(stdout)) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`the child did not reach the point to kill it at: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  expect(stdout).not.toContain("ended");
  const sessionId = /^session (\S+)$/m.exec(stdout)?.[1];
  expect(sessionId).toBeDefined();
  return sessionId as string;
}

describe("a Pod killed mid-run", () => {
  it("leaves a log from which a new Pod restores the run and finishes it", async () => {
    const { put, mock, open, entries } = bed();
    put("a.ts", "export const a = 1;\n");
    // The second request never gets an answer: the child is killed while it waits for one.
    mock.enqueue(toolCall("read_file", { path: "a.ts" }, "toolu_read"), { fault: "stall" });
    const sessionId = await killChildWhen(() => mock.requests.length >= 2);

    // What the child sent second is exactly what its log holds: the tool result was durable before the request.
    const logged = restoreSession(await entries(sessionId));
    expect(logged.lastRun).toEqual({ state: "interrupted" });
    expect(logged.history.map((item) => item.type)).toEqual(["message", "tool_call", "tool_result"]);
    expect(bed().body(1).messages).toEqual(messagesFor(logged.history));

    const pod = await open({ session: "latest" });
    expect(pod.sessionId).toBe(sessionId);
    expect(pod.restored?.lastRun).toEqual({ state: "interrupted" });
    // One line for the user, naming the crash (the CLI prints it; the TUI shows it as an alert).
    expect(pod.restored?.warnings).toEqual([
      `the last run of session ${sessionId} was interrupted (the process crashed or was killed) before it finished`,
    ]);
    expect(pod.status().state).toBe("paused");
    expect(pod.history).toEqual(logged.history);

    mock.enqueue(answer("a.ts exports a = 1."));
    expect(await pod.resume()).toMatchObject({ status: "finished", text: "a.ts exports a = 1." });
    expect(bed().body(2).messages).toEqual(messagesFor(logged.history));
    await pod.close();
    const after = restoreSession(await entries(pod.sessionId));
    expect(after.lastRun).toEqual({ state: "finished" });
    expect(after.history).toEqual(pod.history);
  });

  it("killed inside a tool call: continuing says so, and a new prompt answers the call as interrupted", async () => {
    const { mock, open, entries } = bed();
    mock.enqueue(toolCall("hang", {}, "toolu_hang"));
    const sessionId = await killChildWhen((stdout) => stdout.includes("tool started"), "hang");
    expect(restoreSession(await entries(sessionId)).openToolCalls).toMatchObject([{ callId: "toolu_hang" }]);

    const pod = await open({ session: "latest" });
    expect(pod.restored?.warnings).toEqual([
      `the last run of session ${sessionId} was interrupted (the process crashed or was killed) with 1 tool call unanswered (hang): the next prompt tells the model it was interrupted`,
    ]);
    mock.enqueue(answer("Understood."));
    expect(await pod.run("never mind")).toMatchObject({ status: "finished" });
    expect(pod.history.find((item) => item.type === "tool_result")).toMatchObject({
      callId: "toolu_hang",
      isError: true,
      content:
        "[cancelled: the run was interrupted (the process crashed or was killed) before this call was answered; hang did not complete]",
    });
    await pod.close();
    // The log holds the same answer: a later restore tells the model the same thing.
    expect(restoreSession(await entries(sessionId)).history).toEqual(pod.history);
  });
});

/** The Anthropic messages of `items`, as any Pod holding them sends them. */
function messagesFor(items: readonly Item[]): unknown {
  const http = getScheme("anthropic").buildHttpRequest(
    { items },
    { model: "mock-model", baseURL: bed().mock.baseURLFor("anthropic"), apiKey: "k" },
  );
  return (http.body as { messages: unknown }).messages;
}
