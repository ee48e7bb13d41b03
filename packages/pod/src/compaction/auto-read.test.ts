import { rmSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../test/support/temp-project.js";
import { ReadTracker } from "../tools/read-tracker.js";
import { rereadFiles } from "./auto-read.js";

let project: TempProject;
beforeEach(async () => {
  project = await createTempProject();
});
afterEach(() => project.remove());

describe("rereadFiles", () => {
  it("reads the tracked files again as they are now, in reading order, as [File: <path>] messages", async () => {
    const tracker = new ReadTracker();
    const a = project.put("project/src/a.ts", "old a\n");
    const b = project.put("project/b.md", "b\n");
    tracker.record(a, "old a\n");
    tracker.record(b, "b\n");
    project.put("project/src/a.ts", "new a\n");

    const read = await rereadFiles(project.fs, tracker, { budgetBytes: 10_000, maxFileBytes: 16_384 });
    expect(read.paths).toEqual(["src/a.ts", "b.md"]);
    expect(read.items).toEqual([
      { type: "message", role: "system", text: "[File: src/a.ts]\nnew a\n" },
      { type: "message", role: "system", text: "[File: b.md]\nb\n" },
    ]);
    expect(read.skipped).toEqual([]);
    // The model now sees the new content whole: editing it needs no other read.
    expect(tracker.check(a, "new a\n")).toEqual({ ok: true });
    expect(tracker.paths()).toEqual([a, b]);
  });

  it("keeps the newest reads within the budget, caps each file, and skips files that are gone", async () => {
    const tracker = new ReadTracker();
    const old = project.put("project/old.txt", "o".repeat(600));
    const gone = project.put("project/gone.txt", "g");
    const big = project.put("project/big.txt", "x".repeat(5000));
    const recent = project.put("project/recent.txt", "r");
    for (const file of [old, gone, big, recent]) tracker.record(file, "");
    rmSync(gone);

    const read = await rereadFiles(project.fs, tracker, { budgetBytes: 1000, maxFileBytes: 500 });
    expect(read.paths).toEqual(["big.txt", "recent.txt"]);
    expect(read.items[0]?.text).toContain("[...truncated, 5000 bytes total — use read_file for the rest]");
    expect(read.skipped).toEqual(["gone.txt", "old.txt"]);
    expect(tracker.has(gone)).toBe(false);
    // A file read only in part stays recorded as it was (the model did not see it whole).
    expect(tracker.check(big, "")).toEqual({ ok: true });
  });

  it("shows a file outside the project root by its absolute path", async () => {
    const tracker = new ReadTracker();
    const outside = project.put("outside/notes.txt", "n");
    tracker.record(outside, "n");
    const read = await rereadFiles(project.fs, tracker, { budgetBytes: 1000, maxFileBytes: 500 });
    // Out of scope now: skipped, under the path the model would have used.
    expect(read.skipped).toEqual([path.join(project.outside, "notes.txt")]);
  });
});
