/**
 * `strictToolSchemas: true`: every request carries OpenAI strict-compatible schemas, and a model
 * held to them (it sends `null` for each optional field it leaves out) still gets its call run.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type SchemeName, tool, Worker } from "../../src/index.js";
import { toStrictJsonSchema } from "../../src/structured/json-schema.js";
import { bodyOf, clientFor, useMockProvider } from "./tools-harness.js";

const mock = useMockProvider();

function searchTool(received: unknown[]) {
  return tool({
    name: "search",
    description: "Search the catalogue",
    input: z.object({
      query: z.string(),
      limit: z.number().int().default(5),
      filters: z.object({ maxPrice: z.number(), brand: z.string().optional() }).optional(),
    }),
    execute: (args) => {
      received.push(args);
      return "3 results";
    },
  });
}

/** The parameters schema of the request's only tool, wherever the scheme puts it. */
function sentSchema(scheme: SchemeName, body: Record<string, unknown>): unknown {
  const [first = {}] = body.tools as Array<Record<string, unknown>>;
  return scheme === "openai-chat" ? (first.function as { parameters: unknown }).parameters : first.parameters;
}

describe.each(["openai-chat", "openai-responses"] as const)("strict tool schemas over %s", (scheme) => {
  it("sends the strict schema and runs a call that fills optional fields with null", async () => {
    const provider = mock();
    const received: unknown[] = [];
    const search = searchTool(received);
    provider.enqueue(
      {
        blocks: [
          {
            type: "tool_call",
            id: "call_1",
            name: "search",
            arguments: { query: "kettle", limit: null, filters: { maxPrice: 40, brand: null } },
          },
          {
            type: "tool_call",
            id: "call_2",
            name: "search",
            arguments: { query: "mug", limit: 2, filters: null },
          },
        ],
      },
      { blocks: [{ type: "text", text: "Found some." }] },
    );
    const worker = new Worker({
      client: clientFor(provider, scheme),
      tools: [search],
      strictToolSchemas: true,
    });

    const result = await worker.run("find a kettle and a mug");

    expect(result.status).toBe("finished");
    for (const n of [0, 1])
      expect(sentSchema(scheme, bodyOf(provider, n))).toEqual(toStrictJsonSchema(search.inputSchema));
    expect(sentSchema(scheme, bodyOf(provider, 0))).toMatchObject({
      required: ["query", "limit", "filters"],
      additionalProperties: false,
    });
    expect(received).toEqual([
      { query: "kettle", limit: 5, filters: { maxPrice: 40 } },
      { query: "mug", limit: 2 },
    ]);
    const results = worker.history.flatMap((i) => (i.type === "tool_result" ? [i] : []));
    expect(results.map((r) => [r.content, r.isError])).toEqual([
      ["3 results", undefined],
      ["3 results", undefined],
    ]);
  });
});

describe("without strictToolSchemas", () => {
  it("sends the schema zod gives, defaults and optional fields as they are", async () => {
    const provider = mock();
    const search = searchTool([]);
    provider.enqueue({ blocks: [{ type: "text", text: "Hi." }] });
    await new Worker({ client: clientFor(provider, "openai-chat"), tools: [search] }).run("hi");
    expect(sentSchema("openai-chat", bodyOf(provider, 0))).toEqual(search.inputSchema);
    expect(search.inputSchema).toMatchObject({ required: ["query"], properties: { limit: { default: 5 } } });
  });
});
