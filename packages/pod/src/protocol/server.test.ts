/**
 * The protocol over a real Unix socket, with real clients, a real Pod and the mock provider over
 * HTTP: several clients see one stream of events, runs are refused while one is going, a client
 * that leaves does not stop the run, approvals, cancel, notes, compaction, and shutdown.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { answer, toolCall, usePodTestbed } from "../../test/support/pod-test-kit.js";
import {
  delegateTo,
  gate,
  recordEvents,
  until,
  useServedPods,
} from "../../test/support/protocol-test-kit.js";
import { connectPod, PodProtocolError } from "./client.js";
import type { WireEvent } from "./wire-events.js";

const bed = usePodTestbed();
const serve = useServedPods(bed);

const names = (events: readonly WireEvent[]) => events.map((event) => event.event);

/** The run waits in its request until the gate opens, then the model answers `text`. */
function holdReply(text: string) {
  const held = gate();
  bed().mock.setHandler(async () => {
    await held.opened;
    return answer(text);
  });
  return held;
}

async function refusal(request: Promise<unknown>): Promise<PodProtocolError> {
  const error = await request.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(PodProtocolError);
  return error as PodProtocolError;
}

describe("two clients", () => {
  it("see the same events in the same order through a run with parallel tool calls", async () => {
    const { mock, put } = bed();
    put("a.txt", "hello from a\n");
    mock.enqueue(
      {
        blocks: [
          { type: "thinking", text: "I should look at the files." },
          { type: "text", text: "Let me look." },
          { type: "tool_call", name: "read_file", arguments: { path: "a.txt" } },
          { type: "tool_call", name: "glob", arguments: { pattern: "*.txt" } },
        ],
        usage: { inputTokens: 50, outputTokens: 20 },
      },
      answer("a.txt says hello"),
    );
    const { client } = await serve();
    const alice = await client("alice");
    const bob = await client("bob");
    const seenByAlice = recordEvents(alice);
    const seenByBob = recordEvents(bob);

    expect(await alice.run("what is in @a.txt?")).toEqual({ started: true, run: expect.any(Number) });
    const [end] = await Promise.all([alice.next("run_end"), bob.next("run_end")]);
    expect(end.result).toMatchObject({ status: "finished", text: "a.txt says hello", turns: 2 });

    expect(seenByBob).toEqual(seenByAlice);
    const sequence = names(seenByAlice);
    expect(sequence[0]).toBe("run_start");
    expect(sequence.at(-1)).toBe("run_end");
    for (const name of [
      "turn_start",
      "thinking_delta",
      "text_delta",
      "tool_call_start",
      "tool_call_delta",
      "tool_call_done",
      "tool_start",
      "tool_result",
      "usage",
      "turn_end",
    ])
      expect(sequence).toContain(name);
    // Both calls were streamed, then both ran, and both results arrived before the second turn.
    const done = seenByAlice.filter((e) => e.event === "tool_call_done");
    expect(done).toMatchObject([
      { name: "read_file", arguments: { path: "a.txt" } },
      { name: "glob", arguments: { pattern: "*.txt" } },
    ]);
    const results = seenByAlice.filter((e) => e.event === "tool_result");
    expect(results.map((e) => e.name).sort()).toEqual(["glob", "read_file"]);
    expect(results.find((e) => e.name === "read_file")).toMatchObject({ isError: false });
    expect(sequence.lastIndexOf("tool_result")).toBeLessThan(sequence.lastIndexOf("turn_start"));
    const text = seenByAlice.flatMap((e) => (e.event === "text_delta" ? [e.text] : [])).join("");
    expect(text).toBe("Let me look.a.txt says hello");
    // The usage event carries the normalized fields only, not the provider's raw object.
    expect(seenByAlice.find((e) => e.event === "usage")).not.toHaveProperty("usage.raw");
  });

  it("refuse a run while one is going, from either client, and the first run goes on", async () => {
    const held = holdReply("first done");
    const { client } = await serve();
    const alice = await client("alice");
    const bob = await client("bob");
    await alice.run("first");
    await until(() => bed().mock.requests.length === 1, "the first request");

    for (const attempt of [alice.run("second"), bob.run("third")]) {
      const error = await refusal(attempt);
      expect(error.code).toBe("run_in_progress");
      expect(error.message).toBe("a run is in progress; wait for its run_end, or cancel it first");
    }
    expect((await refusal(bob.respond("x", "allow_once"))).code).toBe("run_in_progress");
    expect((await bob.status()).state).toBe("running");

    held.open();
    const end = await bob.next("run_end");
    expect(end.result).toMatchObject({ status: "finished", text: "first done" });
    expect(bed().mock.requests).toHaveLength(1);
  });

  it("may start the next run the moment run_end arrives: the Pod is free by then", async () => {
    bed().mock.enqueue(answer("one"), answer("two"));
    const { client } = await serve();
    const alice = await client("alice");
    const next = new Promise((resolve) => {
      const off = alice.on("run_end", () => {
        off();
        resolve(alice.run("second").catch((error: unknown) => error));
      });
    });
    await alice.run("first");
    expect(await next).toEqual({ started: true, run: expect.any(Number) });
    expect((await alice.next("run_end")).result).toMatchObject({ status: "finished", text: "two" });
  });

  it("a client that disconnects mid-run does not stop it; the other sees it end", async () => {
    const held = holdReply("finished anyway");
    const { client, server, pod } = await serve();
    const alice = await client("alice");
    const bob = await client("bob");
    const seenByBob = recordEvents(bob);
    await alice.run("go");
    await until(() => bed().mock.requests.length === 1, "the request");

    alice.close();
    await until(() => server.clientCount === 1, "the server to see alice leave");
    held.open();
    const end = await bob.next("run_end");
    expect(end.result).toMatchObject({ status: "finished", text: "finished anyway" });
    expect(names(seenByBob)).toContain("text_delta");
    expect(pod.history.at(-1)).toMatchObject({ role: "assistant", text: "finished anyway" });
    expect((await bob.status()).state).toBe("idle");
  });
});

