import type { ErrorInfo, Event } from "../event.js";
import { EventWriter } from "../event-writer.js";
import type { Frame, StreamDecoder } from "../scheme.js";
import { excerpt, isRecord } from "./wire-json.js";

/**
 * A frame without the shape the protocol promises. A scheme's `read` throws it (or meets a
 * TypeError from a field of the wrong type); either way the stream fails as malformed, never throws.
 */
export class MalformedFrame extends Error {}

/**
 * The part of `StreamDecoder` every scheme shares, so that each decoder holds only its protocol:
 * frames after the end are ignored, empty ones skipped, the data parsed as one JSON object and
 * handed to `read`; anything else fails the stream as a `stream` error naming the frame
 * (`malformed Gemini chunk: <what>: <excerpt>`, the whole data as `raw`).
 */
export abstract class JsonFrameDecoder implements StreamDecoder {
  protected readonly writer: EventWriter;
  /** What one frame of this scheme is called in a malformed-frame message ("Gemini chunk"). */
  protected abstract readonly frameName: string;

  constructor(emit: (event: Event) => void) {
    this.writer = new EventWriter(emit);
  }

  get done(): boolean {
    return this.writer.isFinished;
  }

  push(frame: Frame): void {
    if (this.writer.isFinished) return;
    const data = frame.data;
    if (data === "") return;
    // Chat Completions' end marker; replays in vercel/ai's style append it to other schemes too.
    if (data === "[DONE]") {
      this.onDoneMarker();
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      this.onInvalidJson(frame);
      return;
    }
    if (!isRecord(parsed)) {
      this.malformed("not a JSON object", data);
      return;
    }
    try {
      this.read(parsed, frame);
    } catch (err) {
      const what =
        err instanceof MalformedFrame
          ? err.message
          : `unexpected shape (${err instanceof Error ? err.message : String(err)})`;
      this.malformed(what, data);
    }
  }

  /** The body ended: complete if the response was, else fail it as truncated. */
  abstract end(): void;

  /** Fails the stream with what the scheme knows so far (its raw stop reason, its last usage). */
  abstract fail(error: ErrorInfo): void;

  /** One frame's JSON object: the scheme's protocol. */
  protected abstract read(json: Record<string, unknown>, frame: Frame): void;

  /** `[DONE]`: the body is over, as if it ended here. */
  protected onDoneMarker(): void {
    this.end();
  }

  protected onInvalidJson(frame: Frame): void {
    this.malformed("invalid JSON", frame.data);
  }

  protected malformed(what: string, data: string): void {
    if (this.writer.isFinished) return;
    this.fail({
      kind: "stream",
      message: `malformed ${this.frameName}: ${what}: ${excerpt(data)}`,
      raw: data,
    });
  }

  /** Fails the stream as truncated: the body ended before the protocol's end. */
  protected truncated(rawStopReason: string | number | null = null): void {
    this.writer.fail(
      { kind: "stream", message: "the stream ended before the response was complete" },
      rawStopReason,
    );
  }
}
