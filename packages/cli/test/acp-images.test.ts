/**
 * `yoake acp` takes images: it advertises `promptCapabilities.image`, and an image block of a
 * prompt reaches the provider as an image (over the mock, through a real child process).
 */
import { recordedImages } from "@yoake/llm-worker/testing";
import { afterEach, expect, it } from "vitest";
import { initialize, killEditors, startEditor } from "./acp-editor.js";
import { headlessFixture } from "./cli-test-kit.js";

let fixture: Awaited<ReturnType<typeof headlessFixture>> | undefined;
afterEach(async () => {
  killEditors();
  await fixture?.close();
  fixture = undefined;
});

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

it("advertises images and sends an image block of a prompt to the model", async () => {
  const f = await headlessFixture();
  fixture = f;
  const editor = startEditor(f.project.dir, f.env);
  const init = await initialize(editor);
  expect(init.agentCapabilities?.promptCapabilities).toMatchObject({ image: true });
  const { sessionId } = await editor.connection.agent.request("session/new", {
    cwd: f.project.dir,
    mcpServers: [],
  });
  f.provider.enqueue({ blocks: [{ type: "text", text: "A white pixel." }] });
  const response = await editor.connection.agent.request("session/prompt", {
    sessionId,
    prompt: [
      { type: "text", text: "What is this?" },
      { type: "image", data: PNG, mimeType: "image/png" },
    ],
  });
  expect(response.stopReason).toBe("end_turn");
  const request = f.provider.requests[0];
  if (request === undefined) throw new Error("no request reached the provider");
  expect(recordedImages(request)).toEqual([{ in: "user", mediaType: "image/png", data: PNG }]);
});
