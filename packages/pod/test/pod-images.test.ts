/**
 * Images through a real Pod and the mock provider over HTTP: `@shot.png` attaches the image, an
 * image over the limit is an alert, `read_file` on an image shows it to the model, and the session
 * log keeps the image parts.
 */
import { recordedImages } from "@yoake/llm-worker/testing";
import { describe, expect, it } from "vitest";
import { IMAGE_LIMIT_BYTES } from "../src/file-ref/image-file.js";
import { answer, toolCall } from "./support/pod-test-kit.js";
import { useSessionTestbed } from "./support/session-test-kit.js";
import { PNG_BYTES } from "./support/test-images.js";

const bed = useSessionTestbed();
const PNG = PNG_BYTES.toString("base64");

describe("images in the Pod", () => {
  it("@shot.png attaches the image to the prompt", async () => {
    const { put, createPod, mock } = bed();
    put("shot.png", PNG_BYTES);
    mock.enqueue(answer("A white pixel."));
    const pod = await createPod();
    const result = await pod.run("what is in @shot.png?");
    expect(result.status).toBe("finished");
    const request = mock.requests[0];
    if (request === undefined) throw new Error("no request");
    expect(recordedImages(request)).toEqual([{ in: "user", mediaType: "image/png", data: PNG }]);
    expect(pod.history).toContainEqual(
      expect.objectContaining({
        role: "user",
        text: "[Image: shot.png]",
        images: [expect.objectContaining({ data: PNG })],
      }),
    );
  });

  it("an image over the limit is refused with an alert saying so, and the prompt still goes", async () => {
    const { put, createPod, mock, events } = bed();
    const big = Buffer.alloc(IMAGE_LIMIT_BYTES + 10);
    PNG_BYTES.copy(big);
    put("huge.png", big);
    mock.enqueue(answer("ok"));
    const pod = await createPod();
    await pod.run("look at @huge.png");
    expect(events(pod).filter((e) => e.type === "alert")).toEqual([
      expect.objectContaining({
        level: "warn",
        source: "file_ref",
        message: expect.stringMatching(
          /^could not attach @huge\.png is an image of 3\.75 MiB, over the 3\.75 MiB limit/,
        ),
      }),
    ]);
    expect(recordedImages(mock.requests[0] as never)).toEqual([]);
  });

  it("read_file on an image returns it as an image part, and the session log keeps it", async () => {
    const { put, open, mock } = bed();
    put(
      "diagram.webp",
      Buffer.concat([Buffer.from("RIFF\x24\x00\x00\x00WEBPVP8 ", "latin1"), Buffer.alloc(20)]),
    );
    mock.enqueue(toolCall("read_file", { path: "diagram.webp" }), answer("A diagram."));
    const pod = await open();
    await pod.run("describe diagram.webp");
    const second = mock.requests[1];
    if (second === undefined) throw new Error("no second request");
    expect(recordedImages(second)).toEqual([
      expect.objectContaining({ in: "tool_result", mediaType: "image/webp" }),
    ]);
    await pod.close();

    const reopened = await open({ session: "latest" });
    const result = reopened.history.find((item) => item.type === "tool_result");
    expect(result).toMatchObject({ images: [{ type: "image", mediaType: "image/webp" }] });
    await reopened.close();
  });
});
