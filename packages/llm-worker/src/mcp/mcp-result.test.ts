import type { CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { toolResultOf } from "./mcp-result.js";

const text = (value: string) => ({ type: "text" as const, text: value });
const PNG_BASE64 = Buffer.alloc(1500, 7).toString("base64");

describe("toolResultOf: text content", () => {
  it("gives a single text block as a plain string, so the Worker's promotion applies", () => {
    expect(toolResultOf({ content: [text("Echo: hi")] })).toBe("Echo: hi");
    const big = "line\n".repeat(500);
    expect(toolResultOf({ content: [text(big)] })).toBe(big);
  });

  it("joins several blocks with newlines", () => {
    expect(toolResultOf({ content: [text("one"), text("two")] })).toBe("one\ntwo");
  });

  it("gives an empty string for no content", () => {
    expect(toolResultOf({ content: [] })).toBe("");
  });
});

describe("toolResultOf: content the model cannot read as text becomes one short line", () => {
  it("describes images and audio by type and decoded size, and passes images on as images", () => {
    const result = toolResultOf({
      content: [
        text("Here's the image:"),
        { type: "image", data: PNG_BASE64, mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      ],
    });
    expect(result).toEqual({
      kind: "images",
      images: [{ type: "image", mediaType: "image/png", data: PNG_BASE64 }],
      text: "Here's the image:\n[image: image/png, 1.5 KB]\n[audio: audio/wav, 3 bytes]",
    });
  });

  it("keeps an image of a type the providers do not take as its line only", () => {
    const result = toolResultOf({ content: [{ type: "image", data: "AAAA", mimeType: "image/tiff" }] });
    expect(result).toBe("[image: image/tiff, 3 bytes]");
  });

  it("names resource links with their URI, type and description", () => {
    const result = toolResultOf({
      content: [
        {
          type: "resource_link",
          name: "Text Resource 2",
          uri: "demo://resource/2",
          mimeType: "text/plain",
          description: "plaintext resource",
        },
        { type: "resource_link", name: "bare", uri: "demo://bare" },
      ],
    });
    expect(result).toBe(
      "[resource link: Text Resource 2 demo://resource/2 (text/plain) — plaintext resource]\n[resource link: bare demo://bare]",
    );
  });

  it("gives an embedded text resource's text under a header, a binary one's size", () => {
    const result = toolResultOf({
      content: [
        {
          type: "resource",
          resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "hello\nworld" },
        },
        {
          type: "resource",
          resource: { uri: "file:///b.bin", mimeType: "application/gzip", blob: "AAAAAA==" },
        },
      ],
    });
    expect(result).toBe(
      "[resource: file:///a.txt (text/plain)]\nhello\nworld\n[resource: file:///b.bin (application/gzip), 4 bytes]",
    );
  });

  it("names a block type it does not know instead of dropping it", () => {
    const result = toolResultOf({ content: [text("a"), { type: "hologram" }] } as unknown as CallToolResult);
    expect(result).toBe("a\n[hologram content]");
  });
});

describe("toolResultOf: structured content", () => {
  const weather = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };

  it("is inline compact JSON when small, whether or not the text repeats it", () => {
    expect(
      toolResultOf({ content: [text(JSON.stringify(weather, null, 2))], structuredContent: weather }),
    ).toEqual({
      kind: "inline",
      text: JSON.stringify(weather),
    });
    expect(toolResultOf({ content: [], structuredContent: weather })).toEqual({
      kind: "inline",
      text: JSON.stringify(weather),
    });
  });

  it("is a stored structured output over 800 bytes", () => {
    const rows = Array.from({ length: 40 }, (_, id) => ({ id, name: `row number ${id}` }));
    const result = toolResultOf({ content: [text(JSON.stringify(rows))], structuredContent: { rows } });
    expect(result).toEqual({ kind: "stored", content: { kind: "structured", value: { rows } } });
  });

  it("leaves the text to the model when the text is prose rather than a copy of the JSON", () => {
    // server-filesystem: the file's text, and the same text wrapped as { content }.
    const file = "hello\nworld\n";
    expect(toolResultOf({ content: [text(file)], structuredContent: { content: file } })).toBe(file);
  });
});

describe("toolResultOf: errors", () => {
  it("throws the text of an isError result, for the Worker to make an error result of", () => {
    expect(() =>
      toolResultOf({ content: [text("Access denied - path outside allowed directories")], isError: true }),
    ).toThrow("Access denied - path outside allowed directories");
  });

  it("still throws something readable when the error has no text", () => {
    expect(() => toolResultOf({ content: [], isError: true })).toThrow(/reported an error without a message/);
  });
});
