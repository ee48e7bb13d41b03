/** `yoake -p --output-schema`: the real CLI against the mock provider over real HTTP. */
import { afterEach, describe, expect, it } from "vitest";
import { headlessFixture } from "./cli-test-kit.js";

type Fixture = Awaited<ReturnType<typeof headlessFixture>>;
let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const SCHEMA = JSON.stringify({
  type: "object",
  properties: { todos: { type: "array", items: { type: "string" } }, count: { type: "integer" } },
  required: ["todos", "count"],
});
const answer = (text: string) => ({ blocks: [{ type: "text" as const, text }] });

async function setUp(): Promise<Fixture> {
  fixture = await headlessFixture({ "todos.schema.json": SCHEMA, "broken.json": "{ not json" });
  return fixture;
}

describe("--output-schema", () => {
  it("prints the validated JSON object on stdout; the request asked for it natively", async () => {
    const f = await setUp();
    f.provider.enqueue(answer('{"todos": ["write tests", "ship"], "count": 2}'));
    const out = await f.run(["-p", "List the TODOs", "--output-schema", "todos.schema.json"]);
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe("");
    expect(JSON.parse(out.stdout)).toEqual({ todos: ["write tests", "ship"], count: 2 });
    expect(out.stdout.trimEnd().split("\n")).toHaveLength(1);
    const body = f.provider.requests[0]?.body as { output_config?: { format?: { schema?: unknown } } };
    expect(body.output_config?.format?.schema).toMatchObject({ required: ["todos", "count"] });
  });

  it("with --output-format json the object is the result's structured_output", async () => {
    const f = await setUp();
    f.provider.enqueue(answer('{"todos": [], "count": 0}'));
    const out = await f.run([
      "-p",
      "List the TODOs",
      "--output-schema",
      "todos.schema.json",
      "--output-format",
      "json",
    ]);
    expect(out.exitCode).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result).toMatchObject({ status: "finished", structured_output: { todos: [], count: 0 } });
  });

  it("an answer that does not validate: nothing on stdout, the issues on one stderr line, exit 1", async () => {
    const f = await setUp();
    f.provider.enqueue(answer('{"todos": "none"}'));
    const out = await f.run(["-p", "List the TODOs", "--output-schema", "todos.schema.json"]);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe("");
    const lines = out.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^yoake: the answer does not match the output schema: todos: .*count: /);
  });

  it.each([
    ["missing.json", /--output-schema missing\.json: cannot read it/],
    ["broken.json", /--output-schema broken\.json: not JSON/],
  ])("a schema file that cannot be used (%s) is a usage error before any request", async (file, message) => {
    const f = await setUp();
    const out = await f.run(["-p", "hi", "--output-schema", file]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(message);
    expect(f.provider.requests).toHaveLength(0);
  });
});
