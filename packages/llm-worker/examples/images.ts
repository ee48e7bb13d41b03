/**
 * `npx tsx packages/llm-worker/examples/images.ts`: an image in a user message, and a tool that
 * returns one, against the package's mock of the OpenAI Responses API (no key, no network). The
 * mock records what it received: the images are printed from the request as the provider read them.
 */
import { createClient, imageOutput, tool, userMessage, Worker } from "@yoake/llm-worker";
import { recordedImages, startMockProvider } from "@yoake/llm-worker/testing";
import { z } from "zod";

/** A 1×1 PNG. */
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const provider = await startMockProvider();
provider.enqueue(
  { blocks: [{ type: "tool_call", id: "call_1", name: "screenshot", arguments: {} }] },
  { blocks: [{ type: "text", text: "Both show a single white pixel." }] },
);

const screenshot = tool({
  name: "screenshot",
  description: "A screenshot of the app",
  input: z.object({}),
  // The image goes to the model as it is; the summary kept in history names it.
  execute: () => imageOutput([{ type: "image", mediaType: "image/png", data: PIXEL }], "the app's window"),
});

const worker = new Worker({
  client: createClient({
    scheme: "openai-responses",
    model: "gpt-5",
    baseURL: provider.baseURLFor("openai-responses"),
    apiKey: "not-needed-for-the-mock",
  }),
  tools: [screenshot],
});
const result = await worker.run([
  userMessage("Does my sketch match the app?", [{ type: "image", mediaType: "image/png", data: PIXEL }]),
]);
console.log(result.status === "finished" ? result.text : result.status);

for (const [n, request] of provider.requests.entries())
  for (const image of recordedImages(request))
    console.log(
      `request ${n + 1}: an ${image.mediaType} image in the ${image.in === "user" ? "user message" : "tool result"}`,
    );
await provider.close();
