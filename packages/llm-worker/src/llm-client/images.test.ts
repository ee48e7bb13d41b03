import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HELLO, mockClient } from "../../test/support/client-test-kit.js";
import { type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import { recordedImages } from "../testing/recorded-images.js";
import type { ImagePart, Item, SchemeName } from "./item.js";
import { userMessage } from "./item.js";
import { schemes } from "./schemes/index.js";

let mock: MockProvider;
beforeEach(async () => {
  mock = await startMockProvider();
});
afterEach(async () => {
  await mock.close();
});

/** A 1×1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const SHOT: ImagePart = { type: "image", mediaType: "image/png", data: PNG };
const CHART: ImagePart = { type: "image", mediaType: "image/jpeg", data: "/9j/4AAQSkZJRg==" };

function history(resultContent: string | undefined): Item[] {
  return [
    userMessage("What is on this screen?", [SHOT]),
    { type: "tool_call", callId: "call_1", name: "screenshot", arguments: "{}" },
    {
      type: "tool_result",
      callId: "call_1",
      name: "screenshot",
      summary: "1 image (image/jpeg)",
      ...(resultContent !== undefined && { content: resultContent }),
      images: [CHART],
    },
  ];
}

describe.each(Object.keys(schemes) as SchemeName[])("%s images over HTTP", (scheme) => {
  it("sends a user image and a tool result's image where the provider reads them", async () => {
    mock.enqueue(HELLO);
    const response = await mockClient(mock, scheme).complete({ items: history("the chart") });
    expect(response.status).toBe("completed");
    expect(recordedImages(mock.requests[0] as never)).toEqual([
      expect.objectContaining({
        in: "user",
        data: PNG,
        ...(scheme !== "ollama" && { mediaType: "image/png" }),
      }),
      expect.objectContaining({
        in: "tool_result",
        data: CHART.data,
        ...(scheme !== "ollama" && { mediaType: "image/jpeg" }),
      }),
    ]);
  });

  it("stops sending a tool result's images once prune dropped its content", async () => {
    mock.enqueue(HELLO);
    await mockClient(mock, scheme).complete({ items: history(undefined) });
    expect(recordedImages(mock.requests[0] as never).map((image) => image.in)).toEqual(["user"]);
  });

  it("sends an image message with no text", async () => {
    mock.enqueue(HELLO);
    await mockClient(mock, scheme).complete({ items: [userMessage("", [SHOT])] });
    expect(recordedImages(mock.requests[0] as never)).toEqual([expect.objectContaining({ data: PNG })]);
  });
});

describe("image URLs", () => {
  const byUrl: ImagePart = { type: "image", url: "https://example.test/cat.png", mediaType: "image/png" };

  it.each(["anthropic", "openai-chat", "openai-responses", "gemini"] as const)(
    "%s passes the URL for the provider to fetch",
    async (scheme) => {
      mock.enqueue(HELLO);
      await mockClient(mock, scheme).complete({ items: [userMessage("Describe", [byUrl])] });
      expect(recordedImages(mock.requests[0] as never)).toEqual([
        expect.objectContaining({ in: "user", url: byUrl.url }),
      ]);
    },
  );

  it("ollama, which cannot fetch, is told the URL in text", async () => {
    mock.enqueue(HELLO);
    await mockClient(mock, "ollama").complete({ items: [userMessage("Describe", [byUrl])] });
    const body = mock.requests[0]?.body as { messages: Array<{ content: string; images?: string[] }> };
    expect(body.messages[0]).toEqual({ role: "user", content: `Describe\n[image: ${byUrl.url}]` });
  });
});

describe("where a scheme cannot put a tool result's images", () => {
  it("openai-chat sends them in a user message after all the tool messages of the turn", async () => {
    mock.enqueue(HELLO);
    const [question, call, imageResult] = history("the chart") as [Item, Item, Item];
    // Two calls answered in one turn, the image first: the images must not split the `tool` messages.
    const items: Item[] = [
      question,
      call,
      { type: "tool_call", callId: "call_0", name: "ls", arguments: "{}" },
      imageResult,
      { type: "tool_result", callId: "call_0", name: "ls", summary: "a b", content: "a b" },
    ];
    await mockClient(mock, "openai-chat").complete({ items });
    const body = mock.requests[0]?.body as { messages: Array<{ role: string }> };
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
  });

  it("gemini before 3 puts them after the function response in the same turn", async () => {
    mock.enqueue(HELLO);
    await mockClient(mock, "gemini", { model: "gemini-2.5-flash" }).complete({ items: history("the chart") });
    const body = mock.requests[0]?.body as { contents: Array<{ role: string; parts: object[] }> };
    const last = body.contents.at(-1);
    expect(last?.role).toBe("user");
    expect(last?.parts.map((p) => Object.keys(p)[0])).toEqual(["functionResponse", "inlineData"]);
  });
});
