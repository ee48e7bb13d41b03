/**
 * `[model] fallback` in a headless run over the mock provider: the switch is a `fallback` object
 * in stream-json and a warning on stderr, and the answer comes from the next model.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { headlessFixture } from "./cli-test-kit.js";

let fixture: Awaited<ReturnType<typeof headlessFixture>> | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

it("stream-json says why it switched models, and stderr warns", async () => {
  const f = await headlessFixture();
  fixture = f;
  // The user's own manifest: a chain the user chose.
  const config = path.join(f.project.home, "config", "yoake");
  await mkdir(config, { recursive: true });
  await writeFile(
    path.join(config, "manifest.toml"),
    '[model]\nref = "anthropic/claude-sonnet-5-5"\nfallback = ["openai/gpt-5"]\n',
  );
  f.provider.setHandler((request) =>
    request.scheme === "anthropic"
      ? { fault: "status", status: 404, message: "model: claude-sonnet-5-5", code: "not_found_error" }
      : {
          blocks: [{ type: "text", text: "From GPT." }],
          usage: { inputTokens: 1_000_000, outputTokens: 100_000 },
        },
  );
  const out = await f.run(["-p", "hi", "--output-format", "stream-json"]);
  expect(out.exitCode).toBe(0);
  const events = out.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { event: string; [key: string]: unknown });
  expect(events.find((e) => e.event === "fallback")).toMatchObject({
    event: "fallback",
    turn: 1,
    from: { scheme: "anthropic", model: "claude-sonnet-5-5" },
    to: { scheme: "openai-responses", model: "gpt-5" },
    reason: "error",
    error: { kind: "not_found", status: 404 },
  });
  expect(events.at(-1)).toMatchObject({ event: "result", status: "finished", text: "From GPT." });
  // Priced at the model that answered (gpt-5: $1.25 in, $10 out per million), not the first
  // model of the chain ($2 in, $10 out: $3.00).
  expect(events.at(-1)?.costUsd).toBeCloseTo(1.25 + 1, 6);
  expect(out.stderr).toMatch(
    /^yoake: warn: switched to openai-responses\/gpt-5: anthropic\/claude-sonnet-5-5 failed \(.*404.*\); ~\d+ prompt tokens without a cache\n$/,
  );
});
