import { batchIterator } from "./batch-iterator.js";
import {
  ERROR_PAGE_LIMIT,
  type ErrorPageKind,
  errorPageInfo,
  errorPageKind,
  isLeadingFiller,
} from "./error-page.js";
import { LlmError } from "./errors.js";
import type { ErrorInfo, Event } from "./event.js";
import { createFramer, type Framer, FrameTooLargeError } from "./framing.js";
import type { SchemeName } from "./item.js";
import type { Scheme, StreamDecoder } from "./scheme.js";
import { getScheme } from "./schemes/index.js";

/**
 * One response body → events, synchronously: write chunks, then `end()` or `fail()`, and `take()`
 * the events decoded so far. The async layers (`decodeStream`, the client) only move bytes in and
 * batches out. A body that is an HTML page or a JSON document instead of the scheme's stream (see
 * `errorPageKind`) is read up to a bound and reported as what it is.
 */
export class BodyDecoder {
  private pending: Event[] = [];
  private readonly decoder: StreamDecoder;
  private readonly framer: Framer;
  /** Until the first meaningful byte arrived: the body may still turn out to be an error page. */
  private sniffing = true;
  private page: { kind: ErrorPageKind; bytes: Uint8Array[]; size: number } | undefined;

  /** `status`: the HTTP status the body came with, named in an error page's message. */
  constructor(
    private readonly scheme: Scheme,
    private readonly status?: number,
  ) {
    this.decoder = scheme.createDecoder((event) => this.pending.push(event));
    this.framer = createFramer(scheme.framing, (frame) => {
      if (!this.decoder.done) this.decoder.push(frame);
    });
  }

  /** The final status has been decoded: the rest of the body is not needed. */
  get done(): boolean {
    return this.decoder.done;
  }

  write(chunk: Uint8Array): void {
    if (this.sniffing) this.sniff(chunk);
    if (this.page) {
      this.collectPage(chunk);
      return;
    }
    try {
      this.framer.write(chunk);
    } catch (error) {
      if (!(error instanceof FrameTooLargeError)) throw error;
      this.decoder.fail({ kind: "stream", message: error.message });
    }
  }

  end(): void {
    if (this.page) {
      this.reportPage();
      return;
    }
    this.framer.close();
    this.decoder.end();
  }

  fail(error: ErrorInfo): void {
    this.decoder.fail(error);
  }

  take(): Event[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }

  private sniff(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (isLeadingFiller(byte)) continue;
      this.sniffing = false;
      const kind = errorPageKind(byte, this.scheme.framing);
      if (kind !== undefined) this.page = { kind, bytes: [], size: 0 };
      return;
    }
  }

  private collectPage(chunk: Uint8Array): void {
    const page = this.page as NonNullable<typeof this.page>;
    page.bytes.push(chunk);
    page.size += chunk.length;
    if (page.size >= ERROR_PAGE_LIMIT) this.reportPage();
  }

  private reportPage(): void {
    const page = this.page;
    if (!page || this.decoder.done) return;
    const text = Buffer.concat(page.bytes).toString("utf8");
    this.decoder.fail(errorPageInfo(page.kind, text, this.status));
  }
}

/**
 * Reads the next batch of events from a body; `undefined` once the stream is complete. Never
 * throws for the body's sake: an error from the body itself (a reset, an abort, an idle timeout)
 * becomes an `error` event and the final status.
 */
export async function pullEvents(
  decoder: BodyDecoder,
  body: AsyncIterator<Uint8Array>,
): Promise<Event[] | undefined> {
  if (decoder.done) {
    const rest = decoder.take();
    return rest.length > 0 ? rest : undefined;
  }
  let next: IteratorResult<Uint8Array>;
  try {
    next = await body.next();
  } catch (err) {
    decoder.fail(errorInfoOf(err));
    return decoder.take();
  }
  // Outside the try: a decoder that throws is a bug of ours, not the body's, and must not pass for one.
  if (next.done) decoder.end();
  else decoder.write(next.value);
  return decoder.take();
}

/**
 * Decodes a raw response body (a recorded one, or a live one) into events. Never throws; stops
 * reading once the stream is complete and releases the body when the consumer stops early.
 */
export function decodeStream(
  scheme: SchemeName | Scheme,
  body: AsyncIterable<Uint8Array>,
): AsyncIterableIterator<Event> {
  const decoder = new BodyDecoder(typeof scheme === "string" ? getScheme(scheme) : scheme);
  const iterator = body[Symbol.asyncIterator]();
  return batchIterator(
    () => pullEvents(decoder, iterator),
    async () => {
      await iterator.return?.();
    },
  );
}

/** What a thrown value means for a stream: aborts and our own errors keep their kind; the rest is network. */
export function errorInfoOf(err: unknown): ErrorInfo {
  if (err instanceof LlmError) return err.toInfo();
  const e = err as { name?: string; message?: string; code?: string } | undefined;
  if (e?.name === "AbortError") return { kind: "aborted", message: "the request was aborted" };
  if (e?.name === "TimeoutError") return { kind: "timeout", message: e.message ?? "timed out" };
  const message = e?.message ?? String(err);
  return { kind: "network", message, ...(typeof e?.code === "string" && { code: e.code }) };
}
