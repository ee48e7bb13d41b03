/** A spent quota in a headless run: it fails at once, and says when to run again. */
import { limitFault } from "@yoake/llm-worker/testing";
import { afterEach, expect, it } from "vitest";
import { headlessFixture } from "./cli-test-kit.js";

let fixture: Awaited<ReturnType<typeof headlessFixture>> | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

it("a daily quota is not retried; the json result carries its kind and reset time, exit 1", async () => {
  fixture = await headlessFixture();
  fixture.provider.enqueue(limitFault("gemini", "quota", 3 * 3_600_000), {
    blocks: [{ type: "text", text: "never sent" }],
  });
  const before = Date.now();
  const out = await fixture.run([
    "-p",
    "hi",
    "--model",
    "gemini/gemini-2.5-flash",
    "--output-format",
    "json",
  ]);
  expect(out.exitCode).toBe(1);
  expect(fixture.provider.requests).toHaveLength(1);
  const result = JSON.parse(out.stdout);
  expect(result.error.kind).toBe("quota_exhausted");
  const resetAt = Date.parse(result.error.resetAt);
  expect(resetAt).toBeGreaterThan(before + 3 * 3_600_000 - 2000);
  expect(resetAt).toBeLessThan(Date.now() + 3 * 3_600_000 + 2000);
  expect(out.stderr).toContain(`(resets at ${result.error.resetAt})`);
});
