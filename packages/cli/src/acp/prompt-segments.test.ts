import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { projectPath, promptImages, promptSegments, wholeFilePath } from "./prompt-segments.js";

const ROOT = path.resolve("/home/ada/repo");
const fileUri = (p: string): string => pathToFileURL(p).href;

describe("promptSegments", () => {
  it("keeps text blocks as they are, joined without separators, and drops empty ones", () => {
    expect(
      promptSegments(
        [
          { type: "text", text: "Fix " },
          { type: "text", text: "" },
          { type: "text", text: "it please" },
        ],
        ROOT,
      ),
    ).toEqual([
      { type: "text", text: "Fix " },
      { type: "text", text: "it please" },
    ]);
  });

  it("makes file links and whole-file embedded resources file references relative to the project root", () => {
    const segments = promptSegments(
      [
        { type: "text", text: "Compare " },
        { type: "resource_link", uri: fileUri(path.join(ROOT, "src/a b.ts")), name: "a b.ts" },
        { type: "text", text: " with " },
        {
          type: "resource",
          resource: { uri: fileUri(path.join(ROOT, "src/c.ts")), text: "export const c = 1;\n" },
        },
      ],
      ROOT,
    );
    expect(segments).toEqual([
      { type: "text", text: "Compare " },
      { type: "file_ref", path: path.join("src", "a b.ts") },
      { type: "text", text: " with " },
      { type: "file_ref", path: path.join("src", "c.ts") },
    ]);
  });

  it("keeps a file outside the project absolute, for the scope to decide on", () => {
    const outside = path.resolve("/etc/hosts");
    expect(promptSegments([{ type: "resource_link", uri: fileUri(outside), name: "hosts" }], ROOT)).toEqual([
      { type: "file_ref", path: outside },
    ]);
  });

  it("turns an embedded selection (a file URI with a fragment) and other schemes' text into text", () => {
    const selection = `${fileUri(path.join(ROOT, "src/a.ts"))}#L3:4`;
    expect(
      promptSegments(
        [
          { type: "resource", resource: { uri: selection, text: "line three\nline four" } },
          { type: "resource", resource: { uri: "zed:///rules/1", text: "Be brief." } },
        ],
        ROOT,
      ),
    ).toEqual([
      { type: "text", text: `\n[Resource: ${selection}]\nline three\nline four\n` },
      { type: "text", text: "\n[Resource: zed:///rules/1]\nBe brief.\n" },
    ]);
  });

  it("leaves a note for what it cannot read, rather than dropping it silently", () => {
    const segments = promptSegments(
      [
        { type: "resource_link", uri: "https://example.com/spec", name: "spec" },
        { type: "resource", resource: { uri: "mem://blob", blob: "AAEC" } },
        { type: "image", data: "AAEC", mimeType: "image/png" },
        { type: "image", data: "AAEC", mimeType: "image/bmp" },
        { type: "audio", data: "AAEC", mimeType: "audio/wav" },
      ],
      ROOT,
    );
    // The PNG is attached (promptImages), so it leaves no note.
    expect(segments.map((s) => (s.type === "text" ? s.text : s.path))).toEqual([
      "[Link: spec <https://example.com/spec>]",
      "[Resource: mem://blob (binary, not shown)]",
      "[an image of type image/bmp was attached; yoake takes PNG, JPEG, GIF and WebP]",
      "[an audio clip was attached; yoake reads text only]",
    ]);
  });

  it("attaches the images the model takes: bytes, or an http(s) URI alone", () => {
    expect(
      promptImages([
        { type: "text", text: "what is this?" },
        { type: "image", data: "AAEC", mimeType: "image/png" },
        { type: "image", data: "", mimeType: "image/jpeg", uri: "https://example.com/cat.jpg" },
        { type: "image", data: "AAEC", mimeType: "image/tiff" },
      ]),
    ).toEqual([
      { type: "image", mediaType: "image/png", data: "AAEC" },
      { type: "image", mediaType: "image/jpeg", url: "https://example.com/cat.jpg" },
    ]);
  });
});

describe("wholeFilePath", () => {
  it("decodes a local file URI and refuses fragments, queries, remote hosts and other schemes", () => {
    expect(wholeFilePath(fileUri(path.join(ROOT, "my notes.md")))).toBe(path.join(ROOT, "my notes.md"));
    expect(wholeFilePath(`${fileUri(path.join(ROOT, "a.ts"))}#L1`)).toBeUndefined();
    expect(wholeFilePath(`${fileUri(path.join(ROOT, "a.ts"))}?symbol=x`)).toBeUndefined();
    expect(wholeFilePath("https://example.com/a.ts")).toBeUndefined();
    if (process.platform !== "win32") expect(wholeFilePath("file://server/share/a.ts")).toBeUndefined();
  });
});

describe("projectPath", () => {
  it("is relative inside the root, '.' for the root, absolute outside it", () => {
    expect(projectPath(path.join(ROOT, "src", "a.ts"), ROOT)).toBe(path.join("src", "a.ts"));
    expect(projectPath(ROOT, ROOT)).toBe(".");
    // A name that merely starts with two dots is inside.
    expect(projectPath(path.join(ROOT, "..other"), ROOT)).toBe("..other");
    expect(projectPath(path.resolve(ROOT, "..", "sibling", "b.ts"), ROOT)).toBe(
      path.resolve(ROOT, "..", "sibling", "b.ts"),
    );
  });
});
