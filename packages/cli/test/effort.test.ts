import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headlessFixturePerTest } from "./cli-test-kit.js";

const setUp = headlessFixturePerTest();

const answer = (text: string) => ({ blocks: [{ type: "text" as const, text }] });

describe("yoake --effort", () => {
  // Ollama (`think`) is covered by packages/pod/src/effort/effort.test.ts: this branch's CLI has no base-URL variable for it.
  it("maps each level to the provider's own setting", async () => {
    const f = await setUp();
    const cases: Array<[string[], (body: Record<string, unknown>) => unknown, unknown]> = [
      [["--effort", "high"], (b) => b.thinking, { type: "enabled", budget_tokens: 16384 }],
      [["--effort", "max"], (b) => b.thinking, { type: "enabled", budget_tokens: 32000 }],
      [
        ["--effort", "low", "--model", "openai/gpt-5"],
        (b) => (b.reasoning as { effort?: string }).effort,
        "low",
      ],
      [
        ["--effort", "max", "--model", "openai/gpt-5"],
        (b) => (b.reasoning as { effort?: string }).effort,
        "high",
      ],
      [
        ["--effort", "medium", "--model", "gemini/gemini-2.5-pro"],
        (b) => (b.generationConfig as { thinkingConfig?: unknown }).thinkingConfig,
        { includeThoughts: true, thinkingBudget: 8192 },
      ],
    ];
    for (const [options, pick, expected] of cases) {
      f.provider.enqueue(answer("ok"));
      const out = await f.run(["-p", "think", ...options]);
      expect(out.stderr).toBe("");
      expect(out.exitCode).toBe(0);
      expect(pick(f.provider.requests.at(-1)?.body as Record<string, unknown>), options.join(" ")).toEqual(
        expected,
      );
    }
    // Without --effort, no thinking is asked for.
    f.provider.enqueue(answer("ok"));
    await f.run(["-p", "think"]);
    expect(JSON.stringify(f.provider.requests.at(-1)?.body)).not.toContain("thinking");
  });

  it("is recorded in the session, and a continuation with another level says so in the log", async () => {
    const f = await setUp();
    f.provider.enqueue(answer("ok"));
    const out = await f.run(["-p", "think", "--effort", "high", "--output-format", "json"]);
    const { sessionId } = JSON.parse(out.stdout) as { sessionId: string };
    const log = path.join(f.project.dir, ".yoake", "sessions", `${sessionId}.jsonl`);
    const start = JSON.parse((await readFile(log, "utf8")).split("\n")[0] as string);
    expect(start.config.generation).toMatchObject({ effort: "high", reasoning: { effort: "high" } });

    f.provider.enqueue(answer("ok"));
    const next = await f.run(["-p", "harder", "--continue", "--effort", "max"]);
    expect(next.exitCode).toBe(0);
    expect(next.stderr).toContain("was at effort high; it continues with effort max");
    expect(await readFile(log, "utf8")).toContain("it continues with effort max");

    // Compared with the level in force now (max), not the one the session began with (high).
    f.provider.enqueue(answer("ok"), answer("ok"));
    const same = await f.run(["-p", "again", "--continue", "--effort", "max"]);
    expect(same.exitCode).toBe(0);
    expect(same.stderr).not.toContain("effort");
    const back = await f.run(["-p", "easier", "--continue"]);
    expect(back.stderr).toContain("was at effort max; it continues with effort default");
    const entries = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; level?: string });
    expect(
      entries.filter((entry) => entry.type === "effort").map((entry) => entry.level ?? "default"),
    ).toEqual(["max", "default"]);
  });

  it("refuses an unknown level in one line, exit 2, before any request", async () => {
    const f = await setUp();
    const out = await f.run(["-p", "think", "--effort", "extreme"]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr.split("\n")[0]).toContain("extreme");
    expect(f.provider.requests).toHaveLength(0);
  });
});
