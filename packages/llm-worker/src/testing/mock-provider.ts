import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { SchemeName } from "../llm-client/item.js";
import { encodeAnthropic } from "./encoders/anthropic.js";
import { encodeGemini } from "./encoders/gemini.js";
import { encodeOllama } from "./encoders/ollama.js";
import { encodeOpenaiChat } from "./encoders/openai-chat.js";
import { encodeOpenaiResponses } from "./encoders/openai-responses.js";
import type { ScriptedResponse } from "./script.js";

/**
 * A request the mock provider received, for assertions. `scheme` says which API the path belongs
 * to (undefined for a path no provider serves).
 */
export interface RecordedRequest {
  scheme: SchemeName | undefined;
  method: string;
  /** The path without the query, e.g. `/v1/messages`. */
  path: string;
  /** The query parameters (Gemini's `alt=sse`, ...). */
  query: Record<string, string>;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  /** `body.model`, or the model named in a Gemini path. */
  model?: string;
  /** `Date.now()` when the request was complete. */
  receivedAt: number;
}

/**
 * A failure to inject instead of a response.
 * - `status`: an HTTP error; without `body` the provider's own error format is rendered from
 *   `message` and `code` (Anthropic `error.type`, OpenAI `error.code`, Gemini `error.status`).
 * - `reset`: sends the headers and the first `afterBytes` bytes of `response` (default: none), then
 *   destroys the socket. Without `response` the socket is destroyed before any headers. `response`
 *   is a scripted response (encoded for the route's scheme) or a body of your own.
 * - `stall`: like `reset`, but keeps the socket open and silent instead (until `close()`).
 * - `keepalive`: like `stall`, but then sends the scheme's keep-alive every `everyMs` (default 10)
 *   until the client goes away: Anthropic's `ping` event, an SSE comment (`: keepalive`) for the
 *   other SSE schemes, a blank line for Ollama's NDJSON.
 * - `garbage`: a 200 with the scheme's content type and a body that is not the protocol.
 * - `page`: a 200 whose body is an error page instead of a stream, as proxies and gateways send:
 *   `html` (titled `title`, served as `text/html`) or `json` (the provider's error body rendered
 *   from `message` and `code`, served as `application/json`).
 */
export type MockFault =
  | {
      fault: "status";
      status: number;
      message?: string;
      code?: string;
      body?: string | Record<string, unknown> | unknown[];
      headers?: Record<string, string>;
    }
  | { fault: "reset"; response?: ScriptedResponse | string | Uint8Array; afterBytes?: number }
  | { fault: "stall"; response?: ScriptedResponse | string | Uint8Array; afterBytes?: number }
  | {
      fault: "keepalive";
      response?: ScriptedResponse | string | Uint8Array;
      afterBytes?: number;
      everyMs?: number;
    }
  | { fault: "garbage"; body?: string | Uint8Array }
  | { fault: "page"; page: "html" | "json"; title?: string; message?: string; code?: string };

/** A body of your own (a recorded fixture, a hand-made edge case), streamed as given with status 200. */
export interface RawReply {
  raw: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
}

/** What the mock answers one request with. */
export type MockReply = ScriptedResponse | MockFault | RawReply;

/** Decides the reply from the request; consulted when the queue is empty. */
export type MockHandler = (request: RecordedRequest) => MockReply | Promise<MockReply>;

export interface MockProviderOptions {
  /** Bytes per write of a streamed body (default 64), so clients really see it in pieces. */
  writeSize?: number;
  /** Pause between two writes (default 0: the next turn of the event loop). */
  writeDelayMs?: number;
}

/** A fake of all five provider APIs on 127.0.0.1, for tests and demos. */
export interface MockProvider {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /**
   * The base URL a client of `scheme` should use: the scheme's request builders append
   * `/v1/messages`, `/chat/completions` and `/responses` (hence `/v1` for OpenAI),
   * `/v1beta/models/<model>:streamGenerateContent` and `/api/chat`.
   */
  baseURLFor(scheme: SchemeName): string;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** TCP connections open right now (clients keep idle ones alive; a dropped stream closes its own). */
  readonly openConnections: number;
  /** Replies for the next requests, first in first out, before the handler. */
  enqueue(...replies: MockReply[]): void;
  /** Replies when the queue is empty; `undefined` removes it. */
  setHandler(handler: MockHandler | undefined): void;
  /** Stops the server and drops open connections (stalled ones too). */
  close(): Promise<void>;
}

const ENCODERS: Record<SchemeName, (response: ScriptedResponse) => string> = {
  anthropic: encodeAnthropic,
  "openai-chat": encodeOpenaiChat,
  "openai-responses": encodeOpenaiResponses,
  gemini: encodeGemini,
  ollama: encodeOllama,
};

