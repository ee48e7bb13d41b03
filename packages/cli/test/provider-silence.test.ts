/**
 * A provider that does not answer, against the real `yoake -p`: the first retry is a line on
 * stderr without `--verbose`, naming what the provider failed to do, while the run goes on.
 */
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { describe, expect, it } from "vitest";
import { runYoakeBinary, type TempProject, tempProject, testEnv } from "./cli-test-kit.js";

/**
 * Runs `yoake -p hi` against `provider` until its stderr shows `line`, then interrupts it: the
 * line must come while the run is still going, not only with its end.
 */
async function stderrUntil(project: TempProject, provider: MockProvider, line: RegExp) {
  let stderr = "";
  let seen = false;
  const outcome = runYoakeBinary(["-p", "hi"], {
    cwd: project.dir,
    env: testEnv(project, provider),
    started: (started) => {
      started.stderr?.on("data", (chunk) => {
        stderr += String(chunk);
        if (!seen && line.test(stderr)) {
          seen = true;
          started.kill("SIGINT");
        }
      });
    },
  });
  const result = await outcome;
  return { ...result, seen };
}

describe.concurrent("yoake -p and a provider that does not answer", () => {
  it("never sends the headers: a retry line on stderr, without --verbose", { timeout: 120_000 }, async () => {
    const provider = await startMockProvider();
    const project = await tempProject();
    try {
      for (let i = 0; i < 3; i++) provider.enqueue({ fault: "stall" });
      const out = await stderrUntil(project, provider, /retrying.*\n/);
      expect(out.seen, out.stderr).toBe(true);
      expect(out.stderr).toMatch(
        /yoake: retrying in \d+\.\d s \(attempt 2 of 3\): anthropic: no response headers within 30000 ms\n/,
      );
      // Interrupted at the line: it came while the run went on.
      expect(out.code).toBe(130);
    } finally {
      await provider.close();
      await project.remove();
    }
  });

  it("sends the headers, then nothing: a retry line on stderr, without --verbose", {
    timeout: 180_000,
  }, async () => {
    const provider = await startMockProvider();
    const project = await tempProject();
    try {
      const silentAfterHeaders = { fault: "stall" as const, response: "unsent", afterBytes: 0 };
      for (let i = 0; i < 3; i++) provider.enqueue(silentAfterHeaders);
      const out = await stderrUntil(project, provider, /retrying.*\n/);
      expect(out.seen, out.stderr).toBe(true);
      expect(out.stderr).toMatch(
        /yoake: retrying in \d+\.\d s \(attempt 2 of 3\): anthropic: no progress from the provider for 60000 ms\n/,
      );
      expect(out.code).toBe(130);
    } finally {
      await provider.close();
      await project.remove();
    }
  });
});
