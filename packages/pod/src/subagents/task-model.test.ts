/**
 * A `task` call that picks a model at a local endpoint (or another provider) waits for the user's
 * approval, through real Pods and the mock provider over HTTP. The Ollama endpoint is a real TCP
 * listener on this machine: denied, the child never starts and no connection arrives; allowed, the
 * child connects to it (which shows the listener would have seen a denied one).
 */
import { createServer, type Server, type Socket } from "node:net";
import type { MockReply, RecordedRequest } from "@yoake/llm-worker/testing";
import { afterEach, describe, expect, it } from "vitest";
import { answer, toolCall, usePodTestbed } from "../../test/support/pod-test-kit.js";
import { TaskModelApprovals } from "./task-model-approval.js";

const bed = usePodTestbed();

interface Body {
  messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: string }> }>;
}
const bodyOf = (request: RecordedRequest) => request.body as Body;
const firstText = (request: RecordedRequest) => bodyOf(request).messages[0]?.content[0]?.text ?? "";
const results = (request: RecordedRequest) =>
  bodyOf(request).messages.flatMap((m) => m.content.filter((b) => b.type === "tool_result"));
const isChild = (request: RecordedRequest) => firstText(request).startsWith("CHILD");
/** The parent's latest message answers a tool call: its next reply is the final answer. */
const answersTool = (request: RecordedRequest) =>
  (bodyOf(request).messages.at(-1)?.content ?? []).some((block) => block.type === "tool_result");

const sockets = new Set<Socket>();

/** A TCP listener standing where Ollama would: it counts connections and answers 400 at once. */
async function fakeOllama(): Promise<{ port: number; connections: () => number; server: Server }> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    socket.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { port: address.port, connections: () => count, server };
}

let listener: Server | undefined;
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => (listener === undefined ? resolve(undefined) : listener.close(resolve)));
  listener = undefined;
});

describe("a task call's model", () => {
  it("at a local endpoint asks first: denied, the child does not start and nothing connects", async () => {
    const { createPod, mock, events } = bed();
    const ollama = await fakeOllama();
    listener = ollama.server;
    mock.setHandler((request): MockReply => {
      if (isChild(request)) return answer("child answer");
      return !answersTool(request)
        ? toolCall("task", { description: "local", prompt: "CHILD read secrets", model: "ollama/gemma3:1b" })
        : answer("done");
    });
    const pod = await createPod(undefined, { OLLAMA_HOST: `http://127.0.0.1:${ollama.port}` });
    const paused = await pod.run("delegate");
    expect(paused.status).toBe("paused");
    expect(paused.permissionRequest).toMatchObject({
      tool: "task",
      model: { model: "ollama/gemma3:1b", local: true, endpoint: "http://localhost:11434" },
    });
    expect(paused.permissionRequest?.model?.reason).toContain("a local address");

    const denied = await pod.respond(paused.permissionRequest?.id ?? "", { deny: "no local models" });
    expect(denied).toMatchObject({ status: "finished", text: "done" });
    expect(results(mock.requests.at(-1) as RecordedRequest)[0]?.content).toContain("no local models");
    expect(events(pod).some((event) => event.type === "subagent")).toBe(false);
    expect(mock.requests.filter(isChild)).toHaveLength(0);
    expect(ollama.connections()).toBe(0);

    // Allowed, the same call starts the child, which connects to the listener.
    const again = await pod.run("delegate again");
    expect(again.permissionRequest?.model?.model).toBe("ollama/gemma3:1b");
    const allowed = await pod.respond(again.permissionRequest?.id ?? "", "allow_once");
    expect(allowed.status).toBe("finished");
    expect(ollama.connections()).toBeGreaterThan(0);
    expect(events(pod).some((event) => event.type === "subagent")).toBe(true);
  }, 60_000);

  it("where the parent's model goes asks nothing; another provider or a local one does", async () => {
    const { createPod, mock } = bed();
    mock.setHandler((request): MockReply => {
      if (isChild(request)) return answer("child answer");
      return results(request).length === 0
        ? toolCall("task", {
            description: "same",
            prompt: "CHILD count",
            model: "anthropic/claude-haiku-4-5",
          })
        : answer("done");
    });
    // The parent is a catalogue model, its endpoint the user's variable: the child's is the same.
    const pod = await createPod(
      { model: { ref: "anthropic/claude-sonnet-4-5" } },
      { ANTHROPIC_BASE_URL: mock.baseURLFor("anthropic"), ANTHROPIC_API_KEY: "test-key" },
    );
    expect(await pod.run("delegate")).toMatchObject({ status: "finished", text: "done" });
    expect(results(mock.requests.at(-1) as RecordedRequest)[0]?.content).toContain("child answer");
    expect(mock.requests.filter(isChild)).toHaveLength(1);

    const approvals = new TaskModelApprovals(pod.manifest.model);
    expect(approvals.check(undefined)).toBeUndefined();
    expect(approvals.check("anthropic/claude-opus-4-5")).toBeUndefined();
    expect(approvals.check("openai/gpt-5")).toMatchObject({
      local: false,
      endpoint: "https://api.openai.com/v1",
    });
    expect(approvals.check("openai/gpt-5")?.reason).toContain("another provider");
    const local = approvals.check("ollama/qwen3");
    expect(local).toMatchObject({ local: true });
    if (local === undefined) throw new Error("expected an ask");
    approvals.allowForSession(local);
    expect(approvals.check("ollama/qwen3")).toBeUndefined();
    expect(approvals.check("ollama/llama3")).toBeDefined();
  }, 60_000);
});
