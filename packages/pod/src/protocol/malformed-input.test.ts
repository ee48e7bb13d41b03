/**
 * What a Pod answers to lines that are not what it expects, over a real socket, raw: each gets an
 * error reply and the connection stays up. And the `hello` handshake: required first, and a
 * version mismatch is refused clearly.
 */
import { describe, expect, it } from "vitest";
import { usePodTestbed } from "../../test/support/pod-test-kit.js";
import { delegateTo, useServedPods } from "../../test/support/protocol-test-kit.js";
import { connectPod, PodProtocolError } from "./client.js";
import { PROTOCOL_VERSION } from "./messages.js";

const bed = usePodTestbed();
const serve = useServedPods(bed);

const hello = { id: "h", method: "hello", params: { protocolVersion: PROTOCOL_VERSION, client: "raw" } };

describe("malformed lines", () => {
  it("each gets an error reply, with the id when it had one, and the connection stays up", async () => {
    const { raw } = await serve();
    const client = await raw();
    expect(await client.ask("this is not json")).toMatchObject({
      id: null,
      error: { code: "parse_error", message: expect.stringMatching(/^the line is not JSON: /) },
    });
    expect(await client.ask(hello)).toMatchObject({ id: "h", result: { protocolVersion: PROTOCOL_VERSION } });

    expect(await client.ask("[1, 2]")).toMatchObject({ id: null, error: { code: "invalid_request" } });
    expect(await client.ask({ id: 7 })).toEqual({
      id: 7,
      error: {
        code: "invalid_request",
        message: "not a request: method: Invalid input: expected string, received undefined",
      },
    });
    expect(await client.ask({ id: 8, method: "fly" })).toEqual({
      id: 8,
      error: {
        code: "unknown_method",
        message:
          'unknown method "fly"; the methods are hello, run, cancel, resume, respond, notify, history, status, compact, shutdown',
      },
    });
    expect(
      await client.ask({ id: 9, method: "run", params: { segments: [{ type: "file_ref" }] } }),
    ).toMatchObject({
      id: 9,
      error: { code: "invalid_params", message: expect.stringContaining("run: segments.0.path: ") },
    });
    expect(await client.ask({ id: 10, method: "run", params: { segments: [] } })).toMatchObject({
      error: { code: "invalid_params", message: expect.stringContaining("segments: ") },
    });
    expect(
      await client.ask({ id: 11, method: "respond", params: { permissionId: "p", decision: "yes" } }),
    ).toMatchObject({
      error: { code: "invalid_params", message: expect.stringContaining("decision") },
    });

    // Still up, and still the same Pod.
    expect(await client.ask({ id: 12, method: "status" })).toMatchObject({
      id: 12,
      result: { state: "idle", clients: 1 },
    });
  });

  it("a connection past the limit is told so and closed; the others are served, and a freed place is taken", async () => {
    const { raw } = await serve({ maxConnections: 3 });
    const clients = [await raw(), await raw(), await raw()];
    for (const client of clients) await client.ask(hello);
    const extra = await raw();
    expect(await extra.next()).toEqual({
      id: null,
      error: {
        code: "too_many_connections",
        message: "the Pod serves 3 connections at most; try again later",
      },
    });
    expect(await clients[0]?.ask({ id: 1, method: "status" })).toMatchObject({ result: { clients: 3 } });
    clients[2]?.close();
    // Once the server has seen that client go, the next one is served.
    let served: unknown;
    for (let attempt = 0; attempt < 100 && served === undefined; attempt++) {
      const next = await raw();
      const answer = (await next.ask(hello)) as { result?: unknown };
      if (answer.result !== undefined) served = answer;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(served).toMatchObject({ result: { protocolVersion: PROTOCOL_VERSION } });
  });

  it("a line over the limit is refused without being buffered, and the next line is read", async () => {
    const { raw } = await serve({ maxLineBytes: 1024 });
    const client = await raw();
    await client.ask(hello);
    const big = JSON.stringify({ id: 1, method: "notify", params: { text: "x".repeat(5000) } });
    expect(await client.ask(big)).toEqual({
      id: null,
      error: { code: "invalid_request", message: "the line is longer than 1024 bytes and was dropped" },
    });
    // The note's history event is broadcast as it happens, before the reply to the request.
    expect(await client.ask({ id: 2, method: "notify", params: { text: "short" } })).toMatchObject({
      event: "history",
      items: [{ text: "short" }],
    });
    expect(await client.next()).toEqual({ id: 2, result: { note: "added" } });
  });
});

describe("a method that throws", () => {
  it("costs the asker an error reply, not the Pod its connection or its process", async () => {
    const { raw } = await serve({
      wrap: (pod) =>
        delegateTo(pod, {
          notify: () => {
            throw new Error("the history is locked");
          },
        }),
    });
    const client = await raw();
    await client.ask(hello);
    expect(await client.ask({ id: 1, method: "notify", params: { text: "x" } })).toEqual({
      id: 1,
      error: { code: "failed", message: "the history is locked" },
    });
    expect(await client.ask({ id: 2, method: "status" })).toMatchObject({ id: 2, result: { state: "idle" } });
  });
});

describe("hello", () => {
  it("must come first: other requests before it are refused, and no events are sent", async () => {
    const { raw, pod } = await serve();
    const client = await raw();
    expect(await client.ask({ id: 1, method: "status" })).toEqual({
      id: 1,
      error: { code: "hello_required", message: 'send "hello" with the protocol version before "status"' },
    });
    pod.notify("an event nobody greeted should not see");
    expect(await client.ask(hello)).toMatchObject({ id: "h", result: { status: { clients: 1 } } });
  });

  it("a version mismatch is refused with both versions named, and the connection is closed", async () => {
    const { raw, socketPath, server } = await serve();
    const client = await raw();
    expect(
      await client.ask({ id: 1, method: "hello", params: { protocolVersion: 99, client: "future" } }),
    ).toEqual({
      id: 1,
      error: {
        code: "version_mismatch",
        message: `this Pod speaks protocol version ${PROTOCOL_VERSION}, the client "future" speaks 99: use a client and a Pod of the same version`,
      },
    });
    await client.ended;

    const refused = await connectPod(socketPath, { protocolVersion: 0 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PodProtocolError);
    expect(refused).toMatchObject({ code: "version_mismatch" });
    expect(server.clientCount).toBe(0);
  });
});
