/** The README's examples run as written: each is executed as a real child process. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const example = (name: string): string => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));

async function output(name: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ["--conditions=@yoake/source", "--import", "tsx", example(name)],
    { timeout: 30_000 },
  );
  return stdout;
}

describe("examples", () => {
  it("stream-from-mock.ts streams thinking, text and a tool call", async () => {
    const out = await output("stream-from-mock.ts");
    expect(out).toContain("[thinking] The user wants the weather");
    expect(out).toContain('[tool call get_weather] {"city":"Kyoto","unit":"celsius"}');
    expect(out).toContain("[completed: tool_use]");
  });

  it("worker.ts runs a tool twice in parallel, asks the hook, and finishes", async () => {
    const out = await output("worker.ts");
    expect(out).toContain('[hook] get_weather({"city":"Oslo"}) → continue');
    expect(out).toContain("[tool] get_weather → sunny, 24°C");
    expect(out).toContain("Kyoto is sunny at 24°C; Oslo is at 3°C.");
    expect(out).toContain("[finished] history: 7 items");
  });

  it("structured-output.ts gets a typed object after one repair, and a typed error without", async () => {
    const out = await output("structured-output.ts");
    expect(out).toContain("Paris: 2,102,650 people, Louvre");
    expect(out).toContain('invalid answer "Paris, of course.": the answer is not JSON');
  });

  it("quota.ts retries a rate limit and fails fast on a spent quota with its reset time", async () => {
    const out = await output("quota.ts");
    expect(out).toContain("[retry] rate_limit");
    expect(out).toContain("[answer] Hello!");
    expect(out).toMatch(/\[quota\] exhausted; resume the job in about 6 h/);
    expect(out).toContain("[requests] 3");
  });

  it("tracing.ts prints the span tree of a two-round tool loop", async () => {
    const out = await output("tracing.ts");
    expect(out).toMatch(/^invoke_agent .*gen_ai\.usage\.input_tokens=680/m);
    expect(out).toMatch(/^ {4}execute_tool get_weather {2}gen_ai\.tool\.name=get_weather$/m);
    expect(out).toMatch(/^ {4}chat claude-sonnet-4-5 .*finish_reasons=end_turn$/m);
  });

  it("images.ts sends a user image and a tool's image", async () => {
    const out = await output("images.ts");
    expect(out).toContain("Both show a single white pixel.");
    expect(out).toContain("request 2: an image/png image in the user message");
    expect(out).toContain("request 2: an image/png image in the tool result");
  });

  it("fallback.ts moves to the next model after the retries, and says why", async () => {
    const out = await output("fallback.ts");
    expect(out).toContain("[retry] attempt 3 of 3");
    expect(out).toMatch(
      /\[fallback\] anthropic\/claude-sonnet-4-5 → ollama\/qwen3:8b \(overloaded\); ~\d+ prompt tokens/,
    );
    expect(out).toContain("Hello from the fallback model.");
  });
});