/** A scripted response in `scheme`'s wire format, exactly the body the mock would stream. */
export function encodeScripted(scheme: SchemeName, response: ScriptedResponse): string {
  return ENCODERS[scheme](response);
}

const GARBAGE = "<!doctype html><html><body><h1>Welcome to the hotel network</h1></body></html>\n";

/**
 * Starts a mock provider in-process. Requests are answered from the `enqueue`d replies, then the
 * handler; with neither, a 400 in the provider's format says that nothing was scripted.
 *
 * ```ts
 * const mock = await startMockProvider();
 * mock.enqueue({ fault: "status", status: 429, headers: { "retry-after-ms": "20" } },
 *              { blocks: [{ type: "text", text: "Hello" }] });
 * const client = createClient({ scheme: "anthropic", model: "m", apiKey: "k", baseURL: mock.baseURLFor("anthropic") });
 * ```
 */
export async function startMockProvider(options: MockProviderOptions = {}): Promise<MockProvider> {
  const writeSize = Math.max(1, options.writeSize ?? 64);
  const writeDelayMs = options.writeDelayMs ?? 0;
  const requests: RecordedRequest[] = [];
  const queue: MockReply[] = [];
  let handler: MockHandler | undefined;
  let served = 0;

  const server = createServer((req, res) => {
    void answer(req, res).catch((err: unknown) => {
      // A throwing handler or encoder is a bug in the test: say so, in a way no client mistakes for data.
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: `mock provider: ${(err as Error)?.message ?? String(err)}` }, {});
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const recorded = await record(req);
    requests.push(recorded);
    const scheme = recorded.scheme;
    const ids = requestIdHeaders(scheme, ++served);
    if (scheme === undefined) {
      sendJson(res, 404, { error: `mock provider: no provider API at ${recorded.path}` }, ids);
      return;
    }
    const reply = queue.shift() ?? (await handler?.(recorded));
    if (reply === undefined) {
      const message = `mock provider: nothing scripted for ${recorded.method} ${recorded.path} (enqueue a reply or set a handler)`;
      sendJson(res, 400, errorBody(scheme, 400, message, undefined), ids);
      return;
    }
    if ("raw" in reply) {
      const type = reply.contentType ?? contentTypeOf(scheme, reply.raw);
      await stream(res, 200, { "content-type": type, ...ids, ...reply.headers }, reply.raw, "end");
      return;
    }
    if (!("fault" in reply)) {
      const body = ENCODERS[scheme](reply);
      await stream(res, 200, { "content-type": contentTypeOf(scheme, body), ...ids }, body, "end");
      return;
    }
    switch (reply.fault) {
      case "status": {
        const message = reply.message ?? STATUS_CODES[reply.status] ?? `HTTP ${reply.status}`;
        const body = reply.body ?? errorBody(scheme, reply.status, message, reply.code);
        sendJson(res, reply.status, body, { ...ids, ...reply.headers });
        return;
      }
      case "page": {
        if (reply.page === "json") {
          const body = errorBody(scheme, 500, reply.message ?? "Internal server error", reply.code);
          sendJson(res, 200, body, ids);
          return;
        }
        const title = reply.title ?? "502 Bad Gateway";
        const html = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`;
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...ids });
        res.end(html);
        return;
      }
      case "garbage": {
        const body = reply.body ?? GARBAGE;
        await stream(res, 200, { "content-type": contentTypeOf(scheme, ""), ...ids }, body, "end");
        return;
      }
      case "reset":
      case "stall":
      case "keepalive": {
        if (!reply.response && reply.fault !== "keepalive") {
          if (reply.fault === "reset") res.socket?.destroy();
          return;
        }
        const full = reply.response ?? "";
        const body =
          typeof full === "object" && !(full instanceof Uint8Array) ? ENCODERS[scheme](full) : full;
        const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
        const cut = bytes.subarray(0, Math.min(bytes.length, reply.afterBytes ?? 0));
        const headers = { "content-type": contentTypeOf(scheme, bytes), ...ids };
        await stream(res, 200, headers, cut, reply.fault === "reset" ? "reset" : "stall");
        if (reply.fault === "keepalive") await keepAlive(res, scheme, reply.everyMs ?? 10);
        return;
      }
    }
  }

  /** Writes the body in pieces, then ends it, destroys the socket, or leaves it open. */
  async function stream(
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: string | Uint8Array,
    then: "end" | "reset" | "stall",
  ): Promise<void> {
    res.writeHead(status, headers);
    res.flushHeaders();
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
    for (let at = 0; at < bytes.length && !res.destroyed; at += writeSize) {
      const piece = bytes.subarray(at, at + writeSize);
      await writePiece(res, piece);
      await pause(writeDelayMs);
    }
    if (then === "end") res.end();
    else if (then === "reset") res.socket?.destroy();
  }

  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    get openConnections() {
      return sockets.size;
    },
    baseURLFor: (scheme) => (scheme === "openai-chat" || scheme === "openai-responses" ? `${url}/v1` : url),
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    setHandler: (next) => {
      handler = next;
    },
    close: async () => {
      const closed = [...sockets].map((socket) => new Promise((resolve) => socket.once("close", resolve)));
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await Promise.all([stopped, ...closed]);
    },
  };
}

async function record(req: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const target = new URL(req.url ?? "/", "http://mock");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const body = parseJson(text);
  const scheme = schemeOfPath(target.pathname);
  const model = modelOf(body, target.pathname);
  return {
    scheme,
    method: req.method ?? "GET",
    path: target.pathname,
    query: Object.fromEntries(target.searchParams),
    headers,
    body,
    ...(model !== undefined && { model }),
    receivedAt: Date.now(),
  };
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function schemeOfPath(path: string): SchemeName | undefined {
  if (path.endsWith("/messages")) return "anthropic";
  if (path.endsWith("/chat/completions")) return "openai-chat";
  if (path.endsWith("/responses")) return "openai-responses";
  if (path.endsWith(":streamGenerateContent")) return "gemini";
  if (path.endsWith("/api/chat")) return "ollama";
  return undefined;
}

function modelOf(body: unknown, path: string): string | undefined {
  if (typeof body === "object" && body !== null && typeof (body as { model?: unknown }).model === "string") {
    return (body as { model: string }).model;
  }
  const at = path.indexOf("/models/");
  const colon = path.lastIndexOf(":");
  return at !== -1 && colon > at ? decodeURIComponent(path.slice(at + 8, colon)) : undefined;
}

/** Gemini streams SSE when asked for `alt=sse`, else one JSON array; Ollama streams NDJSON. */
function contentTypeOf(scheme: SchemeName, body: string | Uint8Array): string {
  if (scheme === "ollama") return "application/x-ndjson";
  const first = typeof body === "string" ? body.trimStart()[0] : String.fromCharCode(body[0] ?? 0);
  if (scheme === "gemini" && first === "[") return "application/json";
  return "text/event-stream";
}

/** Anthropic says `request-id`, OpenAI `x-request-id`; the others send none. */
function requestIdHeaders(scheme: SchemeName | undefined, n: number): Record<string, string> {
  const id = `req_mock_${n}`;
  if (scheme === "anthropic") return { "request-id": id };
  if (scheme === "openai-chat" || scheme === "openai-responses") return { "x-request-id": id };
  return {};
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

/** The error body each provider sends with an HTTP error status. */
function errorBody(scheme: SchemeName, status: number, message: string, code: string | undefined): unknown {
  switch (scheme) {
    case "anthropic":
      return { type: "error", error: { type: code ?? anthropicErrorType(status), message } };
    case "openai-chat":
    case "openai-responses":
      return { error: { message, type: openaiErrorType(status), param: null, code: code ?? null } };
    case "gemini":
      return { error: { code: status, message, status: code ?? googleStatus(status) } };
    case "ollama":
      return { error: message };
  }
}

function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
  };
  return types[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

function openaiErrorType(status: number): string {
  if (status === 401) return "invalid_request_error";
  if (status === 429) return "requests";
  return status >= 500 ? "server_error" : "invalid_request_error";
}

function googleStatus(status: number): string {
  const statuses: Record<number, string> = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
  };
  return statuses[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION");
}

const KEEP_ALIVES: Record<SchemeName, string> = {
  anthropic: 'event: ping\ndata: {"type": "ping"}\n\n',
  "openai-chat": ": keepalive\n\n",
  "openai-responses": ": keepalive\n\n",
  gemini: ": keepalive\n\n",
  ollama: "\n",
};

/** Sends the scheme's keep-alive every `everyMs` until the client goes away or the mock closes. */
async function keepAlive(res: ServerResponse, scheme: SchemeName, everyMs: number): Promise<void> {
  const bytes = Buffer.from(KEEP_ALIVES[scheme], "utf8");
  while (!res.destroyed) {
    await pause(everyMs);
    if (!res.destroyed) await writePiece(res, bytes);
  }
}

/** Resolves once the piece is flushed, or at once if the client went away meanwhile. */
function writePiece(res: ServerResponse, piece: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("close", done);
      resolve();
    };
    res.once("close", done);
    res.write(piece, done);
  });
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}
