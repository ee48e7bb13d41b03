import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ImagePart } from "@yoake/llm-worker";
import { IMAGE_LIMIT_BYTES, type PodEvent, type Segment } from "@yoake/pod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionController } from "../controller/session-controller.js";
import type { PodLike, RunOutcome } from "../pod-like.js";
import { takePastedImages } from "./pasted-images.js";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-paste-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("takePastedImages", () => {
  it("attaches image files named by path, however the terminal quoted them", async () => {
    writeFileSync(path.join(dir, "shot.png"), PNG);
    writeFileSync(path.join(dir, "my photo.jpg"), JPEG);
    const spaced = path.join(dir, "my photo.jpg");
    const input = `compare ${path.join(dir, "shot.png")} with '${spaced}' and ${spaced.replaceAll(" ", "\\ ")} and ${pathToFileURL(path.join(dir, "shot.png")).href}`;
    const pasted = await takePastedImages(input, dir);
    expect(pasted.text).toBe(
      "compare [Image: shot.png] with [Image: my photo.jpg] and [Image: my photo.jpg] and [Image: shot.png]",
    );
    expect(pasted.images.map((image) => ("mediaType" in image ? image.mediaType : ""))).toEqual([
      "image/png",
      "image/jpeg",
      "image/jpeg",
      "image/png",
    ]);
    expect(pasted.images[0]).toEqual({ type: "image", mediaType: "image/png", data: PNG.toString("base64") });
    expect(pasted.refused).toEqual([]);
  });

  it("leaves text, other files, missing paths and relative words alone", async () => {
    writeFileSync(path.join(dir, "notes.png"), "text, not an image");
    writeFileSync(path.join(dir, "shot.png"), PNG);
    const input = `see ${path.join(dir, "notes.png")} ${path.join(dir, "nope.png")} shot.png /etc`;
    expect(await takePastedImages(input, dir)).toEqual({ text: input, images: [], refused: [] });
  });

  it("keeps the path of an image over the limit as text and says why", async () => {
    const big = Buffer.alloc(IMAGE_LIMIT_BYTES + 1);
    PNG.copy(big);
    writeFileSync(path.join(dir, "huge.png"), big);
    const input = `look ${path.join(dir, "huge.png")}`;
    expect(await takePastedImages(input, dir)).toEqual({
      text: input,
      images: [],
      refused: [
        "huge.png is an image of 3.75 MiB, over the 3.75 MiB limit for images; scale it down or crop it first",
      ],
    });
  });
});

it("the TUI sends a pasted image path as an attachment of the prompt", async () => {
  writeFileSync(path.join(dir, "shot.png"), PNG);
  const runs: Array<{ input: readonly Segment[]; images?: readonly ImagePart[] }> = [];
  const pod: PodLike = {
    run: (input, options): Promise<RunOutcome> => {
      runs.push({ input, ...(options.images && { images: options.images }) });
      return Promise.resolve({ status: "finished" });
    },
    respond: () => Promise.resolve({ status: "finished" }),
    listen: (_listener: (event: PodEvent) => void) => () => {},
  };
  const controller = new SessionController(
    pod,
    () => {},
    () => {},
  );
  await controller.submit(`what is ${path.join(dir, "shot.png")}?`);
  expect(runs).toEqual([
    {
      input: [{ type: "text", text: "what is [Image: shot.png]?" }],
      images: [{ type: "image", mediaType: "image/png", data: PNG.toString("base64") }],
    },
  ]);
});
