import { describe, expect, it } from "vitest";
import { LineSplitter } from "./line-splitter.js";

function splitter(maxLineBytes?: number) {
  const out: string[] = [];
  const lines = new LineSplitter(
    { line: (text) => out.push(text), overflow: (limit) => out.push(`<overflow ${limit}>`) },
    maxLineBytes,
  );
  return {
    out,
    push: (text: string | Buffer) => lines.push(typeof text === "string" ? Buffer.from(text) : text),
  };
}

describe("LineSplitter", () => {
  it("splits on newlines across chunks, drops \\r before \\n and blank lines", () => {
    const { out, push } = splitter();
    push('{"a":1}\n{"b"');
    push(':2}\r\n\n   \n{"c":3}');
    expect(out).toEqual(['{"a":1}', '{"b":2}']);
    push("\n");
    expect(out).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("decodes a UTF-8 character split between chunks whole", () => {
    const { out, push } = splitter();
    const bytes = Buffer.from('{"t":"夜明け"}\n');
    for (let i = 0; i < bytes.length; i++) push(bytes.subarray(i, i + 1));
    expect(out).toEqual(['{"t":"夜明け"}']);
  });

  it("reports an overlong line once, skips it to its newline, and reads on", () => {
    const { out, push } = splitter(8);
    push("12345");
    push("67890abc");
    push("def\nok\n");
    expect(out).toEqual(["<overflow 8>", "ok"]);
    // Overlong within one chunk, newline included.
    push("0123456789\nfine\n");
    expect(out).toEqual(["<overflow 8>", "ok", "<overflow 8>", "fine"]);
    // Exactly at the limit is accepted.
    push("12345678\n");
    expect(out.at(-1)).toBe("12345678");
  });
});
