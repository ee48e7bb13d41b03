import type { Readable, Writable } from "node:stream";
import type { z } from "zod";
import { LineSplitter } from "./line-splitter.js";
import {
  type MethodName,
  type MethodResults,
  methodParamsSchemas,
  type ProtocolErrorCode,
  type RequestId,
  requestEnvelopeSchema,
} from "./messages.js";

/** A request whose params passed its method's schema (defaults applied, `params` always there). */
export type CheckedRequest = {
  [M in MethodName]: { id: RequestId; method: M; params: z.output<(typeof methodParamsSchemas)[M]> };
}[MethodName];

/** What a connection hands its server: requests already parsed and checked against their schema. */
export interface ConnectionHost {
  request(connection: Connection, request: CheckedRequest): void;
  disconnected(connection: Connection): void;
}

export interface ConnectionOptions {
  /** Longest request line accepted (default 16 MiB); a longer one gets an error reply. */
  maxLineBytes?: number;
  /**
   * Bytes the client may leave unread before it is dropped (default 64 MiB): a client that
   * stopped reading must not make the Pod buffer every event forever.
   */
  maxBufferedBytes?: number;
}

const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/** How long a client gets to close its end after the Pod closed its own. */
const CLOSE_GRACE_MS = 2_000;

/**
 * One client, seen from the Pod: reads JSON lines, answers malformed ones with an error (the
 * connection stays up), gates everything behind `hello`, and writes responses and events.
 * `input` and `output` are one socket, or standard input and output.
 */
export class Connection {
  /** Set once `hello` succeeded: from then on the client receives events. */
  greeted = false;
  /** The name the client gave in `hello`. */
  clientName: string | undefined;
  /** The client said in `hello` that it puts permission requests to a person. */
  answersApprovals = false;
  private open = true;
  /** A socket is both ends; standard input and output are two. */
  private readonly oneStream: boolean;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly host: ConnectionHost,
    private readonly options: ConnectionOptions = {},
  ) {
    this.oneStream = (input as unknown) === output;
    const splitter = new LineSplitter(
      {
        line: (text) => this.receive(text),
        overflow: (limit) =>
          this.fail(null, "invalid_request", `the line is longer than ${limit} bytes and was dropped`),
      },
      options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    );
    input.on("data", (chunk: Buffer | string) =>
      splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk),
    );
    input.once("end", () => this.close());
    input.once("close", () => this.close());
    // A client that vanished makes writes fail; that is a disconnect, not a crash of the Pod.
    input.on("error", () => this.close());
    if (!this.oneStream) output.on("error", () => this.close());
  }

  get isOpen(): boolean {
    return this.open;
  }

  reply<M extends MethodName>(id: RequestId, _method: M, result: MethodResults[M]): void {
    this.write(`${JSON.stringify({ id, result })}\n`);
  }

  fail(id: RequestId | null, code: ProtocolErrorCode, message: string): void {
    this.write(`${JSON.stringify({ id, error: { code, message } })}\n`);
  }

  /** Writes one serialized line (the server serializes each event once for every client). */
  write(line: string): void {
    if (!this.open) return;
    if (this.output.writableLength > (this.options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES)) {
      // Not reading for this long: drop it rather than hold every event for it.
      this.destroy();
      return;
    }
    this.output.write(line);
  }

  /** Closes gracefully: what was written is flushed first. */
  end(): void {
    if (!this.open) return;
    this.markClosed();
    this.output.end();
    // A client that never closes its side must not keep the Pod's socket alive.
    if (this.oneStream) setTimeout(() => this.input.destroy(), CLOSE_GRACE_MS).unref();
  }

  private destroy(): void {
    this.markClosed();
    this.output.destroy();
    if (!this.oneStream) this.input.destroy();
  }

  private close(): void {
    if (!this.open) return;
    this.markClosed();
    if (this.output.writable) this.output.end();
  }

  private markClosed(): void {
    this.open = false;
    this.host.disconnected(this);
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      this.fail(null, "parse_error", `the line is not JSON: ${(error as Error).message}`);
      return;
    }
    const envelope = requestEnvelopeSchema.safeParse(message);
    if (!envelope.success) {
      this.fail(idOf(message), "invalid_request", `not a request: ${describeIssues(envelope.error)}`);
      return;
    }
    const { id, method, params } = envelope.data;
    if (!Object.hasOwn(methodParamsSchemas, method)) {
      const known = Object.keys(methodParamsSchemas).join(", ");
      this.fail(id, "unknown_method", `unknown method "${method}"; the methods are ${known}`);
      return;
    }
    const name = method as MethodName;
    if (!this.greeted && name !== "hello") {
      this.fail(id, "hello_required", `send "hello" with the protocol version before "${name}"`);
      return;
    }
    const checked = methodParamsSchemas[name].safeParse(params ?? {});
    if (!checked.success) {
      this.fail(id, "invalid_params", `${name}: ${describeIssues(checked.error)}`);
      return;
    }
    try {
      this.host.request(this, { id, method: name, params: checked.data } as CheckedRequest);
    } catch (error) {
      // A method that throws must cost the asker an answer, never the Pod its process.
      this.fail(id, "failed", error instanceof Error ? error.message : String(error));
    }
  }
}

/** The id of something that was not a valid request, when it has a usable one. */
function idOf(message: unknown): RequestId | null {
  if (typeof message !== "object" || message === null || !("id" in message)) return null;
  const { id } = message;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** `params.segments.0.type: Invalid input; ...`: every issue with the path to the field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}
