/**
 * A tool that returns images: each scheme gets them back in the tool result's own wire form, and
 * history keeps them on the result with a summary that names them (what is left after prune).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { imageOutput, MemoryBlobStore, tool } from "../../src/index.js";
import { recordedImages } from "../../src/testing/index.js";
import { SCHEMES, useMockProvider, workerOn } from "./tools-harness.js";

const mock = useMockProvider();

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const screenshot = tool({
  name: "screenshot",
  description: "A screenshot of the app",
  input: z.object({}),
  execute: () => imageOutput([{ type: "image", mediaType: "image/png", data: PNG }], "the login page"),
});

describe.each(SCHEMES)("%s: a tool returns an image", (scheme) => {
  it("sends it back as part of the tool result and keeps it in history", async () => {
    mock().enqueue(
      { blocks: [{ type: "tool_call", id: "call_1", name: "screenshot", arguments: {} }] },
      { blocks: [{ type: "text", text: "A login page." }] },
    );
    // A BlobStore is there: images must not go into it, nor be summarized away.
    const worker = workerOn(mock(), scheme, { tools: [screenshot], blobStore: new MemoryBlobStore() });
    const result = await worker.run("What does the app show?");
    expect(result).toMatchObject({ status: "finished", text: "A login page." });

    const second = mock().requests[1];
    if (second === undefined) throw new Error("no second request");
    expect(recordedImages(second)).toEqual([expect.objectContaining({ in: "tool_result", data: PNG })]);
    const stored = worker.history.find((item) => item.type === "tool_result");
    expect(stored).toMatchObject({
      content: "the login page",
      images: [{ type: "image", mediaType: "image/png", data: PNG }],
    });
    expect(stored?.type === "tool_result" && stored.summary).toMatch(/^\[image: image\/png, 70 bytes\] /);
  });
});
