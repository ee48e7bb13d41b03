/**
 * Without /proc/self/fd the scope cannot tell what it opened, so it must refuse every file
 * operation rather than fall back to checking paths. Run for real in a bubblewrap sandbox whose
 * /proc is an empty tmpfs.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasBubblewrap = spawnSync("bwrap", ["--version"]).status === 0;
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-no-proc-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const SCRIPT = `
import { ScopedFs } from ${JSON.stringify(path.join(here, "scoped-fs.ts"))};
const fs = await ScopedFs.create({ root: process.argv[2], allow: [{ path: ".", access: "write", recursive: true }], deny: [] });
const outcomes = [];
for (const op of [() => fs.readFile("a.txt"), () => fs.stat("a.txt"), () => fs.readdir("."), () => fs.writeFile("new/b.txt", "x")]) {
  outcomes.push(await op().then(() => "done", (error) => error.code + ": " + error.message));
}
console.log(JSON.stringify(outcomes));
`;

describe.runIf(process.platform === "linux" && hasBubblewrap)(
  "ScopedFs where /proc/self/fd is missing",
  () => {
    it("refuses every file operation with a clear error and creates nothing", () => {
      const project = path.join(base, "project");
      mkdirSync(project);
      writeFileSync(path.join(project, "a.txt"), "hello\n");
      const script = path.join(base, "probe.mts");
      writeFileSync(script, SCRIPT);
      const output = execFileSync(
        "bwrap",
        [
          "--bind",
          "/",
          "/",
          "--tmpfs",
          "/proc",
          "--dev",
          "/dev",
          process.execPath,
          "--conditions=@yoake/source",
          "--import",
          "tsx",
          script,
          project,
        ],
        { encoding: "utf8", timeout: 120_000 },
      );
      const outcomes = JSON.parse(output.trim().split("\n").at(-1) as string) as string[];
      expect(outcomes).toHaveLength(4);
      for (const outcome of outcomes) {
        expect(outcome).toMatch(/^ENOPROCFD: file access refused: .*\/proc\/self\/fd is not available/);
      }
      expect(existsSync(path.join(project, "new"))).toBe(false);
    }, 150_000);
  },
);
