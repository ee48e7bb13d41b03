/**
 * Structured output over real HTTP against the mock provider, for all five schemes: the native mode
 * on the wire, the answer parsed, validated and typed, the typed error, the one repair.
 */
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  completeObject,
  createClient,
  type LlmClient,
  outputSchema,
  type SchemeName,
  StructuredOutputError,
  tool,
  userMessage,
  Worker,
} from "../../src/index.js";
import { type MockProvider, type RecordedRequest, startMockProvider } from "../../src/testing/index.js";

const SCHEMES: readonly SchemeName[] = ["anthropic", "openai-chat", "openai-responses", "gemini", "ollama"];

let mock: MockProvider;
beforeEach(async () => {
  mock = await startMockProvider({ writeSize: 32 });
});
afterEach(() => mock.close());

function client(scheme: SchemeName): LlmClient {
  return createClient({
    scheme,
    model: "test-model",
    apiKey: "k",
    baseURL: mock.baseURLFor(scheme),
    retry: { maxRetries: 0 },
  });
}

const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
const City = z.object({ city: z.string(), population: z.number().int(), nickname: z.string().optional() });
const REQUEST = { items: [userMessage("The capital of France?")] };

/** The JSON Schema the request carried in the scheme's native structured-output field. */
function sentSchema(scheme: SchemeName, request: RecordedRequest | undefined): Record<string, unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: five providers' bodies, each read by its own field path.
  const body = request?.body as Record<string, any>;
  switch (scheme) {
    case "anthropic":
      expect(body.output_config.format.type).toBe("json_schema");
      return body.output_config.format.schema;
    case "openai-chat":
      expect(body.response_format).toMatchObject({
        type: "json_schema",
        json_schema: { name: "answer", strict: true },
      });
      return body.response_format.json_schema.schema;
    case "openai-responses":
      expect(body.text.format).toMatchObject({ type: "json_schema", name: "answer", strict: true });
      return body.text.format.schema;
    case "gemini":
      expect(body.generationConfig.responseMimeType).toBe("application/json");
      return body.generationConfig.responseJsonSchema;
    case "ollama":
      return body.format;
  }
}

describe.each(SCHEMES)("%s", (scheme) => {
  it("completeObject: the native mode carries the strict schema; the object is parsed, validated and typed", async () => {
    // A strict model fills the optional field it leaves out with null.
    mock.enqueue(text('{"city":"Paris","population":2102650,"nickname":null}'));
    const { object, response } = await completeObject(client(scheme), REQUEST, { schema: City });
    expectTypeOf(object).toEqualTypeOf<{ city: string; population: number; nickname?: string | undefined }>();
    expect(object).toEqual({ city: "Paris", population: 2102650 });
    expect(response.status).toBe("completed");
    const schema = sentSchema(scheme, mock.requests[0]);
    expect(schema).toMatchObject({
      type: "object",
      required: ["city", "population", "nickname"],
      additionalProperties: false,
    });
  });

  it("an answer that does not validate is a StructuredOutputError with the text and the issues", async () => {
    const answer = '{"city":"Paris","population":"two million"}';
    mock.enqueue(text(answer));
    const failure = await completeObject(client(scheme), REQUEST, { schema: City }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StructuredOutputError);
    const error = failure as StructuredOutputError;
    expect(error.kind).toBe("invalid_output");
    expect(error.text).toBe(answer);
    expect(error.issues).toEqual([expect.objectContaining({ path: ["population"] })]);
    expect(mock.requests).toHaveLength(1);
  });

  it("with repair, the issues go back once and the corrected answer is taken", async () => {
    mock.enqueue(text("Paris, about two million people"), text('{"city":"Paris","population":2102650}'));
    const { object } = await completeObject(client(scheme), REQUEST, { schema: City, repair: true });
    expect(object.population).toBe(2102650);
    expect(mock.requests).toHaveLength(2);
    const second = JSON.stringify(mock.requests[1]?.body);
    expect(second).toContain("Paris, about two million people");
    expect(second).toContain("the answer is not JSON");
  });

  it("a Worker run with tools: two rounds, every request carries the format, the output is typed", async () => {
    const lookup = tool({
      name: "lookup",
      description: "Population of a city",
      input: z.object({ city: z.string() }),
      execute: () => "2102650",
    });
    mock.enqueue(
      { blocks: [{ type: "tool_call", id: "c1", name: "lookup", arguments: { city: "Paris" } }] },
      text('```json\n{"city":"Paris","population":2102650}\n```'),
    );
    const worker = new Worker({ client: client(scheme), tools: [lookup] });
    const result = await worker.run("The capital of France and its population?", { output: City });
    expect(result.status).toBe("finished");
    if (result.status !== "finished") return;
    expectTypeOf(result.output).toEqualTypeOf<z.output<typeof City>>();
    expect(result.output).toEqual({ city: "Paris", population: 2102650 });
    expect(mock.requests).toHaveLength(2);
    for (const request of mock.requests)
      expect(sentSchema(scheme, request)).toHaveProperty("properties.city");
  });
});

describe("JSON Schema output and Worker failures", () => {
  const schema = outputSchema({
    type: "object",
    properties: { answer: { type: "string" }, confidence: { type: "number", minimum: 0, maximum: 1 } },
    required: ["answer", "confidence"],
  });

  it("a JSON Schema is sent as given (strict form) and validated", async () => {
    mock.enqueue(text('{"answer":"yes","confidence":0.9}'), text('{"answer":"yes","confidence":7}'));
    const ok = await completeObject(client("openai-chat"), REQUEST, { schema });
    expect(ok.object).toEqual({ answer: "yes", confidence: 0.9 });
    const failure = await completeObject(client("openai-chat"), REQUEST, { schema }).catch((e: unknown) => e);
    expect((failure as StructuredOutputError).issues[0]?.path).toEqual(["confidence"]);
  });

  it("a run whose answer stays invalid after the repair fails with invalid_output", async () => {
    mock.enqueue(text("not json"), text('{"answer":"still no confidence"}'));
    const worker = new Worker({ client: client("anthropic") });
    const result = await worker.run("Well?", { output: schema, repairOutput: true });
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.error).toMatchObject({ kind: "invalid_output", text: '{"answer":"still no confidence"}' });
    expect(result.error.kind === "invalid_output" && result.error.issues[0]?.path).toEqual(["confidence"]);
    expect(result.turns).toBe(2);
  });

  it("a run without an output schema sends no format", async () => {
    mock.enqueue(text("hi"));
    await new Worker({ client: client("openai-responses") }).run("hello");
    expect(mock.requests[0]?.body).not.toHaveProperty("text");
  });
});
