/**
 * `yoake -p` with an `[[mcp]]` server that never completes its handshake (a real child process):
 * the run is not held for it, and stderr names it.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headlessFixturePerTest } from "./cli-test-kit.js";

const setUp = headlessFixturePerTest();

describe("yoake -p and an MCP server that never answers its handshake", () => {
  it("answers without it, and names it on stderr", { timeout: 60_000 }, async () => {
    const f = await setUp();
    const config = path.join(f.env.XDG_CONFIG_HOME as string, "yoake");
    await mkdir(config, { recursive: true });
    await writeFile(
      path.join(config, "manifest.toml"),
      [
        "[[mcp]]",
        'name = "silent"',
        `command = ${JSON.stringify(process.execPath)}`,
        `args = ["-e", "setInterval(() => {}, 1e6)"]`,
        "",
      ].join("\n"),
    );
    f.provider.enqueue({ blocks: [{ type: "text", text: "Hello" }] });
    const out = await f.run(["-p", "hi"]);
    expect(out.exitCode, out.stderr).toBe(0);
    expect(out.stdout).toBe("Hello\n");
    expect(out.stderr).toContain('yoake: warn: MCP server "silent" (');
    expect(out.stderr).toContain(
      "had not completed its handshake when the run ended: the run went without its tools\n",
    );
  });
});
