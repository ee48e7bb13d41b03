import type { ErrorInfo, Event } from "./event.js";
import type { SchemeName } from "./item.js";
import type { Request } from "./request.js";

/** How a scheme's response body is cut into frames. `json-or-sse` tells the two apart by the first byte. */
export type Framing = "sse" | "ndjson" | "json-or-sse";

/** One unit of a response body: an SSE message, an NDJSON line or one element of a JSON array. */
export interface Frame {
  /** The SSE `event:` name, when there is one. */
  event?: string;
  data: string;
}

/**
 * Turns frames into events for one response. Push every frame, then call `end()` once; or call
 * `fail()` if the transport broke. Either way the decoder emits the final status exactly once
 * (see the stream contract in `event.ts`). A frame that is not valid for the protocol (bad JSON,
 * unknown shape) is reported as an `error` event of kind `stream` and ends the stream, never thrown.
 */
export interface StreamDecoder {
  /** The final status has been emitted: further frames are ignored and the body need not be read. */
  readonly done: boolean;
  push(frame: Frame): void;
  /** The body ended. A stream that ended without the provider's own end marker is reported as truncated. */
  end(): void;
  /** The transport failed or was aborted (kind `aborted` → status `cancelled`). */
  fail(error: ErrorInfo): void;
}

export interface Endpoint {
  model: string;
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * One provider's wire format. Pure: no I/O here, so the same scheme serves the live client,
 * `decodeStream` over a recorded body and the mock provider's tests.
 */
export interface Scheme {
  readonly name: SchemeName;
  readonly framing: Framing;
  readonly defaultBaseURL: string;
  /** Conventional environment variables for the key and the base URL. */
  readonly env: { apiKey?: string; baseURL?: string };
  /** The URL, headers (with auth) and JSON body of a streaming request. */
  buildHttpRequest(request: Request, endpoint: Endpoint): HttpRequest;
  createDecoder(emit: (event: Event) => void): StreamDecoder;
}
