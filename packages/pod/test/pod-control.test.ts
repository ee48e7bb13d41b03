/**
 * The Pod methods a client drives besides `run` and `respond`: `cancel`, `resume`, `notify` and
 * `status`, through a real Pod and the mock provider over HTTP.
 */
import { describe, expect, it } from "vitest";
import { answer, toolCall, usePodTestbed } from "./support/pod-test-kit.js";

const bed = usePodTestbed();

/** A reply the mock holds back until `open()`: the run stays in its request meanwhile. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("cancel", () => {
  it("aborts the request going on; the run ends cancelled and the Pod takes the next run", async () => {
    const { createPod, mock } = bed();
    const held = gate();
    mock.setHandler(async () => {
      await held.opened;
      return answer("too late");
    });
    const pod = await createPod();
    expect(pod.cancel()).toBe(false);

    const running = pod.run("a long question");
    await until(() => mock.requests.length === 1, "the request");
    expect(pod.status().state).toBe("running");
    expect(pod.cancel()).toBe(true);
    expect(pod.cancel()).toBe(false); // already cancelled
    expect(await running).toMatchObject({ status: "cancelled", by: "signal" });
    held.open();

    expect(pod.status().state).toBe("idle");
    mock.setHandler(undefined);
    mock.enqueue(answer("fine"));
    expect(await pod.run("again")).toMatchObject({ status: "finished", text: "fine" });
  });

  it("works beside the caller's own signal", async () => {
    const { createPod, mock } = bed();
    mock.setHandler(() => new Promise(() => {}));
    const pod = await createPod();
    const caller = new AbortController();
    const running = pod.run("q", { signal: caller.signal });
    await until(() => mock.requests.length === 1, "the request");
    caller.abort();
    expect(await running).toMatchObject({ status: "cancelled" });
  });
});

describe("notify", () => {
  it("adds a message to history at once when idle; the next request carries it", async () => {
    const { createPod, mock, sent } = bed();
    const pod = await createPod();
    const changes: unknown[] = [];
    pod.on("history_changed", (event) => changes.push(event));

    expect(pod.notify("the build server is down today")).toBe("added");
    expect(pod.notify("be brief", "system")).toBe("added");
    expect(pod.history).toEqual([
      { type: "message", role: "user", text: "the build server is down today" },
      { type: "message", role: "system", text: "be brief" },
    ]);
    expect(changes).toEqual([
      {
        type: "history_changed",
        reason: "notify",
        added: [{ type: "message", role: "user", text: "the build server is down today" }],
      },
      {
        type: "history_changed",
        reason: "notify",
        added: [{ type: "message", role: "system", text: "be brief" }],
      },
    ]);

    mock.enqueue(answer("noted"));
    await pod.run("what should I do?");
    expect(sent(0)).toContain("the build server is down today");
    expect(pod.history.map((item) => item.type === "message" && item.text)).toEqual([
      "the build server is down today",
      "be brief",
      "what should I do?",
      "noted",
    ]);
  });

  it("during a run, queues the note and adds it when the run ends", async () => {
    const { createPod, mock } = bed();
    const held = gate();
    mock.setHandler(async () => {
      await held.opened;
      return answer("done");
    });
    const pod = await createPod();
    const running = pod.run("work");
    await until(() => mock.requests.length === 1, "the request");

    expect(pod.notify("also check the docs")).toBe("queued");
    expect(pod.status().queuedNotes).toBe(1);
    expect(pod.history.at(-1)).toMatchObject({ role: "user", text: "work" });
    held.open();
    await running;

    expect(pod.status().queuedNotes).toBe(0);
    expect(pod.history.slice(-2)).toMatchObject([
      { type: "message", role: "assistant", text: "done" },
      { type: "message", role: "user", text: "also check the docs" },
    ]);
  });

  it("during a pause, the note waits; a new run replacing the pause sends it after its prompt", async () => {
    const { createPod, mock, sent } = bed();
    mock.enqueue(toolCall("write_file", { path: "a.md", content: "x" }), answer("moved on"));
    const pod = await createPod();
    expect((await pod.run("write")).status).toBe("paused");

    expect(pod.notify("use b.md instead")).toBe("queued");
    expect(await pod.run("never mind that")).toMatchObject({ status: "finished" });
    const texts = pod.history.flatMap((item) => (item.type === "message" ? [item.text] : []));
    expect(texts.slice(-3)).toEqual(["never mind that", "use b.md instead", "moved on"]);
    expect(sent(1)).toContain("use b.md instead");
    expect(pod.status().queuedNotes).toBe(0);
  });

  it("during a pause, an answer that finishes the run adds the note at its end", async () => {
    const { createPod, mock } = bed();
    mock.enqueue(toolCall("write_file", { path: "a.md", content: "x" }), answer("written"));
    const pod = await createPod();
    const paused = await pod.run("write");
    pod.notify("thanks");
    await pod.respond(paused.permissionRequest?.id ?? "", "allow_once");
    expect(pod.history.at(-1)).toEqual({ type: "message", role: "user", text: "thanks" });
  });
});

describe("resume", () => {
  it("refuses a run that waits for approval (that is respond) and when nothing is paused", async () => {
    const { createPod, mock } = bed();
    const pod = await createPod();
    await expect(pod.resume()).rejects.toThrow("there is no paused run to resume");
    mock.enqueue(toolCall("write_file", { path: "a.md", content: "x" }), answer("ok"));
    const paused = await pod.run("write");
    await expect(pod.resume()).rejects.toThrow(
      `the run waits for an answer to permission request ${paused.permissionRequest?.id}: respond to it`,
    );
    // The refusal left the pause as it was.
    expect(await pod.respond(paused.permissionRequest?.id ?? "", "allow_once")).toMatchObject({
      status: "finished",
    });
  });
});

describe("status", () => {
  it("reports the state, the model, the pending request and the usage of finished runs", async () => {
    const { createPod, mock, project } = bed();
    const pod = await createPod();
    expect(pod.status()).toEqual({
      state: "idle",
      projectRoot: project,
      sessionId: pod.sessionId,
      model: { scheme: "anthropic", id: "mock-model" },
      usage: {},
      queuedNotes: 0,
    });

    mock.enqueue(
      {
        ...toolCall("write_file", { path: "a.md", content: "x" }),
        usage: { inputTokens: 100, outputTokens: 7 },
      },
      { ...answer("ok"), usage: { inputTokens: 120, outputTokens: 3 } },
    );
    const paused = await pod.run("write");
    expect(pod.status()).toMatchObject({
      state: "paused",
      pendingPermission: paused.permissionRequest,
      usage: { inputTokens: 100, outputTokens: 7 },
    });
    await pod.respond(paused.permissionRequest?.id ?? "", "allow_once");
    const status = pod.status();
    expect(status.state).toBe("idle");
    expect(status.pendingPermission).toBeUndefined();
    expect(status.usage).toMatchObject({ inputTokens: 220, outputTokens: 10 });

    // A run that replaces a paused one: the paused part counts once, and so does the new run.
    mock.enqueue(
      {
        ...toolCall("write_file", { path: "b.md", content: "y" }),
        usage: { inputTokens: 30, outputTokens: 2 },
      },
      { ...answer("other"), usage: { inputTokens: 40, outputTokens: 1 } },
    );
    expect((await pod.run("write b")).status).toBe("paused");
    expect(pod.status().usage).toMatchObject({ inputTokens: 250, outputTokens: 12 });
    await pod.run("no, something else");
    expect(pod.status().usage).toMatchObject({ inputTokens: 290, outputTokens: 13 });
  });
});
