import { connect } from "node:net";
import type { Readable, Writable } from "node:stream";
import type { ImagePart } from "@yoake/llm-worker";
import { listenerIterator, type Unsubscribe } from "@yoake/llm-worker/internal";
import type { PermissionDecision } from "../approval/permission.js";
import { parseSegments, type Segment } from "../file-ref/segments.js";
import type { NoteRole } from "../pod/status.js";
import { LineSplitter } from "./line-splitter.js";
import {
  type MethodName,
  type ParamsOf,
  PROTOCOL_VERSION,
  type ProtocolErrorCode,
  type RequestId,
  type ResultOf,
} from "./messages.js";
import { checkPrivateSocket } from "./socket-path.js";
import type { WireEvent, WireEventName, WireEventOf } from "./wire-events.js";

export interface PodClientOptions {
  /** Sent in `hello`; the Pod names the client with it (e.g. in a shutdown reason). */
  clientName?: string;
  /**
   * Sent in `hello`: this client puts permission requests to a person (a terminal UI, an editor).
   * The Pod counts such clients (`status.approvers`, the `approvers` event), so that one waiting
   * for someone else to approve knows whether anyone can.
   */
  answersApprovals?: boolean;
  /** The version announced in `hello` (default `PROTOCOL_VERSION`; other values are for tests). */
  protocolVersion?: number;
}

/** A request the Pod refused (`code` from the protocol), or `disconnected` when the connection went away. */
export class PodProtocolError extends Error {
  constructor(
    readonly code: ProtocolErrorCode | "disconnected",
    message: string,
  ) {
    super(message);
    this.name = "PodProtocolError";
  }
}

type Listener = (event: WireEvent) => void;
interface Pending {
  resolve(result: unknown): void;
  reject(error: PodProtocolError): void;
}

/**
 * A connection to a Pod (`connectPod`, or `PodClient.over` for a child's standard streams),
 * greeted: `hello` is the handshake of `over`. Requests are matched to responses by id; events
 * arrive through `on`, `listen`, `events()` and `next`, in the order the Pod sent them.
 * Incoming lines are trusted to follow the schemas (they come from the Pod) and are not
 * re-validated: deltas are the hot path.
 */
export class PodClient {
  /** What the Pod answered to `hello`: its version, project root, status at connection and start warnings. */
  hello!: ResultOf<"hello">;
  /** Settles when the connection is closed, by either side. */
  readonly closed: Promise<void>;
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private listeners: Array<{ event: WireEventName | undefined; listener: Listener }> = [];
  private open = true;
  private resolveClosed: () => void = () => {};