describe("approvals over the protocol", () => {
  it("every client sees the request; any may answer it; the run goes on", async () => {
    const { mock, project } = bed();
    mock.enqueue(toolCall("write_file", { path: "notes.md", content: "hi\n" }), answer("written"));
    const { client } = await serve();
    const alice = await client("alice");
    const bob = await client("bob");
    const seenByAlice = recordEvents(alice);

    const asked = bob.next("permission_request");
    await alice.run("write a note");
    const request = await asked;
    expect(request).toMatchObject({
      tool: "write_file",
      arguments: { path: "notes.md", content: "hi\n" },
      preview: { ok: true, path: "notes.md", newFile: true },
    });
    expect((await bob.status()).pendingPermission).toEqual({ ...request, event: undefined });

    const resumeError = await refusal(bob.resume());
    expect(resumeError.code).toBe("not_paused");
    expect(resumeError.message).toContain(`permission request ${request.id}): answer it with "respond"`);
    const wrong = await refusal(bob.respond("not-the-id", "allow_once"));
    expect(wrong).toMatchObject({ code: "unknown_permission" });
    expect(wrong.message).toContain(`the pending permission request is ${request.id}`);

    expect(await bob.respond(request.id, "allow_once")).toEqual({ started: true, run: expect.any(Number) });
    const end = await alice.next("run_end");
    expect(end.result).toMatchObject({ status: "finished", text: "written" });
    expect(readFileSync(path.join(project, "notes.md"), "utf8")).toBe("hi\n");
    const sequence = names(seenByAlice);
    expect(sequence.indexOf("permission_request")).toBe(sequence.indexOf("run_end") + 1);
    expect(seenByAlice.find((e) => e.event === "permission_resolved")).toEqual({
      event: "permission_resolved",
      id: request.id,
      callId: request.callId,
      tool: "write_file",
      decision: "allow_once",
    });
    expect((await refusal(bob.respond(request.id, "allow_once"))).message).toContain(
      "no permission request is pending",
    );
  });

  it("a denial reaches the model", async () => {
    const { mock, project, sent } = bed();
    mock.enqueue(toolCall("write_file", { path: "notes.md", content: "hi\n" }), answer("ok, not writing"));
    const { client } = await serve();
    const alice = await client("alice");
    const asked = alice.next("permission_request");
    await alice.run("write a note");
    await alice.respond((await asked).id, { deny: "not today" });
    expect((await alice.next("run_end")).result).toMatchObject({ status: "finished" });
    expect(existsSync(path.join(project, "notes.md"))).toBe(false);
    expect(sent(1)).toContain("not today");
  });
});

