import { describe, expect, it } from "vitest";
import { countLines, cutLine, formatBytes, isBinary, usesCrlf } from "./text-file.js";

describe("text-file helpers", () => {
  it("tells binary from UTF-8 text", () => {
    expect(isBinary(Buffer.from("héllo ✓ 😀\n"))).toBe(false);
    expect(isBinary(Buffer.from([0x61, 0x00, 0x62]))).toBe(true);
    expect(isBinary(Buffer.from([0xff, 0xfe, 0x61]))).toBe(true);
    expect(isBinary(Buffer.alloc(0))).toBe(false);
  });

  it("counts lines as editors do", () => {
    expect(countLines("")).toBe(0);
    expect(countLines("a")).toBe(1);
    expect(countLines("a\n")).toBe(1);
    expect(countLines("a\nb")).toBe(2);
    expect(countLines("\n\n")).toBe(2);
  });

  it("detects CRLF from the first line break", () => {
    expect(usesCrlf("a\r\nb\n")).toBe(true);
    expect(usesCrlf("a\nb\r\n")).toBe(false);
    expect(usesCrlf("no break")).toBe(false);
  });

  it("cuts a long line without splitting a surrogate pair", () => {
    expect(cutLine("abc", 3)).toBe("abc");
    expect(cutLine("abcdef", 3)).toBe("abc… [line cut: 3 more characters]");
    expect(cutLine("ab😀cd", 3)).toBe("ab… [line cut: 4 more characters]");
  });

  it("formats sizes for descriptions", () => {
    expect(formatBytes(16 * 1024)).toBe("16 KiB");
    expect(formatBytes(10 * 1024 * 1024)).toBe("10 MiB");
    expect(formatBytes(1000)).toBe("1000 bytes");
    expect(formatBytes(1)).toBe("1 byte");
  });
});
