import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PNG_BYTES } from "../../test/support/test-images.js";
import { ScopedFs } from "../scope/scoped-fs.js";
import { IMAGE_LIMIT_BYTES, sniffImageType } from "./image-file.js";
import { resolveFileRef } from "./resolver.js";

describe("sniffImageType", () => {
  it.each([
    ["image/png", PNG_BYTES],
    ["image/jpeg", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46])],
    ["image/gif", Buffer.from("GIF89a\x01\x00\x01\x00", "latin1")],
    ["image/webp", Buffer.from("RIFF\x24\x00\x00\x00WEBPVP8 ", "latin1")],
  ])("knows %s by its magic bytes", (type, bytes) => {
    expect(sniffImageType(bytes)).toBe(type);
  });

  it.each([
    ["text", Buffer.from("hello world, not an image")],
    ["a RIFF that is audio", Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1")],
    ["nothing", Buffer.alloc(0)],
  ])("says no to %s", (_name, bytes) => {
    expect(sniffImageType(bytes)).toBeUndefined();
  });
});

describe("@image references", () => {
  let root: string;
  let fs: ScopedFs;
  beforeEach(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-image-ref-")));
    fs = await ScopedFs.create({
      root,
      allow: [{ path: ".", access: "read", recursive: true, source: "test" }],
      deny: [],
    });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("attaches an image as a user message carrying it, whatever its name", async () => {
    writeFileSync(path.join(root, "shot"), PNG_BYTES);
    const resolved = await resolveFileRef(fs, "shot");
    expect(resolved).toEqual({
      ok: true,
      truncated: false,
      item: {
        type: "message",
        role: "user",
        text: "[Image: shot]",
        images: [{ type: "image", mediaType: "image/png", data: PNG_BYTES.toString("base64") }],
      },
    });
  });

  it("reads a .png that is text as text", async () => {
    writeFileSync(path.join(root, "notes.png"), "not really a picture\n");
    const resolved = await resolveFileRef(fs, "notes.png");
    expect(resolved).toMatchObject({
      ok: true,
      item: { role: "system", text: "[File: notes.png]\nnot really a picture\n" },
    });
  });

  it("refuses an image over the limit with its size and what to do", async () => {
    const big = Buffer.alloc(IMAGE_LIMIT_BYTES + 1);
    PNG_BYTES.copy(big);
    writeFileSync(path.join(root, "huge.png"), big);
    const resolved = await resolveFileRef(fs, "huge.png");
    expect(resolved).toEqual({
      ok: false,
      reason: "too_large",
      message:
        "could not attach @huge.png is an image of 3.75 MiB, over the 3.75 MiB limit for images; scale it down or crop it first",
    });
  });
});
