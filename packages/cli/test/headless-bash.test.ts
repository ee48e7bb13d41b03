/**
 * `bash` in headless runs: stream-json carries the command's output as `tool_progress` events
 * before its result; commands the Pod would ask about are denied without --yes and run with it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { headlessFixture, toolResults } from "./cli-test-kit.js";

type Fixture = Awaited<ReturnType<typeof headlessFixture>>;
let fixture: Fixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const bash = (command: string) => ({
  blocks: [{ type: "tool_call" as const, id: "toolu_1", name: "bash", arguments: { command } }],
});
const answer = (text: string) => ({ blocks: [{ type: "text" as const, text }] });

describe("bash, headless", () => {
  it("stream-json prints the command's output as tool_progress events before its tool_result", async () => {
    fixture = await headlessFixture();
    fixture.provider.enqueue(bash("echo first; echo second"), answer("ran"));
    const out = await fixture.run(["-p", "run it", "--output-format", "stream-json"]);
    expect(out.exitCode).toBe(0);
    const events = out.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; text?: string; name?: string; content?: string });
    const progress = events.filter((event) => event.event === "tool_progress");
    expect(progress.every((event) => event.name === "bash")).toBe(true);
    expect(progress.map((event) => event.text).join("")).toBe("first\nsecond\n");
    const lastProgress = events.lastIndexOf(progress.at(-1) as (typeof events)[number]);
    const result = events.findIndex((event) => event.event === "tool_result");
    expect(result).toBeGreaterThan(lastProgress);
    expect(events[result]?.content).toMatch(/^first\nsecond\n\[exit code 0 · /);
  });

  it("denies an always-ask command without --yes, and runs it with --yes", async () => {
    fixture = await headlessFixture({ ".yoake/manifest.toml": '[shell]\nalways_ask = ["git push"]\n' });
    fixture.provider.enqueue(bash("git push --dry-run"), answer("denied"));
    const denied = await fixture.run(["-p", "push"]);
    expect(denied.stderr).toContain(
      'yoake: denied bash: it needs approval; matches the always-ask pattern "git push" (rerun with --yes to allow it)',
    );
    expect(toolResults(fixture.provider.requests[1]?.body)[0]?.content).toContain(
      "the user denied this call",
    );

    fixture.provider.enqueue(bash("git push --dry-run; echo after-push"), answer("done"));
    const allowed = await fixture.run(["-p", "push", "--yes"]);
    expect(allowed.exitCode).toBe(0);
    expect(allowed.stderr).not.toContain("denied");
    expect(toolResults(fixture.provider.requests[3]?.body)[0]?.content).toContain("after-push");
  });
});
