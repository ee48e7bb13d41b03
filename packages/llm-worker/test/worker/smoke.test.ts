import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createClient, tool, Worker } from "../../src/index.js";
import { useMockProvider } from "./tools-harness.js";

const mock = useMockProvider();

describe("Worker smoke", () => {
  it("runs a tool loop against the mock provider", async () => {
    const weather = tool({
      name: "get_weather",
      description: "weather",
      input: z.object({ city: z.string() }),
      execute: ({ city }) => `sunny in ${city}`,
    });
    mock().enqueue({ blocks: [{ type: "tool_call", name: "get_weather", arguments: { city: "Kyoto" } }] });
    mock().enqueue({ blocks: [{ type: "text", text: "It is sunny." }] });
    const client = createClient({
      scheme: "anthropic",
      model: "m",
      baseURL: mock().baseURLFor("anthropic"),
      apiKey: "k",
    });
    const worker = new Worker({ client, tools: [weather] });
    const events: string[] = [];
    worker.on("tool_end", (e) => events.push(`${e.call.name}:${e.result.content}`));
    const result = await worker.run("weather?");
    expect(result.status).toBe("finished");
    expect(events).toEqual(["get_weather:sunny in Kyoto"]);
    expect(worker.history.map((i) => i.type)).toEqual(["message", "tool_call", "tool_result", "message"]);
  });
});
