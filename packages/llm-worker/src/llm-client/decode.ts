import { LlmError } from "./errors.js";
import type { ErrorInfo, Event } from "./event.js";
import { createFramer } from "./framing.js";
import type { SchemeName } from "./item.js";
import type { Scheme } from "./scheme.js";
import { getScheme } from "./schemes/index.js";

/**
 * Decodes a raw response body (a recorded one, or a live one from the transport) into events.
 * Never throws: an error from the body itself (a reset, an abort, an idle timeout) becomes an
 * `error` event and the final status. Stops reading once the stream is complete.
 */
export async function* decodeStream(
  scheme: SchemeName | Scheme,
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<Event, void, undefined> {
  const s = typeof scheme === "string" ? getScheme(scheme) : scheme;
  const pending: Event[] = [];
  const decoder = s.createDecoder((event) => pending.push(event));
  const framer = createFramer(s.framing, (frame) => {
    if (!decoder.done) decoder.push(frame);
  });
  const iterator = body[Symbol.asyncIterator]();
  try {
    while (!decoder.done) {
      const next = await iterator.next();
      if (next.done) {
        framer.close();
        decoder.end();
        break;
      }
      framer.write(next.value);
      if (pending.length > 0) {
        for (let i = 0; i < pending.length; i++) yield pending[i] as Event;
        pending.length = 0;
      }
    }
  } catch (err) {
    decoder.fail(errorInfoOf(err));
  } finally {
    // Releases the body when we stop early (stream complete, consumer gone); a no-op after its end.
    await iterator.return?.();
  }
  for (const event of pending) yield event;
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
