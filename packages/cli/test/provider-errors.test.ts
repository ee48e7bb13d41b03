import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { headlessFixture } from "./cli-test-kit.js";

type Fixture = Awaited<ReturnType<typeof headlessFixture>>;
let fixture: Fixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe("a key the provider echoes", () => {
  it("appears in neither stdout, stderr nor the session log, whatever the output format", async () => {
    fixture = await headlessFixture();
    const f = fixture;
    const key = "sk-ant-e2e-0123456789abcdefSECRET";
    const masked = "sk-ant-...CRET";
    f.env.ANTHROPIC_API_KEY = key;
    f.provider.setHandler(() => ({
      fault: "status",
      status: 401,
      message: `invalid x-api-key ${key} (seen as ${masked})`,
    }));
    for (const format of ["text", "json", "stream-json"]) {
      const out = await f.run(["-p", "hi", "--output-format", format]);
      expect(out.exitCode).toBe(1);
      for (const text of [out.stdout, out.stderr]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(masked);
      }
      expect(out.stderr).toContain(
        "anthropic: 401 invalid x-api-key [redacted] (seen as [redacted]) — check ANTHROPIC_API_KEY",
      );
    }
    const written = [...(await filesUnder(f.project.home)), ...(await filesUnder(f.project.dir))];
    const logs = written.filter((file) => file.endsWith(".jsonl"));
    expect(logs.length).toBeGreaterThan(0);
    for (const file of written) {
      const text = await readFile(file, "utf8");
      expect(text, file).not.toContain(key);
      expect(text, file).not.toContain(masked);
    }
  });
});

describe("a request sent again", () => {
  const overloaded = {
    fault: "status" as const,
    status: 529,
    message: "Overloaded",
    headers: { "retry-after-ms": "10" },
  };
  const answer = { blocks: [{ type: "text" as const, text: "Hello" }] };

  it("is an object in stream-json, with the attempt, the wait and the reason", async () => {
    fixture = await headlessFixture();
    fixture.provider.enqueue(overloaded, answer);
    const out = await fixture.run(["-p", "hi", "--output-format", "stream-json"]);
    expect(out.exitCode).toBe(0);
    const events = out.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string });
    expect(events.filter((e) => e.event === "retry")).toEqual([
      {
        event: "retry",
        turn: 1,
        attempt: 2,
        maxAttempts: 3,
        delayMs: 10,
        error: {
          kind: "overloaded",
          message: "anthropic: 529 Overloaded",
          code: "overloaded_error",
          status: 529,
        },
      },
    ]);
  });

  it("is a line on stderr, without --verbose", async () => {
    fixture = await headlessFixture();
    fixture.provider.enqueue(overloaded, answer);
    const out = await fixture.run(["-p", "hi"]);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe("Hello\n");
    expect(out.stderr).toContain("yoake: retrying in 0.0 s (attempt 2 of 3): anthropic: 529 Overloaded\n");
  });
});

describe("--output-format json", () => {
  it("reports usage with the same keys for every provider", async () => {
    fixture = await headlessFixture();
    const keys: Record<string, string[]> = {};
    for (const model of ["anthropic/claude-sonnet-5-5", "openai/gpt-5", "gemini/gemini-2.5-flash"]) {
      fixture.provider.enqueue({
        blocks: [{ type: "text", text: "Hello" }],
        usage: { inputTokens: 10, outputTokens: 3 },
      });
      const out = await fixture.run(["-p", "hi", "--model", model, "--output-format", "json"]);
      expect(out.exitCode, out.stderr).toBe(0);
      const usage = (JSON.parse(out.stdout) as { usage: Record<string, number> }).usage;
      expect(usage).toMatchObject({ inputTokens: 10, outputTokens: 3, totalTokens: 13 });
      keys[model] = Object.keys(usage).sort();
    }
    const [first, ...rest] = Object.values(keys);
    for (const other of rest) expect(other).toEqual(first);
  });
});
