/** The README's examples run as written: each is executed as a real child process. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const example = (name: string): string => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));

async function output(name: string): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", example(name)], { timeout: 30_000 });
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
