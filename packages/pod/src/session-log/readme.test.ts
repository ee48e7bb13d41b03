import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testKey } from "../../test/support/session-test-config.js";
import { restoreSession } from "../restore/restore.js";
import { readSessionLog } from "./read.js";

describe("the package README's example log", () => {
  it("is a real log: it verifies, and restores to the history it shows", async () => {
    const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
    const block = /```jsonl\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const dir = await mkdtemp(join(tmpdir(), "yoake-readme-"));
    try {
      const path = join(dir, "example.jsonl");
      await writeFile(path, block as string);
      const contents = await readSessionLog(path, testKey);
      expect(contents.warnings).toEqual([]);
      expect(contents.entries).toHaveLength(8);
      const restored = restoreSession(contents.entries);
      expect(restored.history.map((item) => item.type === "message" && item.role)).toEqual([
        "user",
        "system",
        "assistant",
      ]);
      expect(restored.lastRun).toEqual({ state: "finished" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
