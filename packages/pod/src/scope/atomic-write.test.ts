import { readdirSync, renameSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../test/support/temp-project.js";
import { holdDirectory, writeAtomically } from "./atomic-write.js";
import { OpenedElsewhereError } from "./verified-open.js";

let temp: TempProject;
let project: string;
let outside: string;

beforeEach(async () => {
  temp = await createTempProject();
  ({ root: project, outside } = temp);
  temp.put("project/sub/old.txt", "old\n");
});
afterEach(() => temp.remove());

const insideProject = (realPath: string): boolean => realPath.startsWith(`${project}/`);
const allowAll = (): void => {};

describe("writeAtomically", () => {
  it("writes through the held directory and leaves no temporary file", async () => {
    const held = await holdDirectory(path.join(project, "sub"), allowAll);
    try {
      expect(await writeAtomically(held, "new.txt", "new\n", { permitsWrite: insideProject })).toBe(
        path.join(project, "sub/new.txt"),
      );
    } finally {
      await held.handle.close();
    }
    expect(readdirSync(path.join(project, "sub")).sort()).toEqual(["new.txt", "old.txt"]);
  });

  it("fails, leaving nothing behind, when the verified directory has moved outside since", async () => {
    const held = await holdDirectory(path.join(project, "sub"), allowAll);
    renameSync(path.join(project, "sub"), path.join(outside, "sub"));
    try {
      await expect(
        writeAtomically(held, "new.txt", "new\n", { permitsWrite: insideProject }),
      ).rejects.toBeInstanceOf(OpenedElsewhereError);
    } finally {
      await held.handle.close();
    }
    expect(readdirSync(path.join(outside, "sub"))).toEqual(["old.txt"]);
  });
});

describe("holdDirectory", () => {
  it("creates the missing directories one by one, each checked before any is made", async () => {
    const seen: string[] = [];
    const held = await holdDirectory(path.join(project, "sub/a/b"), (missing) => seen.push(missing));
    await held.handle.close();
    expect(held.path).toBe(path.join(project, "sub/a/b"));
    expect(seen).toEqual([path.join(project, "sub/a"), path.join(project, "sub/a/b")]);

    const refuse = (missing: string): void => {
      if (missing.endsWith("/d")) throw new Error(`refused ${missing}`);
    };
    await expect(holdDirectory(path.join(project, "sub/c/d"), refuse)).rejects.toThrow("refused");
    expect(readdirSync(path.join(project, "sub")).sort()).toEqual(["a", "old.txt"]);
  });

  it("does not follow a link met where a directory was decided on, and creates nothing through it", async () => {
    symlinkSync(outside, path.join(project, "link"));
    await expect(holdDirectory(path.join(project, "link/new"), allowAll)).rejects.toMatchObject({
      code: "ENOTDIR",
    });
    expect(readdirSync(outside)).toEqual([]);
  });
});