describe("methods", () => {
  it("cancel stops the run for everyone", async () => {
    holdReply("never seen");
    const { client } = await serve();
    const alice = await client("alice");
    const bob = await client("bob");
    await alice.run("long");
    await until(() => bed().mock.requests.length === 1, "the request");
    const ended = alice.next("run_end");
    expect(await bob.cancel()).toEqual({ cancelled: true });
    // Alice did not cancel her run: she is told who did.
    expect((await ended).result).toMatchObject({
      status: "cancelled",
      by: 'client "bob"',
      reason: "it asked the Pod to cancel the run",
    });
    expect(await bob.cancel()).toEqual({ cancelled: false });

    // A client cancelling its own run needs no name: the Pod's word (its signal) stands.
    await alice.run("long again");
    await until(() => bed().mock.requests.length === 2, "the second request");
    const ownEnd = bob.next("run_end");
    expect(await alice.cancel()).toEqual({ cancelled: true });
    expect((await ownEnd).result).toMatchObject({ status: "cancelled", by: "signal" });
  });

  it("run carries a client's pasted images to the model; one whose bytes are not its type is refused", async () => {
    const { client } = await serve();
    const alice = await client("alice");
    // The smallest PNG there is: its signature, then enough of a header.
    const png = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.alloc(24)]).toString(
      "base64",
    );
    const lie = Buffer.from("GIF89a, not a PNG at all").toString("base64");
    const refused = await refusal(
      alice.run("what is this?", [{ type: "image", mediaType: "image/png", data: lie }]),
    );
    expect(refused).toMatchObject({ code: "invalid_params" });
    expect(refused.message).toMatch(/images\.0\.data: the data is not an image of its mediaType/);
    expect(bed().mock.requests).toHaveLength(0);

    bed().mock.enqueue(answer("A tiny PNG."));
    const ended = alice.next("run_end");
    await alice.run("what is this?", [{ type: "image", mediaType: "image/png", data: png }]);
    expect((await ended).result).toMatchObject({ status: "finished", text: "A tiny PNG." });
    const sent = JSON.stringify(bed().mock.requests[0]?.body);
    expect(sent).toContain(`"media_type":"image/png","data":"${png}"`);
  });

  it("notify adds a message and every client gets the new history; history and status answer", async () => {
    const { client, pod } = await serve();
    const alice = await client("alice");
    const bob = await client("bob");
    const changed = bob.next("history");
    expect(await alice.notify("the CI is red", "system")).toEqual({ note: "added" });
    const note = { type: "message", role: "system", text: "the CI is red" };
    expect(await changed).toEqual({ event: "history", reason: "notify", items: [note] });
    expect(await bob.history()).toEqual({ items: [note] });
    expect(await bob.status()).toEqual({
      state: "idle",
      projectRoot: bed().project,
      sessionId: pod.sessionId,
      model: { scheme: "anthropic", id: "mock-model" },
      usage: {},
      queuedNotes: 0,
      clients: 2,
      approvers: 0,
    });
    expect(alice.hello.status.clients).toBe(1);
  });

  it("compact summarizes into a new session; every client gets the new history; a failure is an error reply", async () => {
    const { mock } = bed();
    mock.enqueue(answer("The answer is 42."), answer("Goal: find the answer. State: found, it is 42."));
    const { client, pod } = await serve();
    const alice = await client("alice");
    const bob = await client("bob");
    await alice.run("what is the answer?");
    await alice.next("run_end");
    const before = pod.sessionId;

    const changed = bob.next("history", (event) => event.reason === "compact");
    const result = await alice.compact();
    expect(result).toMatchObject({ compacted: true, auto: false, previousSessionId: before });
    expect(result.sessionId).not.toBe(before);
    const history = await changed;
    expect(history).toMatchObject({ reason: "compact", auto: false, sessionId: result.sessionId });
    expect(history.items).toEqual([...pod.history]);
    expect(JSON.stringify(history.items)).toContain("State: found, it is 42.");
    expect((await bob.status()).sessionId).toBe(result.sessionId);

    mock.enqueue({ fault: "status", status: 400, message: "the summarizer is down" });
    const failed = await refusal(bob.compact());
    expect(failed.code).toBe("failed");
    expect(failed.message).toMatch(/^compaction failed: .*the summarizer is down/);
  });

  it("compact on a Pod without compaction is not supported", async () => {
    const { client } = await serve({ wrap: (pod) => delegateTo(pod) });
    const bob = await client("bob");
    expect(await refusal(bob.compact())).toMatchObject({
      code: "not_supported",
      message: "this Pod cannot compact its session",
    });
  });

  it("shutdown ends the run, tells every client, closes the connections and removes the socket", async () => {
    holdReply("never seen");
    const { client, server, socketPath } = await serve();
    const alice = await client("alice");
    const bob = await client("bob");
    const seenByBob = recordEvents(bob);
    await bob.run("long");
    await until(() => bed().mock.requests.length === 1, "the request");

    expect(await alice.shutdown()).toEqual({ shuttingDown: true });
    await Promise.all([alice.closed, bob.closed, server.closed]);
    expect(names(seenByBob).slice(-2)).toEqual(["run_end", "shutdown"]);
    expect(seenByBob.at(-2)).toMatchObject({ result: { status: "cancelled" } });
    expect(seenByBob.at(-1)).toEqual({ event: "shutdown", reason: 'shutdown requested by client "alice"' });
    expect(existsSync(socketPath)).toBe(false);
    await expect(connectPod(socketPath)).rejects.toThrow(`no Pod is listening on ${socketPath}`);
    await expect(bob.status()).rejects.toMatchObject({ code: "disconnected" });
  });
});