  private constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    const splitter = new LineSplitter({ line: (text) => this.receive(text), overflow: () => undefined });
    input.on("data", (chunk: Buffer | string) =>
      splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk),
    );
    input.once("end", () => this.shut());
    input.once("close", () => this.shut());
    input.on("error", () => this.shut());
    if ((output as unknown) !== input) output.on("error", () => this.shut());
  }

  /** Speaks the protocol over a stream pair (a socket, or a child's stdout and stdin) and says hello. */
  static async over(input: Readable, output: Writable, options: PodClientOptions = {}): Promise<PodClient> {
    const client = new PodClient(input, output);
    try {
      client.hello = await client.request("hello", {
        protocolVersion: options.protocolVersion ?? PROTOCOL_VERSION,
        ...(options.clientName !== undefined && { client: options.clientName }),
        ...(options.answersApprovals === true && { answersApprovals: true }),
      });
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Sends a request; resolves with its result, rejects with a `PodProtocolError`. */
  request<M extends MethodName>(method: M, params?: ParamsOf<M>): Promise<ResultOf<M>> {
    if (!this.open)
      return Promise.reject(new PodProtocolError("disconnected", "the connection to the Pod is closed"));
    const id = this.nextId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.output.write(`${JSON.stringify({ id, method, ...(params !== undefined && { params }) })}\n`);
    });
  }

  /** Starts a run; a string is parsed for `@<path>` references as the Pod would. Its end comes as `run_end`. */
  /** `images`: pasted images, inline (see `runImageSchema`: the Pod checks each one's bytes). */
  run(input: string | readonly Segment[], images: readonly ImagePart[] = []): Promise<ResultOf<"run">> {
    const segments = typeof input === "string" ? parseSegments(input) : [...input];
    return this.request("run", { segments, ...(images.length > 0 && { images: toRunImages(images) }) });
  }
  respond(permissionId: string, decision: PermissionDecision): Promise<ResultOf<"respond">> {
    return this.request("respond", { permissionId, decision });
  }
  cancel(): Promise<ResultOf<"cancel">> {
    return this.request("cancel");
  }
  resume(): Promise<ResultOf<"resume">> {
    return this.request("resume");
  }
  notify(text: string, role?: NoteRole): Promise<ResultOf<"notify">> {
    return this.request("notify", { text, ...(role !== undefined && { role }) });
  }
  history(): Promise<ResultOf<"history">> {
    return this.request("history");
  }
  status(): Promise<ResultOf<"status">> {
    return this.request("status");
  }
  compact(): Promise<ResultOf<"compact">> {
    return this.request("compact");
  }
  shutdown(reason?: string): Promise<ResultOf<"shutdown">> {
    return this.request("shutdown", reason === undefined ? {} : { reason });
  }

  /** Listens for one event; returns the function that stops it. */
  on<E extends WireEventName>(event: E, handler: (event: WireEventOf<E>) => void): Unsubscribe {
    return this.add(event, handler as Listener);
  }

  /** Listens for every event. */
  listen(listener: Listener): Unsubscribe {
    return this.add(undefined, listener);
  }

  /** The next event of this kind (that `accept`s, if given); rejects if the connection closes first. */
  next<E extends WireEventName>(
    event: E,
    accept: (event: WireEventOf<E>) => boolean = () => true,
  ): Promise<WireEventOf<E>> {
    return new Promise((resolve, reject) => {
      if (!this.open) {
        reject(new PodProtocolError("disconnected", `the connection closed before a "${event}" event`));
        return;
      }
      const stopClosed = () => {
        off();
        reject(new PodProtocolError("disconnected", `the connection closed before a "${event}" event`));
      };
      void this.closed.then(stopClosed);
      const off = this.on(event, (received) => {
        if (!accept(received)) return;
        off();
        resolve(received);
      });
    });
  }

  /** Every event from now on, for `for await`; ends when the connection closes. */
  events(): AsyncIterableIterator<WireEvent> {
    return listenerIterator<WireEvent>((push) => this.listen(push), { ended: this.closed });
  }

  /** Closes the connection; the Pod and its run go on. */
  close(): void {
    if (!this.open) return;
    this.output.end();
    this.shut();
  }

  private add(event: WireEventName | undefined, listener: Listener): Unsubscribe {
    const entry = { event, listener };
    this.listeners = [...this.listeners, entry];
    return () => {
      this.listeners = this.listeners.filter((e) => e !== entry);
    };
  }

  private receive(text: string): void {
    let message: {
      id?: RequestId | null;
      result?: unknown;
      error?: { code: ProtocolErrorCode; message: string };
    };
    try {
      message = JSON.parse(text);
    } catch {
      return; // Not from a Pod of this protocol; nothing to match it to.
    }
    if ("event" in message) {
      this.dispatch(message as WireEvent);
      return;
    }
    if (message.id === undefined || message.id === null) return;
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id);
    if (message.error !== undefined)
      pending.reject(new PodProtocolError(message.error.code, message.error.message));
    else pending.resolve(message.result);
  }

  private dispatch(event: WireEvent): void {
    for (const { event: wanted, listener } of this.listeners) {
      if (wanted !== undefined && wanted !== event.event) continue;
      listener(event);
    }
  }

  private shut(): void {
    if (!this.open) return;
    this.open = false;
    this.input.destroy();
    for (const pending of this.pending.values())
      pending.reject(
        new PodProtocolError("disconnected", "the connection to the Pod closed before it answered"),
      );
    this.pending.clear();
    this.resolveClosed();
  }
}

/**
 * Connects to the Pod listening on `socketPath` (see `podSocketPath`) and says hello. A socket that
 * is not this user's own, in a private directory, is refused before a byte is sent
 * (`checkPrivateSocket`).
 */
export async function connectPod(socketPath: string, options: PodClientOptions = {}): Promise<PodClient> {
  await checkPrivateSocket(socketPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") throw new Error(`no Pod is listening on ${socketPath}`, { cause: error });
    throw error;
  });
  const socket = connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", (error: NodeJS.ErrnoException) => {
      const nobody = error.code === "ECONNREFUSED" || error.code === "ENOENT";
      reject(nobody ? new Error(`no Pod is listening on ${socketPath}`, { cause: error }) : error);
    });
  });
  return PodClient.over(socket, socket, options);
}

/** The images as the protocol carries them: inline only (the Pod does not fetch a client's URL). */
function toRunImages(images: readonly ImagePart[]): NonNullable<ParamsOf<"run">["images"]> {
  return images.map((image) => {
    if (!("data" in image))
      throw new Error("an image by URL cannot be sent to a served Pod: attach the file");
    return { type: "image", mediaType: image.mediaType, data: image.data };
  });
}
