import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { Frame, Framing } from "./scheme.js";

/**
 * Cuts a response body into frames. Push-based so that the hot path is plain function calls:
 * `write` decodes UTF-8 (keeping a sequence split across chunks for the next one) and calls
 * `onFrame` for every complete frame; `close` flushes what is left. `write` throws
 * `FrameTooLargeError` once more than `maxFrameChars` arrived without a frame ending.
 */
export interface Framer {
  write(chunk: Uint8Array): void;
  close(): void;
}

/**
 * The most characters a body may send without ending a frame (an SSE event, a line, an array
 * element). The biggest real frames are whole images in base64 (a few MiB); without a bound, a body
 * that never ends its line is held whole in memory (300 MB of it cost 392 MB before any error).
 */
export const MAX_FRAME_CHARS = 32 * 1024 * 1024;

/** A body sent more than `MAX_FRAME_CHARS` without ending a frame: reading it stops. */
export class FrameTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(
      `the provider sent more than ${limit / (1024 * 1024)} MiB without ending an event; stopped reading`,
    );
    this.name = "FrameTooLargeError";
  }
}

export function createFramer(
  framing: Framing,
  onFrame: (frame: Frame) => void,
  maxFrameChars = MAX_FRAME_CHARS,
): Framer {
  const utf8 = new TextDecoder("utf-8");
  // Characters since the last frame ended: what the framers below hold (or will hold) unframed.
  let unframed = 0;
  const emit = (frame: Frame): void => {
    unframed = 0;
    onFrame(frame);
  };
  let text: TextFramer | undefined = framing === "json-or-sse" ? undefined : makeTextFramer(framing, emit);
  let head = "";
  const feed = (chunk: string): void => {
    unframed += chunk.length;
    if (unframed > maxFrameChars) throw new FrameTooLargeError(maxFrameChars);
    if (text) {
      text.feed(chunk);
      return;
    }
    // Gemini answers with SSE when asked for `alt=sse`, else with one streamed JSON array.
    head += chunk;
    const first = head.trimStart()[0];
    if (first === undefined) return;
    text = makeTextFramer(first === "[" ? "json-array" : "sse", emit);
    text.feed(head);
    head = "";
  };
  return {
    write: (chunk) => feed(utf8.decode(chunk, { stream: true })),
    close: () => {
      feed(utf8.decode());
      text?.close();
    },
  };
}

interface TextFramer {
  feed(chunk: string): void;
  close(): void;
}

function makeTextFramer(kind: "sse" | "ndjson" | "json-array", onFrame: (frame: Frame) => void): TextFramer {
  if (kind === "sse") return sseFramer(onFrame);
  if (kind === "ndjson") return ndjsonFramer(onFrame);
  return jsonArrayFramer(onFrame);
}

function sseFramer(onFrame: (frame: Frame) => void): TextFramer {
  const parser = createParser({
    onEvent: (message: EventSourceMessage) =>
      onFrame(
        message.event === undefined ? { data: message.data } : { event: message.event, data: message.data },
      ),
  });
  return {
    feed: (chunk) => parser.feed(chunk),
    // A last event without its blank line still counts: the body ended, so the event is whole.
    close: () => parser.feed("\n\n"),
  };
}

function ndjsonFramer(onFrame: (frame: Frame) => void): TextFramer {
  let pending = "";
  const emitLine = (line: string): void => {
    const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (trimmed.trim() !== "") onFrame({ data: trimmed });
  };
  return {
    feed: (chunk) => {
      let start = 0;
      for (let newline = chunk.indexOf("\n"); newline !== -1; newline = chunk.indexOf("\n", start)) {
        emitLine(pending + chunk.slice(start, newline));
        pending = "";
        start = newline + 1;
      }
      pending += chunk.slice(start);
    },
    close: () => {
      emitLine(pending);
      pending = "";
    },
  };
}

/**
 * Object or array elements of one top-level JSON array, each as soon as it closes. Tracks only
 * nesting depth and strings; the decoder parses each element. Anything outside the elements
 * (the brackets, commas, whitespace) is skipped.
 */
function jsonArrayFramer(onFrame: (frame: Frame) => void): TextFramer {
  let depth = 0; // 1 = inside the top-level array
  let inString = false;
  let escaped = false;
  let element = "";
  return {
    feed: (chunk) => {
      let elementStart = depth >= 2 ? 0 : -1;
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i);
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 0x5c /* \ */) escaped = true;
          else if (c === 0x22 /* " */) inString = false;
          continue;
        }
        if (c === 0x22) {
          inString = true;
        } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
          if (depth === 1) elementStart = i;
          depth++;
        } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
          depth--;
          if (depth === 1 && elementStart !== -1) {
            onFrame({ data: element + chunk.slice(elementStart, i + 1) });
            element = "";
            elementStart = -1;
          }
        }
      }
      if (elementStart !== -1) element += chunk.slice(elementStart);
    },
    close: () => {
      // An element cut off by the end of the body is passed on so the decoder reports it as malformed.
      if (element.trim() !== "") onFrame({ data: element });
      element = "";
    },
  };
}
