import { describe, expect, it } from "vitest";
import { decodeStream } from "./decode.js";
import { createFramer, FrameTooLargeError, MAX_FRAME_CHARS } from "./framing.js";
import type { Frame, Framing } from "./scheme.js";

const utf8 = new TextEncoder();

/** Frames of `text` fed in every possible two-way split, so no boundary is special. */
function framesAcrossSplits(framing: Framing, text: string): Frame[][] {
  const bytes = utf8.encode(text);
  const results: Frame[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) {
    const frames: Frame[] = [];
    const framer = createFramer(framing, (f) => frames.push(f));
    framer.write(bytes.subarray(0, cut));
    framer.write(bytes.subarray(cut));
    framer.close();
    results.push(frames);
  }
  return results;
}

function expectSameAtEverySplit(framing: Framing, text: string, expected: Frame[]): void {
  for (const frames of framesAcrossSplits(framing, text)) expect(frames).toEqual(expected);
}

describe("SSE framing", () => {
  it("keeps event names and data, across CRLF and UTF-8 splits", () => {
    expectSameAtEverySplit("sse", 'event: a\r\ndata: {"x":"÷"}\r\n\r\ndata: 2\r\n\r\n', [
      { event: "a", data: '{"x":"÷"}' },
      { data: "2" },
    ]);
  });

  it("skips comments and joins multi-line data", () => {
    expectSameAtEverySplit("sse", ": keep-alive\n\ndata: a\ndata: b\n\n", [{ data: "a\nb" }]);
  });

  it("passes on a last event that lacks its blank line", () => {
    expectSameAtEverySplit("sse", "data: last", [{ data: "last" }]);
  });
});

describe("NDJSON framing", () => {
  it("yields one frame per non-empty line, CRLF tolerated", () => {
    expectSameAtEverySplit("ndjson", '{"a":1}\r\n\n{"b":"ü"}\n{"c":3}', [
      { data: '{"a":1}' },
      { data: '{"b":"ü"}' },
      { data: '{"c":3}' },
    ]);
  });
});

describe("JSON array or SSE framing", () => {
  it("yields each element of a streamed array, brackets inside strings ignored", () => {
    expectSameAtEverySplit("json-or-sse", '[{"t":"a]}[{\\"","n":[1,{"x":2}]}\n,\r\n{"t":"é"}\n]', [
      { data: '{"t":"a]}[{\\"","n":[1,{"x":2}]}' },
      { data: '{"t":"é"}' },
    ]);
  });

  it("falls back to SSE when the body does not start with an array", () => {
    expectSameAtEverySplit("json-or-sse", '\r\ndata: {"a":1}\r\n\r\n', [{ data: '{"a":1}' }]);
  });

  it("passes on an element cut off by the end of the body, for the decoder to reject", () => {
    expectSameAtEverySplit("json-or-sse", '[{"a":1},{"b":', [{ data: '{"a":1}' }, { data: '{"b":' }]);
  });
});

describe("a frame that never ends", () => {
  const cases: Array<[Framing, (n: number) => string, string]> = [
    ["sse", (n) => `data: ${"x".repeat(n)}\n\n`, "data: "],
    ["ndjson", (n) => `"${"x".repeat(n)}"\n`, '"'],
    ["json-or-sse", (n) => `[{"a":"${"x".repeat(n)}"}]`, '[{"a":"'],
  ];

  it.each(cases)("%s: frames up to the bound pass, however long the stream", (framing, frame) => {
    const frames: Frame[] = [];
    const framer = createFramer(framing, (f) => frames.push(f), 100);
    // 50 frames of 80 characters: 4,000 in all, 40 times the bound.
    for (let i = 0; i < 50; i++) framer.write(utf8.encode(frame(80 - 12)));
    framer.close();
    expect(frames.length).toBe(50);
  });

  it.each(cases)("%s: more than the bound without a frame ending is refused", (framing, _, start) => {
    const framer = createFramer(framing, () => undefined, 100);
    framer.write(utf8.encode(start));
    expect(() => {
      for (let i = 0; i < 20; i++) framer.write(utf8.encode("x".repeat(10)));
    }).toThrow(FrameTooLargeError);
  });
});

describe("a body whose line never ends, decoded", () => {
  it("ends with a stream error after the bound, without reading the rest of the body", async () => {
    let pulled = 0;
    const chunk = utf8.encode("x".repeat(1024 * 1024));
    async function* endless(): AsyncGenerator<Uint8Array> {
      yield utf8.encode("event: message_start\ndata: ");
      for (;;) {
        pulled++;
        yield chunk;
      }
    }
    const events = [];
    for await (const event of decodeStream("anthropic", endless())) events.push(event);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "status", status: "failed" });
    expect(JSON.stringify(events)).toMatch(/without ending an event/);
    // Reading stopped at the bound (in MiB chunks), not at the end of memory.
    expect(pulled).toBe(MAX_FRAME_CHARS / chunk.length);
  });
});
