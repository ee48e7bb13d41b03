/**
 * Shared pieces of the protocol tests: a Pod served on a real socket in the test's temporary
 * directory, typed and raw clients, and event recording checked against the schemas. Not a test
 * file itself.
 */
import { connect, type Socket } from "node:net";
import path from "node:path";
import { afterEach, expect } from "vitest";
import type { ManifestLayerInput } from "../../src/manifest/schema.js";
import type { Pod } from "../../src/pod.js";
import { connectPod, type PodClient, type PodClientOptions } from "../../src/protocol/client.js";
import { LineSplitter } from "../../src/protocol/line-splitter.js";
import type { ServedPod } from "../../src/protocol/served-pod.js";
import { type PodServer, type ServePodOptions, servePod } from "../../src/protocol/server.js";
import { serverMessageSchema, type WireEvent, wireEventSchema } from "../../src/protocol/wire-events.js";
import type { PodTestbed } from "./pod-test-kit.js";

export interface Served {
  pod: Pod;
  server: PodServer;
  socketPath: string;
  /** A typed client, greeted, closed after the test. */
  client(name: string, options?: PodClientOptions): Promise<PodClient>;
  /** A socket that speaks raw lines (not greeted), closed after the test. */
  raw(): Promise<RawClient>;
}

/** Call at the top level of a test file, after `usePodTestbed`: serves Pods and cleans up after each test. */
export function useServedPods(bed: () => PodTestbed) {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async (
    options: ServePodOptions & { wrap?: (pod: Pod) => ServedPod; manifest?: ManifestLayerInput } = {},
  ): Promise<Served> => {
    const { createPod, base } = bed();
    const pod = await createPod(options.manifest);
    const socketPath = options.socketPath ?? path.join(base, "pod.sock");
    const server = await servePod(options.wrap?.(pod) ?? pod, { ...options, socketPath });
    cleanups.push(() => server.shutdown("the test ended"));
    return {
      pod,
      server,
      socketPath,
      client: async (name, clientOptions) => {
        const client = await connectPod(socketPath, { clientName: name, ...clientOptions });
        cleanups.push(() => client.close());
        return client;
      },
      raw: async () => {
        const raw = await RawClient.connect(socketPath);
        cleanups.push(() => raw.close());
        return raw;
      },
    };
  };
}

/** A ServedPod that forwards to `pod`, with `extra` members added or replaced (e.g. `compact`). */
export function delegateTo(pod: Pod, extra: Partial<ServedPod> = {}): ServedPod {
  return {
    get history() {
      return pod.history;
    },
    get pendingPermission() {
      return pod.pendingPermission;
    },
    listen: (listener) => pod.listen(listener),
    run: (input) => pod.run(input),
    respond: (id, decision) => pod.respond(id, decision),
    resume: () => pod.resume(),
    cancel: () => pod.cancel(),
    notify: (text, role) => pod.notify(text, role),
    status: () => pod.status(),
    ...extra,
  };
}

/** Every event the client receives from now on, each checked against `wireEventSchema`. */
export function recordEvents(client: PodClient): WireEvent[] {
  const events: WireEvent[] = [];
  client.listen((event) => {
    const checked = wireEventSchema.safeParse(event);
    if (!checked.success)
      throw new Error(`event off schema: ${JSON.stringify(event)}: ${checked.error.message}`);
    events.push(event);
  });
  return events;
}

/** A reply the mock holds back until `open()`: the run stays in its request meanwhile. */
export function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

export async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A socket client that writes lines as given and reads each line back, checked against the schema. */
export class RawClient {
  private readonly lines: unknown[] = [];
  private waiting: (() => void) | undefined;
  private endedFlag = false;
  /** Settles when the Pod closed the connection. */
  readonly ended: Promise<void>;

  private constructor(private readonly socket: Socket) {
    const splitter = new LineSplitter({
      line: (text) => {
        const message: unknown = JSON.parse(text);
        expect(serverMessageSchema.safeParse(message).success, text).toBe(true);
        this.lines.push(message);
        this.waiting?.();
      },
      overflow: () => undefined,
    });
    socket.on("data", (chunk: Buffer) => splitter.push(chunk));
    this.ended = new Promise((resolve) =>
      socket.once("close", () => {
        this.endedFlag = true;
        this.waiting?.();
        resolve();
      }),
    );
  }

  static connect(socketPath: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      socket.once("connect", () => resolve(new RawClient(socket)));
      socket.once("error", reject);
    });
  }

  /** Writes `text` and a newline. */
  send(text: string): void {
    this.socket.write(`${text}\n`);
  }

  /** The next line the Pod wrote, parsed. */
  async next(timeoutMs = 5_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (this.endedFlag) throw new Error("the Pod closed the connection");
      if (Date.now() > deadline) throw new Error("no line from the Pod");
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 50);
      });
    }
    return this.lines.shift();
  }

  /** Sends a request and reads the next line (no events flow before `hello`). */
  async ask(request: unknown): Promise<unknown> {
    this.send(typeof request === "string" ? request : JSON.stringify(request));
    return this.next();
  }

  close(): void {
    this.socket.destroy();
  }
}
